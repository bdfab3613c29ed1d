#include "mqttmanagers.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

#include "nats/systemclient.h"

namespace MqttDoctor {

namespace {

const QLatin1String kManagerSubject("$MQTT.JSA.*.RD");
const QLatin1String kJsaPrefix("$MQTT.JSA.");
const QLatin1String kDeliveryPrefix("$MQTT.sub.");
/** SUBSZ lists 1,024 subscriptions unless told: the whole list of an account, in one reply. */
constexpr int kEverySubscription = 10'000'000;

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

quint64 cidOf(const QJsonObject &sub)
{
    return quint64(sub.value(QLatin1String("cid")).toInteger(0));
}

} // namespace

QJsonObject MqttManager::toJson() const
{
    QJsonObject o{{QStringLiteral("server"), server},
                  {QStringLiteral("server_id"), serverId},
                  {QStringLiteral("version"), version},
                  {QStringLiteral("cid"), qint64(cid)}};
    if (!id.isEmpty())
        o.insert(QStringLiteral("id"), id);
    if (!retainedSubject.isEmpty())
        o.insert(QStringLiteral("retained_subject"), retainedSubject);
    return o;
}

bool AccountManagers::unavailable(const QJsonObject &consumer)
{
    return consumer.contains(QLatin1String("unavailable"));
}

QList<QJsonObject> AccountManagers::retainedConsumers(const QList<QJsonObject> &rmsgsConsumers)
{
    QList<QJsonObject> out;
    for (const QJsonObject &c : rmsgsConsumers)
        if (str(c.value(QLatin1String("config")).toObject(), "deliver_subject").startsWith(kDeliveryPrefix)
            || (unavailable(c) && str(c, "name").startsWith(QLatin1String("$MQTT_rmsgs_"))))
            out.append(c);
    return out;
}

int AccountManagers::boundCount(const QList<QJsonObject> &consumers)
{
    int n = 0;
    for (const QJsonObject &c : consumers)
        n += (c.value(QLatin1String("push_bound")).toBool() || unavailable(c)) ? 1 : 0;
    return n;
}

QList<MqttManager> AccountManagers::withoutConsumer(const QList<QJsonObject> &consumers) const
{
    QSet<QString> delivered;
    int unknown = 0;
    for (const QJsonObject &c : consumers) {
        delivered.insert(str(c.value(QLatin1String("config")).toObject(), "deliver_subject"));
        unknown += unavailable(c) ? 1 : 0;
    }
    const bool enoughBound = boundCount(consumers) >= managers.size();
    QList<MqttManager> out;
    for (const MqttManager &m : managers) {
        if (m.resolved() ? !delivered.contains(m.retainedSubject) : !enoughBound)
            out.append(m);
    }
    // A consumer whose server did not answer may be any of them: only more missing than that is a finding.
    if (out.size() <= unknown)
        return {};
    return out;
}

bool AccountManagers::needsResolving(const QList<QJsonObject> &consumers) const
{
    if (boundCount(consumers) >= managers.size())
        return false;
    for (const MqttManager &m : managers)
        if (!m.resolved())
            return true;
    return false;
}

namespace MqttManagers {

QString probeSubject()
{
    // Any literal subject the managers' `$MQTT.JSA.*.RD` matches; no client publishes on it.
    return QStringLiteral("$MQTT.JSA.nats-mqtt-doctor.RD");
}

QHash<QString, QList<MqttManager>> fromSubsz(const QJsonObject &server, const QJsonObject &subsz)
{
    QHash<QString, QList<MqttManager>> out;
    QSet<QPair<QString, quint64>> seen;
    for (const QJsonValue &v : subsz.value(QLatin1String("subscriptions_list")).toArray()) {
        const QJsonObject sub = v.toObject();
        if (str(sub, "subject") != kManagerSubject)
            continue;
        const QString account = str(sub, "account");
        const quint64 cid = cidOf(sub);
        if (account.isEmpty() || seen.contains({account, cid}))
            continue;
        seen.insert({account, cid});
        MqttManager m;
        m.server = str(server, "name");
        m.serverId = str(server, "id");
        m.version = str(server, "ver");
        m.cid = cid;
        out[account].append(m);
    }
    return out;
}

Result<QHash<QString, QList<MqttManager>>> read(SystemClient &system, const QString &account)
{
    QJsonObject options{
        {QStringLiteral("subscriptions"), true}, {QStringLiteral("test"), probeSubject()}, {QStringLiteral("limit"), kEverySubscription}};
    if (!account.isEmpty())
        options.insert(QStringLiteral("account"), account);
    auto replies = system.ping(QStringLiteral("SUBSZ"), options);
    if (!replies)
        return replies.error();
    QHash<QString, QList<MqttManager>> out;
    for (const SystemClient::Reply &r : *replies) {
        if (!r.error.isEmpty())
            continue; // the roster names servers that did not answer; an error reply is not a manager
        const auto found = fromSubsz(r.server, r.data);
        for (auto it = found.cbegin(); it != found.cend(); ++it)
            out[it.key()] << it.value();
    }
    for (QList<MqttManager> &list : out)
        std::sort(list.begin(), list.end(), [](const MqttManager &a, const MqttManager &b) { return a.server < b.server; });
    return out;
}

Result<void> resolve(SystemClient &system, const QString &account, QList<MqttManager> &managers)
{
    for (MqttManager &m : managers) {
        if (m.resolved())
            continue;
        auto reply = system.server(m.serverId, QStringLiteral("SUBSZ"),
                                   QJsonObject{{QStringLiteral("subscriptions"), true},
                                               {QStringLiteral("account"), account},
                                               {QStringLiteral("limit"), kEverySubscription}});
        if (!reply)
            return reply.error().prefixed(QStringLiteral("the subscriptions of server %1").arg(m.server));
        QStringList delivery;
        for (const QJsonValue &v : reply->data.value(QLatin1String("subscriptions_list")).toArray()) {
            const QJsonObject sub = v.toObject();
            if (cidOf(sub) != m.cid)
                continue;
            const QString subject = str(sub, "subject");
            if (subject.startsWith(kDeliveryPrefix))
                delivery.append(subject);
            else if (subject.startsWith(kJsaPrefix) && subject != kManagerSubject) {
                // `$MQTT.JSA.<id>.>` (2.10.5+) or `$MQTT.JSA.<id>.*.*`; the session-persist watch is `$MQTT.JSA.*.SP...`.
                const QString token = subject.section(QLatin1Char('.'), 2, 2);
                if (token != QLatin1String("*"))
                    m.id = token;
            }
        }
        if (delivery.size() != 1)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("server %1's MQTT set-up of account %2 (client %3) holds %4 subscriptions on $MQTT.sub.*, "
                                        "not one")
                             .arg(m.server, account)
                             .arg(m.cid)
                             .arg(delivery.size()),
                         QStringLiteral("the server's MQTT internals are not as this version of the tool knows them; restart the "
                                        "server to rebuild them"));
        m.retainedSubject = delivery.first();
    }
    return {};
}

std::optional<QList<QJsonObject>> rmsgsConsumers(const AccountInfo &account)
{
    for (const StreamInfo &s : account.streams)
        if (s.name == QLatin1String("$MQTT_rmsgs"))
            return s.consumersKnown ? std::optional<QList<QJsonObject>>(s.consumers) : std::nullopt;
    return std::nullopt;
}

AccountManagers complete(SystemClient &system, const AccountInfo &account, QList<MqttManager> managers)
{
    AccountManagers out;
    out.managers = std::move(managers);
    const auto consumers = rmsgsConsumers(account);
    if (!consumers || !out.needsResolving(AccountManagers::retainedConsumers(*consumers)))
        return out;
    if (auto resolved = resolve(system, account.name, out.managers); !resolved)
        out.unresolvedWhy = resolved.error().toString();
    return out;
}

} // namespace MqttManagers

} // namespace MqttDoctor
