#include "metagroupcheck.h"

#include <optional>

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"

namespace MqttDoctor {

namespace {

QString metaServerKeyOf(const ServerInfo &s)
{
    return s.name.isEmpty() ? s.id : s.name;
}

/** The meta group as its leader lists it: the leader first, then the other peers; those it lists offline. */
struct MetaRoster
{
    const ServerInfo *leaderView = nullptr; ///< the leader's view: the only one that lists the group's peers; null: none
    QString leader;
    QString domain; ///< the JetStream domain whose meta group it is
    QStringList peers;
    QSet<QString> offline;

    /** The roster; nullopt when no server answered with a view of the meta group at all. */
    static std::optional<MetaRoster> of(const QList<ServerInfo> &servers)
    {
        MetaRoster r;
        bool anyMeta = false;
        for (const ServerInfo &s : servers) {
            if (!s.metaClusterKnown || s.metaCluster.isEmpty())
                continue;
            anyMeta = true;
            if (s.metaCluster.value(QLatin1String("replicas")).isArray()
                && (!r.leaderView || s.metaCluster.value(QLatin1String("leader")).toString() == metaServerKeyOf(s)))
                r.leaderView = &s;
        }
        if (!anyMeta)
            return std::nullopt;
        if (r.leaderView) {
            r.leader = r.leaderView->metaCluster.value(QLatin1String("leader")).toString();
            r.domain = r.leaderView->jsDomain;
            r.peers.append(r.leader);
            for (const QJsonValue &v : r.leaderView->metaCluster.value(QLatin1String("replicas")).toArray()) {
                const QJsonObject p = v.toObject();
                const QString name = p.value(QLatin1String("name")).toString();
                r.peers.append(name);
                if (p.value(QLatin1String("offline")).toBool(false))
                    r.offline.insert(name);
            }
        }
        return r;
    }
};

/** The servers expected in the meta group (`up`) and those of them that are not current members, with why. */
struct MetaMembers
{
    QStringList up;
    QStringList missing; ///< "name (why)"
    QJsonArray missingJson;
};

MetaMembers membersOf(const QList<ServerInfo> &servers, const MetaRoster &roster)
{
    QSet<QString> clusters;
    for (const ServerInfo &s : servers)
        if (roster.peers.contains(metaServerKeyOf(s)) && !s.cluster.isEmpty())
            clusters.insert(s.cluster);
    MetaMembers m;
    for (const ServerInfo &s : servers) {
        const QString name = metaServerKeyOf(s);
        if (s.jsDomain != roster.domain)
            continue; // another JetStream domain has a meta group of its own
        if (!s.jetstream && !(s.cluster.isEmpty() ? false : clusters.contains(s.cluster)))
            continue; // no JetStream and not routed to the group's servers: not expected in it
        m.up.append(name);
        QString why;
        if (!roster.leaderView)
            why = QStringLiteral("no meta leader");
        else if (!s.jetstream)
            why = QStringLiteral("JetStream disabled");
        else if (!roster.peers.contains(name))
            why = QStringLiteral("not a member");
        else if (roster.offline.contains(name))
            why = QStringLiteral("listed offline by the meta leader");
        if (why.isEmpty())
            continue;
        m.missing.append(QStringLiteral("%1 (%2)").arg(name, why));
        m.missingJson.append(QJsonObject{{QStringLiteral("server"), name}, {QStringLiteral("reason"), why}});
    }
    return m;
}

} // namespace

QList<Finding> MetaGroupCheck::findings(const QList<ServerInfo> &servers)
{
    if (servers.size() < 2)
        return {};
    const auto roster = MetaRoster::of(servers);
    if (!roster)
        return {};
    const MetaMembers members = membersOf(servers, *roster);
    if (members.missing.isEmpty())
        return {};

    const QString &leader = roster->leader;
    const QSet<QString> &offline = roster->offline;
    const qsizetype current = roster->peers.size() - offline.size();
    Finding f = FindingCatalogue::make(FindingCodes::jetStreamMetaDegraded(), QString(), QString(),
                                       {{QStringLiteral("missing"), members.missing.join(QStringLiteral(", "))}});
    f.expected = QJsonObject{{QStringLiteral("meta_group"), QJsonArray::fromStringList(members.up)}};
    f.actual = QJsonObject{{QStringLiteral("leader"), leader.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(leader)},
                           {QStringLiteral("peers"), QJsonArray::fromStringList(roster->peers)},
                           {QStringLiteral("offline"), QJsonArray::fromStringList(QStringList(offline.cbegin(), offline.cend()))},
                           {QStringLiteral("missing"), members.missingJson}};
    const qsizetype wanted = std::min<qsizetype>(3, members.up.size());
    if (!roster->leaderView) {
        f.severity = Finding::Severity::Error;
        f.title = QStringLiteral("The JetStream meta group has no leader (%1 server(s) answer)").arg(members.up.size());
        f.detail = QStringLiteral("No server reports itself as the JetStream meta leader, so no stream or consumer can be created or "
                                  "changed: every MQTT setup and QoS 1 subscription fails. Check the servers' JetStream logs for "
                                  "the meta group's elections.");
        return {f};
    }
    f.detail = QStringLiteral("%1 server(s) answer, but the JetStream meta group (leader %2) has %3 current member(s); missing: %4. "
                              "Unless mqtt { stream_replicas } is set, the servers create MQTT streams with as many replicas as "
                              "the cluster has routes, at most 3 (%5 here), and JetStream places replicas only on current meta "
                              "group members: with fewer, setting up MQTT for an account fails with \"no suitable peers for "
                              "placement (10005)\" although every server is up.")
                   .arg(members.up.size())
                   .arg(leader)
                   .arg(current)
                   .arg(members.missing.join(QStringLiteral(", ")))
                   .arg(wanted);
    return {f};
}

} // namespace MqttDoctor
