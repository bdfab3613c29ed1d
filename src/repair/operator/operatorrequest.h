#pragma once

#include <optional>

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

struct SessionEntry;

/**
 * Which sessions `delete-sessions` takes by policy instead of (or besides) by client ID. Every rule given must
 * hold; a connected client never matches `notSeenFor` (it is seen now).
 */
struct SessionPolicy
{
    /** Not connected and the record not written for this long (seconds); nullopt: no such rule. */
    std::optional<qint64> notSeenForSecs;
    /** Client IDs matching this glob (`*`, `?`, `[...]`, as a shell matches file names); empty: any. */
    QString clientIdGlob;
    /** Only records with no subscription at all. */
    bool noSubscriptions = false;

    bool isEmpty() const { return !notSeenForSecs && clientIdGlob.isEmpty() && !noSubscriptions; }
    /** Whether `entry` matches every rule given, at `now` (UTC). An undecodable record matches no rule on its client ID. */
    bool matches(const SessionEntry &entry, const QDateTime &now) const;
    /** "not connected and not written for 30d, client ID matching sensor-*" (empty when isEmpty()). */
    QString text() const;
    QJsonObject toJson() const;
};

/**
 * One operator action on chosen rows (docs/cli.md, "Operator actions"): what to do and to what. The plan is made
 * by OperatorPlanner from the account's state read right before; nothing here reads the servers. A value; any thread.
 */
struct OperatorRequest
{
    enum class Verb {
        DeleteSessions, ///< the session records, the durables they name, their PUBREL consumer and QoS 2 records
        Disconnect, ///< the MQTT client's connection(s), by the server's kick request
        ClearRetained, ///< the retained messages on exact topics or matching MQTT filters
        DropBacklog, ///< the queued QoS 1/2 messages that only this session's durables wait for
    };

    Verb verb = Verb::DeleteSessions;
    QString account; ///< empty: the account of the profile's own user
    QStringList clientIds; ///< DeleteSessions, Disconnect, DropBacklog: exact MQTT client IDs
    SessionPolicy policy; ///< DeleteSessions: more sessions by policy (with or without client IDs)
    QStringList topics; ///< ClearRetained: MQTT topics or filters (`sensors/+/temp`, `status/#`)
    /** DeleteSessions, DropBacklog: disconnect a connected client first (where the server can) instead of leaving it out. */
    bool disconnectFirst = false;
    /** DeleteSessions: sessions per step (each step backs up, deletes and verifies its batch). */
    int batchSize = 500;

    /** "delete_sessions", "disconnect", "clear_retained", "drop_backlog" (the JSON's `action`). */
    static QString verbName(Verb verb);
    static std::optional<Verb> verbFromName(const QString &name);
    /** The CLI command: "delete-sessions", "disconnect", "clear-retained", "drop-backlog". */
    static QString commandName(Verb verb);

    /** InvalidInput naming what is missing or wrong (no client ID and no policy, a topic that is not a valid filter, ...). */
    Result<void> validate() const;
    /** {action, account, client_ids, policy?, topics, disconnect_first}: the journal and the JSON's `request`. */
    QJsonObject toJson() const;
    static Result<OperatorRequest> fromJson(const QJsonObject &json);
};

} // namespace MqttDoctor
