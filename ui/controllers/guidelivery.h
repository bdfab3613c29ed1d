#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>

#include <utility>

namespace MqttDoctor {

/**
 * The one way a worker's result reaches the GUI thread. Work runs on a pool (AsyncRunner); what it
 * produces is handed to a receiver (a controller living on the GUI thread) and used there only if it
 * is still wanted: each controller keeps a generation counter per kind of request, bumps it when it
 * starts a new request, cancels or shuts down, and passes the generation the work started with.
 * The counter is read and written only on the receiver's thread, so no lock is needed.
 *
 * A delivery whose receiver is destroyed first is dropped (Qt removes the receiver's posted calls;
 * the future's watcher is the receiver's child).
 */
class GuiDelivery final
{
public:
    /**
     * From any thread: runs `fn()` on `receiver`'s thread, if `current` (the receiver's counter)
     * still equals `generation` by then.
     */
    template<typename Fn>
    static void post(QObject *receiver, const quint64 &current, quint64 generation, Fn &&fn)
    {
        QMetaObject::invokeMethod(
            receiver,
            [&current, generation, fn = std::forward<Fn>(fn)]() mutable {
                if (current == generation)
                    fn();
            },
            Qt::QueuedConnection);
    }

    /**
     * From any thread: runs `fn()` on `receiver`'s thread, for a receiver without generations (a
     * stream of events rather than answers to requests). The caller keeps `receiver` alive until
     * this returns.
     */
    template<typename Fn>
    static void post(QObject *receiver, Fn &&fn)
    {
        QMetaObject::invokeMethod(receiver, std::forward<Fn>(fn), Qt::QueuedConnection);
    }

    /**
     * On `receiver`'s thread, when `future` has its result: `fn(result)`, if `current` still equals
     * `generation` by then.
     */
    template<typename T, typename Fn>
    static void whenReady(QFuture<T> future, QObject *receiver, const quint64 &current, quint64 generation, Fn &&fn)
    {
        auto *watcher = new QFutureWatcher<T>(receiver);
        QObject::connect(watcher, &QFutureWatcherBase::finished, receiver,
                         [watcher, &current, generation, fn = std::forward<Fn>(fn)]() mutable {
                             watcher->deleteLater();
                             if (current == generation)
                                 fn(watcher->result());
                         });
        watcher->setFuture(std::move(future));
    }
};

} // namespace MqttDoctor
