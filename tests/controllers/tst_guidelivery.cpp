// GuiDelivery, the one way a worker's result reaches the GUI thread: results arrive on the receiver's
// thread, a newer generation drops older results, and a receiver destroyed first drops them too.
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

#include "controllers/guidelivery.h"

using namespace MqttDoctor;

class TestGuiDelivery : public QObject
{
    Q_OBJECT

private slots:
    void postRunsOnTheReceiversThreadWhileCurrent()
    {
        QObject receiver;
        quint64 generation = 1;
        int delivered = 0;
        QThread *deliveredOn = nullptr;
        std::thread worker([&] {
            for (int i = 0; i < 100; ++i)
                GuiDelivery::post(&receiver, generation, 1, [&] {
                    ++delivered;
                    deliveredOn = QThread::currentThread();
                });
        });
        worker.join();
        QCOMPARE(delivered, 0); // nothing runs on the worker
        QTRY_COMPARE(delivered, 100);
        QCOMPARE(deliveredOn, QThread::currentThread());
    }

    void newerGenerationDropsOlderResults()
    {
        QObject receiver;
        quint64 generation = 1;
        int stale = 0;
        int fresh = 0;
        std::thread worker([&] { GuiDelivery::post(&receiver, generation, 1, [&] { ++stale; }); });
        worker.join();
        ++generation; // a new request (refresh, cancel, shutdown) before the old answer is handled
        std::thread second([&] { GuiDelivery::post(&receiver, generation, 2, [&] { ++fresh; }); });
        second.join();
        QTRY_COMPARE(fresh, 1);
        QCoreApplication::processEvents();
        QCOMPARE(stale, 0);
    }

    void whenReadyDeliversTheFuturesResult()
    {
        QObject receiver;
        quint64 generation = 7;
        QString result;
        QThread *deliveredOn = nullptr;
        GuiDelivery::whenReady(QtConcurrent::run([] { return QStringLiteral("answer"); }), &receiver, generation, 7, [&](const QString &r) {
            result = r;
            deliveredOn = QThread::currentThread();
        });
        QTRY_COMPARE(result, QStringLiteral("answer"));
        QCOMPARE(deliveredOn, QThread::currentThread());

        // Cancelled while the work runs: the result is dropped.
        std::atomic<bool> release{false};
        int late = 0;
        GuiDelivery::whenReady(QtConcurrent::run([&] {
                                   while (!release.load())
                                       QThread::msleep(1);
                                   return 1;
                               }),
                               &receiver, generation, 7, [&](int) { ++late; });
        ++generation;
        release = true;
        QTest::qWait(100);
        QCOMPARE(late, 0);
    }

    void destroyedReceiverDropsDeliveries()
    {
        auto receiver = std::make_unique<QObject>();
        quint64 generation = 1;
        int delivered = 0;
        std::atomic<bool> release{false};
        QFuture<int> work = QtConcurrent::run([&] {
            while (!release.load())
                QThread::msleep(1);
            return 1;
        });
        GuiDelivery::whenReady(work, receiver.get(), generation, 1, [&](int) { ++delivered; });
        GuiDelivery::post(receiver.get(), generation, 1, [&] { ++delivered; });
        receiver.reset(); // e.g. a dialog closed while its test still runs
        release = true;
        work.waitForFinished();
        QTest::qWait(100);
        QCOMPARE(delivered, 0);
    }
};

QTEST_GUILESS_MAIN(TestGuiDelivery)
#include "tst_guidelivery.moc"
