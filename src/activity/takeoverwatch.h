#pragma once

#include <optional>

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "activity/mqttclientevent.h"

namespace MqttDoctor {

/**
 * Two devices with one MQTT client ID take the connection from each other at every CONNECT: the
 * server closes the older connection with "Duplicate Client ID". TakeoverWatch counts those closes
 * per account and client ID in a sliding window and says when a client ID crosses the threshold (a
 * takeover storm), with the addresses the client ID connected from. Fed by live events (`events`, the
 * GUI) or by closed connections (CONNZ `state=closed`). Not thread-safe.
 */
class TakeoverWatch
{
public:
    struct Options
    {
        int threshold = 3; ///< more than this many takeovers in the window is a storm
        qint64 windowMs = 5 * 60 * 1000;
    };

    struct Storm
    {
        QString account;
        QString clientId;
        int takeovers = 0; ///< in the window when it was reported
        QStringList addresses; ///< every address the client ID connected or was closed from, first seen first
        QDateTime first; ///< the window's first takeover
        QDateTime last;
    };

    TakeoverWatch();
    explicit TakeoverWatch(Options options);

    /**
     * Adds an event. Returns the storm when this takeover makes the client ID cross the threshold
     * (once per storm: again only after its window emptied).
     */
    std::optional<Storm> add(const MqttClientEvent &event);
    /** Every client ID whose takeovers in the window (ending at its last takeover) exceeded the threshold. */
    QList<Storm> storms() const;
    /** Takeovers seen in all. */
    int takeovers() const { return m_total; }
    const Options &options() const { return m_options; }

private:
    struct Track
    {
        QList<QDateTime> times; ///< takeovers within the window, oldest first
        QStringList addresses;
        bool storming = false;
        int peak = 0;
        QDateTime peakFirst, peakLast;
    };

    Options m_options;
    QHash<QString, Track> m_tracks; ///< by account + '\n' + client ID
    int m_total = 0;
};

} // namespace MqttDoctor
