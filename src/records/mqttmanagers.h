#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

#include "common/result.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

class SystemClient;

/**
 * One server's MQTT set-up of one account (nats-server's "account session manager"), as that server's
 * subscriptions show it. A server builds it at the account's first MQTT connect after it started and keeps
 * it until it stops; its internal client holds `$MQTT.JSA.*.RD` (how it is found), `$MQTT.JSA.<id>.>`
 * (its JetStream replies) and `$MQTT.sub.<nuid>`, where the retained-message consumer it made on
 * `$MQTT_rmsgs` delivers. That consumer lives in JetStream and dies with the stream; the subscription
 * does not, so a consumer made again on the same subject brings the server's retained messages back
 * (docs/internals.md, "MQTT state outside the streams").
 */
struct MqttManager
{
    QString server; ///< the server's name
    QString serverId;
    QString version; ///< the server's version as its reply says
    quint64 cid = 0; ///< the manager's internal client on that server
    /** The manager's id (`$MQTT.JSA.<id>.`): the hash of the server's name; empty until resolved. */
    QString id;
    /** Where the manager takes retained messages (`$MQTT.sub.<nuid>`); empty until resolved. */
    QString retainedSubject;

    bool resolved() const { return !retainedSubject.isEmpty(); }
    /** {server, server_id, version, cid, id?, retained_subject?}. */
    QJsonObject toJson() const;
};

/** The managers of one account, and the consumers of `$MQTT_rmsgs` that deliver to them. Pure helpers; any thread. */
struct AccountManagers
{
    QList<MqttManager> managers;
    /** Why the retained subjects could not be resolved when they had to be; empty when they were or did not need to be. */
    QString unresolvedWhy;

    /**
     * The consumers of `$MQTT_rmsgs` that a server made for its retained messages: delivering to
     * `$MQTT.sub.*` (the consumer info objects of CONSUMER.LIST or JSZ), and `$MQTT_rmsgs_*` ones listed
     * without their state because their server did not answer (unavailable()).
     */
    static QList<QJsonObject> retainedConsumers(const QList<QJsonObject> &rmsgsConsumers);
    /**
     * How many of `consumers` have a subscriber on their deliver subject (`push_bound`); one whose server did
     * not answer counts as bound: it is not judged.
     */
    static int boundCount(const QList<QJsonObject> &consumers);
    /** The listing could not reach the consumer's server ("unavailable", JetStreamClient::consumerListAllowUnavailable). */
    static bool unavailable(const QJsonObject &consumer);
    /**
     * The managers no consumer of `consumers` delivers to: those whose retained subject is no consumer's
     * deliver subject (resolved ones), or, while unresolved, nothing when at least as many consumers are
     * bound as there are managers, else every unresolved manager (which of them lacks one is unknown).
     */
    QList<MqttManager> withoutConsumer(const QList<QJsonObject> &consumers) const;
    /** The resolution is needed: more managers than bound retained consumers, and some unresolved. */
    bool needsResolving(const QList<QJsonObject> &consumers) const;
};

/**
 * Reads the servers' MQTT managers through the system account (SUBSZ). Blocking: a worker thread.
 */
namespace MqttManagers {

/** The subject a manager's `$MQTT.JSA.*.RD` subscription matches: what SUBSZ's `test` asks for. */
QString probeSubject();

/**
 * Every server's managers by account, from one `SUBSZ` ping testing probeSubject(): `account` empty for
 * every account. Retained subjects are not resolved (resolve()).
 */
Result<QHash<QString, QList<MqttManager>>> read(SystemClient &system, const QString &account = {});

/**
 * Fills `id` and `retainedSubject` of each manager of `account` from its server's own subscription list
 * (`$SYS.REQ.SERVER.<id>.SUBSZ` of the account, every subscription: one request per server, big in an
 * account with many MQTT subscriptions, so only asked when a consumer is missing).
 */
Result<void> resolve(SystemClient &system, const QString &account, QList<MqttManager> &managers);

/** The consumers of the account's `$MQTT_rmsgs`; nullopt when the stream is missing or its consumers were not listed. */
std::optional<QList<QJsonObject>> rmsgsConsumers(const AccountInfo &account);

/**
 * `managers` of `account` with their retained subjects resolved where AccountManagers::needsResolving
 * says so; a failure to resolve is kept in AccountManagers::unresolvedWhy, not returned.
 */
AccountManagers complete(SystemClient &system, const AccountInfo &account, QList<MqttManager> managers);

/** The managers of `subsz` (one server's SUBSZ reply data with subscription details) of `account` (all when empty). */
QHash<QString, QList<MqttManager>> fromSubsz(const QJsonObject &server, const QJsonObject &subsz);

} // namespace MqttManagers

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::MqttManager)
