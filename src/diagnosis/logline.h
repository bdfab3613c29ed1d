#pragma once

#include <optional>

#include <QString>
#include <QStringView>

namespace MqttDoctor {

/**
 * One nats-server log line split into its prefix and its message. Tolerates what operators paste: with or without
 * `[pid]` and the date, any level token (`[ERR]`, `[WRN]`, `[INF]`, ...) anywhere after a syslog or journald prefix,
 * the client part `127.0.0.1:45696 - mid:30 - "clientID" - `, a leading `nats-server: ` (configuration errors on
 * stderr), trailing whitespace and CR/LF. Pure and reentrant: may be called from any thread.
 */
struct LogLine
{
    QString raw; ///< the line as given, trailing whitespace removed
    QString pid; ///< "1234" from "[1234]", empty when absent
    QString timestamp; ///< "2026/12/02 15:50:37.344798", empty when absent
    QString level; ///< "ERR", "WRN", "INF", "DBG", "TRC", "FTL"; empty when the line has none
    QString clientAddress; ///< "127.0.0.1:45696" (a websocket client may read "[ip]/ip:port"), empty when absent
    QString clientKind; ///< "mid" (MQTT), "mid_ws" (MQTT over websocket), "cid", "wid", "lid", "rid", "gid"
    qint64 clientNumber = 0; ///< the N of "mid:N"
    QString clientId; ///< the MQTT client ID from `"<clientID>" - ` (unquoted); only set for MQTT clients
    bool hasClientId = false; ///< true when the prefix carried a quoted client ID (it may be empty: "")
    QString message; ///< what the server formatted, without the prefix, trimmed

    bool isMqttClient() const { return clientKind.startsWith(QLatin1String("mid")); }

    static LogLine parse(const QString &line);

    /**
     * The time of a nats-server timestamp ("2026/12/02 15:50:37.344798", optionally ending in "Z") as microseconds
     * since 1970-01-01 00:00 of the log's own clock (nats-server writes local time, or UTC with logtime_utc; the
     * zone is not in the line, so none is applied). nullopt when `timestamp` is empty or not such a time.
     */
    static std::optional<qint64> timeMicros(QStringView timestamp);

    /**
     * Undoes Go's %q (strconv.Quote): `"a\"b\\c\u00e9\x01"`. The argument includes the surrounding quotes.
     * Returns nullopt when it is not a well-formed Go quoted string.
     */
    static std::optional<QString> unquoteGo(QStringView quoted);
};

} // namespace MqttDoctor
