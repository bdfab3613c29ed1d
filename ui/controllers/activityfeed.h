#pragma once

#include <memory>

#include <QList>
#include <QObject>
#include <QString>

#include "activity/mqttclientevent.h"
#include "activity/takeoverwatch.h"

namespace MqttDoctor {

class ConnectionSet;
struct ActivityFeedShared;

/**
 * MQTT clients connecting and disconnecting, live, for the GUI: ClientEventFeed read on a thread of
 * its own (a blocking subscription read, never on the GUI thread or the shared pool), the events
 * handed to the GUI thread in batches (at most every 200 ms), with takeover storms from a
 * TakeoverWatch. stop() or a new start() detaches the reader; it ends on its own within 200 ms and
 * never posts to a feed that is gone. GUI thread.
 */
class ActivityFeed final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ActivityFeed)

public:
    explicit ActivityFeed(QObject *parent = nullptr);
    ~ActivityFeed() override;

    /** Follows every account's MQTT clients through the set's system connection (which it keeps alive). */
    void start(std::shared_ptr<ConnectionSet> connections);
    void stop();
    bool isRunning() const { return m_shared != nullptr; }
    /** Why following stopped or could not start; empty while it runs. */
    QString error() const { return m_error; }
    const TakeoverWatch &takeovers() const { return m_watch; }

    /** Events read by the reader thread (posted to the GUI thread), in order. */
    void receiveEvents(const QList<MqttClientEvent> &events);
    /** The reader stopped: `error` says why. */
    void receiveFailure(const QString &error);

Q_SIGNALS:
    void eventsArrived(const QList<MqttClientEvent> &events);
    /** A client ID crossed the takeover threshold (once per storm). */
    void takeoverStorm(const TakeoverWatch::Storm &storm);
    /** Following stopped on its own (no system connection, a lost connection): error() says why. */
    void failed(const QString &error);

private:
    std::shared_ptr<ActivityFeedShared> m_shared;
    TakeoverWatch m_watch;
    QString m_error;
};

} // namespace MqttDoctor
