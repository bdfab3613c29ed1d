#include "activityfeed.h"

#include <atomic>
#include <thread>

#include <QElapsedTimer>
#include <QMutex>
#include <QMutexLocker>

#include "activity/clienteventfeed.h"
#include "controllers/guidelivery.h"
#include "nats/connectionset.h"

namespace MqttDoctor {

/** What the reader thread and the feed share: the stop flag, and the feed to post to while attached. */
struct ActivityFeedShared
{
    std::atomic<bool> stop{false};
    QMutex mutex;
    ActivityFeed *feed = nullptr;
};

namespace {

constexpr int kPollMs = 200;

void post(const std::shared_ptr<ActivityFeedShared> &shared, std::function<void(ActivityFeed *)> call)
{
    const QMutexLocker lock(&shared->mutex);
    if (ActivityFeed *feed = shared->feed)
        GuiDelivery::post(feed, [feed, call = std::move(call)] { call(feed); });
}

void readLoop(std::shared_ptr<ActivityFeedShared> shared, std::shared_ptr<ConnectionSet> connections)
{
    auto feed = ClientEventFeed::open(*connections, {});
    if (!feed) {
        const QString error = feed.error().message();
        post(shared, [error](ActivityFeed *f) { f->receiveFailure(error); });
        return;
    }
    QList<MqttClientEvent> batch;
    QElapsedTimer sinceSent;
    sinceSent.start();
    while (!shared->stop.load()) {
        auto event = feed->next(kPollMs);
        if (!event) {
            const QString error = event.error().message();
            post(shared, [error](ActivityFeed *f) { f->receiveFailure(error); });
            break;
        }
        if (*event)
            batch << **event;
        if (!batch.isEmpty() && (sinceSent.elapsed() >= kPollMs || batch.size() >= 2000)) {
            post(shared, [events = std::move(batch)](ActivityFeed *f) { f->receiveEvents(events); });
            batch.clear();
            sinceSent.restart();
        }
    }
    // The subscription and its connection set are let go here, on this thread: closing waits for nats.c.
}

} // namespace

ActivityFeed::ActivityFeed(QObject *parent) : QObject(parent) {}

ActivityFeed::~ActivityFeed()
{
    stop();
}

void ActivityFeed::start(std::shared_ptr<ConnectionSet> connections)
{
    stop();
    m_error.clear();
    m_watch = TakeoverWatch();
    if (!connections || !connections->hasSystem()) {
        m_error = tr("Live client events need a system connection (the system account's user in the connection settings).");
        return;
    }
    m_shared = std::make_shared<ActivityFeedShared>();
    m_shared->feed = this;
    std::thread(readLoop, m_shared, std::move(connections)).detach();
}

void ActivityFeed::stop()
{
    if (!m_shared)
        return;
    m_shared->stop.store(true);
    const QMutexLocker lock(&m_shared->mutex);
    m_shared->feed = nullptr;
    m_shared.reset();
}

void ActivityFeed::receiveEvents(const QList<MqttClientEvent> &events)
{
    if (!m_shared)
        return; // stopped meanwhile
    emit eventsArrived(events);
    for (const MqttClientEvent &e : events)
        if (const auto storm = m_watch.add(e))
            emit takeoverStorm(*storm);
}

void ActivityFeed::receiveFailure(const QString &error)
{
    if (!m_shared)
        return;
    m_error = error;
    m_shared.reset();
    emit failed(error);
}

} // namespace MqttDoctor
