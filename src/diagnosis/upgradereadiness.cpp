#include "upgradereadiness.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>

#include "diagnosis/checks.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/versionadvisories.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {

QString upgradeServerKey(const ServerInfo &s)
{
    return s.name.isEmpty() ? s.id : s.name;
}

// "2.11.15 / 2.12.6 / 2.14.0", the first of them the target has: what the finding names.
QString upgradeVersionsText(const QStringList &versions)
{
    return versions.join(QStringLiteral(" / "));
}

// The MQTT servers that do not have the change yet, "name version".
QStringList upgradeServersWithout(const QList<ServerInfo> &servers, const QStringList &versions)
{
    QStringList out;
    for (const ServerInfo &s : servers) {
        if (s.mqttKnown && s.mqttPort <= 0)
            continue;
        const auto v = ServerVersion::parse(s.version);
        if (v && !VersionAdvisories::isFixed(*v, versions))
            out.append(QStringLiteral("%1 %2").arg(upgradeServerKey(s), s.version));
    }
    return out;
}

// A printable form of a client ID or topic: control characters, NUL and DEL as \xNN.
QString upgradePrintable(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(int(c.unicode()), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

} // namespace

QStringList UpgradeReadiness::clientIdRefusalVersions()
{
    return {QStringLiteral("2.11.15"), QStringLiteral("2.12.6"), QStringLiteral("2.14.0")};
}

QStringList UpgradeReadiness::internalSubscriptionVersions()
{
    return {QStringLiteral("2.12.14"), QStringLiteral("2.14.4")};
}

QStringList UpgradeReadiness::controlCharacterTopicVersions()
{
    return {QStringLiteral("2.12.9"), QStringLiteral("2.14.1")};
}

QStringList UpgradeReadiness::delCharacterTopicVersions()
{
    return {QStringLiteral("2.14.0")};
}

QString UpgradeReadiness::clientIdProblem(const QString &clientId)
{
    for (const QChar c : clientId) {
        switch (c.unicode()) {
        case u' ': return QStringLiteral("it contains a space");
        case u'\t': return QStringLiteral("it contains a tab");
        case u'.': return QStringLiteral("it contains '.'");
        case u'*': return QStringLiteral("it contains '*'");
        case u'>': return QStringLiteral("it contains '>'");
        case 0: return QStringLiteral("it contains a NUL character");
        default: break;
        }
    }
    return {};
}

QString UpgradeReadiness::topicProblem(const QString &topic, QStringList *versions)
{
    for (const QChar c : topic) {
        const char16_t u = c.unicode();
        if (u == u'\t' || u == u'\n' || u == u'\r' || u == u'\f') {
            if (versions)
                *versions = controlCharacterTopicVersions();
            return QStringLiteral("it contains the control character \\x%1").arg(int(u), 2, 16, QLatin1Char('0'));
        }
    }
    if (topic.contains(QChar(0x7f))) {
        if (versions)
            *versions = delCharacterTopicVersions();
        return QStringLiteral("it contains the DEL character \\x7f");
    }
    return {};
}

bool UpgradeReadiness::changesWith(const QList<ServerInfo> &servers, const ServerVersion &target, const QStringList &versions)
{
    return VersionAdvisories::isFixed(target, versions) && !upgradeServersWithout(servers, versions).isEmpty();
}

namespace {

using Value = FindingCatalogue::Value;

/** UPGRADE_CLIENT_ID_REFUSED of `clientId` (on the record at `subject`, if any): `what` names whose ID it is. */
Finding clientIdRefused(const QString &account, const QString &clientId, const QString &subject, const QString &reason, const QString &what,
                        const QString &targetText, const QString &now)
{
    const Value values[] = {{QStringLiteral("client_id"), upgradePrintable(clientId)},
                            {QStringLiteral("subject"), subject},
                            {QStringLiteral("version"), targetText},
                            {QStringLiteral("reason"), reason}};
    Finding f = FindingCatalogue::make(FindingCodes::upgradeClientIdRefused(), account, MqttLayout::sessionsStream(), values);
    f.clientId = clientId;
    const QStringList versions = UpgradeReadiness::clientIdRefusalVersions();
    f.expected = QJsonObject{{QStringLiteral("refused_from"), upgradeVersionsText(versions)}};
    f.actual = QJsonObject{
        {QStringLiteral("client_id"), clientId}, {QStringLiteral("reason"), reason}, {QStringLiteral("target_version"), targetText}};
    f.detail = QStringLiteral("%1 \"%2\": %3. Servers from %4 answer its CONNECT with CONNACK 0x02 (identifier rejected); "
                              "accepted now by %5. Give the client another client ID before upgrading to %6.")
                   .arg(what, upgradePrintable(clientId), reason, upgradeVersionsText(versions), now, targetText);
    return f;
}

/**
 * The client IDs the target version will refuse: those of the session records, then those of connected
 * clients without a record of their own and those the operator named (their own characters, and a record
 * of another client ID on their hash: refused instead of taken over).
 */
void clientIdsRefused(const SessionCheckInput &input, const QList<ServerInfo> &servers, const CheckOptions &options,
                      const QString &targetText, QList<Finding> &out)
{
    const QString &account = input.account;
    const QString now = upgradeServersWithout(servers, UpgradeReadiness::clientIdRefusalVersions()).join(QStringLiteral(", "));
    QHash<QString, const SessionEntry *> byHash;
    for (const SessionEntry &e : input.sessions) {
        if (e.clientId.isEmpty())
            continue;
        byHash.insert(e.hash, &e);
        if (const QString why = UpgradeReadiness::clientIdProblem(e.clientId); !why.isEmpty())
            out.append(clientIdRefused(account, e.clientId, e.subject, why,
                                       QStringLiteral("The session record on %1 belongs to client ID").arg(e.subject), targetText, now));
    }
    QStringList others = options.knownClientIds;
    if (input.connected)
        for (auto it = input.connected->cbegin(); it != input.connected->cend(); ++it)
            others.append(it.key());
    others.removeDuplicates();
    for (const QString &id : std::as_const(others)) {
        const QString hash = ClientIdHash::hash(id);
        const SessionEntry *record = byHash.value(hash, nullptr);
        if (record && record->clientId == id)
            continue; // its own record: judged above
        if (const QString why = UpgradeReadiness::clientIdProblem(id); !why.isEmpty()) {
            out.append(clientIdRefused(account, id, QString(), why, QStringLiteral("The connected client ID"), targetText, now));
        } else if (record) {
            out.append(clientIdRefused(
                account, id, record->subject,
                QStringLiteral("its hash %1 is that of the session record of \"%2\"").arg(hash, upgradePrintable(record->clientId)),
                QStringLiteral("Client ID"), targetText, now));
        }
    }
}

/** UPGRADE_INTERNAL_SUBSCRIPTION: each session's subscription to an internal `$MQTT.` subject. */
void internalSubscriptions(const SessionCheckInput &input, const QList<ServerInfo> &servers, const QString &targetText, QList<Finding> &out)
{
    const QStringList versions = UpgradeReadiness::internalSubscriptionVersions();
    for (const SessionEntry &e : input.sessions) {
        if (!e.record)
            continue;
        for (auto it = e.record->subs.begin(); it != e.record->subs.end(); ++it) {
            if (!it.key().startsWith(QLatin1String("$MQTT.")))
                continue;
            const Value values[] = {{QStringLiteral("client_id"), upgradePrintable(e.clientId)},
                                    {QStringLiteral("subject"), e.subject},
                                    {QStringLiteral("filter"), it.key()}};
            Finding f =
                FindingCatalogue::make(FindingCodes::upgradeInternalSubscription(), input.account, MqttLayout::sessionsStream(), values);
            f.expected = QJsonObject{{QStringLiteral("refused_from"), upgradeVersionsText(versions)}};
            f.actual = QJsonObject{{QStringLiteral("filter"), it.key()}, {QStringLiteral("target_version"), targetText}};
            f.detail = QStringLiteral("The session of \"%1\" holds a subscription to %2, an internal subject of the servers' MQTT "
                                      "code (the client subscribed to an MQTT topic starting with $MQTT/). From %3 such "
                                      "subscriptions no longer see internal traffic and newer servers refuse them; served "
                                      "now by %4.")
                           .arg(upgradePrintable(e.clientId), it.key(), upgradeVersionsText(versions),
                                upgradeServersWithout(servers, versions).join(QStringLiteral(", ")));
            out.append(f);
        }
    }
}

/**
 * The retained messages (read for the target version only): UPGRADE_RETAINED_SKIPPED for a topic the target
 * skips, UPGRADE_PAYLOAD_TOO_LARGE for a payload over the MQTT servers' smallest max_payload.
 */
void retainedMessages(const SessionCheckInput &input, const QList<ServerInfo> &servers, const ServerVersion &target, QList<Finding> &out)
{
    const QString targetText = target.toString();
    qint64 maxPayload = 0;
    for (const ServerInfo &s : servers)
        if (s.maxPayload > 0 && (!s.mqttKnown || s.mqttPort > 0))
            maxPayload = maxPayload == 0 ? s.maxPayload : std::min(maxPayload, s.maxPayload);
    for (const RetainedTopicSize &r : *input.retained) {
        QStringList versions;
        if (const QString why = UpgradeReadiness::topicProblem(r.topic, &versions);
            !why.isEmpty() && UpgradeReadiness::changesWith(servers, target, versions)) {
            const Value values[] = {{QStringLiteral("topic"), upgradePrintable(r.topic)}, {QStringLiteral("version"), targetText}};
            Finding f = FindingCatalogue::make(FindingCodes::upgradeRetainedSkipped(), input.account, MqttLayout::retainedStream(), values);
            f.expected = QJsonObject{{QStringLiteral("skipped_from"), upgradeVersionsText(versions)}};
            f.actual = QJsonObject{{QStringLiteral("topic"), r.topic}, {QStringLiteral("target_version"), targetText}};
            f.detail = QStringLiteral("The retained message on topic \"%1\": %2. Servers from %3 skip it when they load retained "
                                      "messages (subscribers no longer get it) and refuse PUBLISHes to that topic (\"character "
                                      "not supported for MQTT topics\"); served now by %4.")
                           .arg(upgradePrintable(r.topic), why, upgradeVersionsText(versions),
                                upgradeServersWithout(servers, versions).join(QStringLiteral(", ")));
            out.append(f);
        }
        if (maxPayload > 0 && r.payloadBytes > maxPayload) {
            const Value values[] = {{QStringLiteral("topic"), upgradePrintable(r.topic)},
                                    {QStringLiteral("bytes"), QString::number(r.payloadBytes)},
                                    {QStringLiteral("max_payload"), QString::number(maxPayload)}};
            Finding f = FindingCatalogue::make(FindingCodes::upgradePayloadTooLarge(), input.account, MqttLayout::retainedStream(), values);
            f.expected = QJsonObject{{QStringLiteral("max_payload"), maxPayload}};
            f.actual = QJsonObject{{QStringLiteral("topic"), r.topic}, {QStringLiteral("payload_bytes"), r.payloadBytes}};
            f.detail = QStringLiteral("The retained payload on \"%1\" has %2 bytes, more than the servers' max_payload of %3. Newer "
                                      "servers enforce max_payload on MQTT PUBLISH (nats-server commit fe52db5a1): the publisher "
                                      "is disconnected the next time it sends it; the stored message is still delivered.")
                           .arg(upgradePrintable(r.topic))
                           .arg(r.payloadBytes)
                           .arg(maxPayload);
            out.append(f);
        }
    }
}

} // namespace

QList<Finding> UpgradeReadiness::accountFindings(const SessionCheckInput &input, const QList<ServerInfo> &servers,
                                                 const CheckOptions &options)
{
    QList<Finding> out;
    if (!options.targetVersion)
        return out;
    const ServerVersion &target = *options.targetVersion;
    if (changesWith(servers, target, clientIdRefusalVersions()))
        clientIdsRefused(input, servers, options, target.toString(), out);
    if (changesWith(servers, target, internalSubscriptionVersions()))
        internalSubscriptions(input, servers, target.toString(), out);
    if (input.retained)
        retainedMessages(input, servers, target, out);
    Checks::sortFindings(out);
    return out;
}

} // namespace MqttDoctor
