#include "metagroupcheck.h"

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

} // namespace

QList<Finding> MetaGroupCheck::findings(const QList<ServerInfo> &servers)
{
    if (servers.size() < 2)
        return {};
    // The leader's view: the only one that lists the group's peers.
    const ServerInfo *leaderView = nullptr;
    bool anyMeta = false;
    for (const ServerInfo &s : servers) {
        if (!s.metaClusterKnown || s.metaCluster.isEmpty())
            continue;
        anyMeta = true;
        if (s.metaCluster.value(QLatin1String("replicas")).isArray()
            && (!leaderView || s.metaCluster.value(QLatin1String("leader")).toString() == metaServerKeyOf(s)))
            leaderView = &s;
    }
    if (!anyMeta)
        return {};

    QStringList peers;
    QSet<QString> offline;
    QString leader;
    QString domain;
    if (leaderView) {
        leader = leaderView->metaCluster.value(QLatin1String("leader")).toString();
        domain = leaderView->jsDomain;
        peers.append(leader);
        for (const QJsonValue &v : leaderView->metaCluster.value(QLatin1String("replicas")).toArray()) {
            const QJsonObject p = v.toObject();
            const QString name = p.value(QLatin1String("name")).toString();
            peers.append(name);
            if (p.value(QLatin1String("offline")).toBool(false))
                offline.insert(name);
        }
    }
    QSet<QString> clusters;
    for (const ServerInfo &s : servers)
        if (peers.contains(metaServerKeyOf(s)) && !s.cluster.isEmpty())
            clusters.insert(s.cluster);

    QStringList missing;
    QJsonArray missingJson;
    QStringList up;
    for (const ServerInfo &s : servers) {
        const QString name = metaServerKeyOf(s);
        if (s.jsDomain != domain)
            continue; // another JetStream domain has a meta group of its own
        if (!s.jetstream && !(s.cluster.isEmpty() ? false : clusters.contains(s.cluster)))
            continue; // no JetStream and not routed to the group's servers: not expected in it
        up.append(name);
        QString why;
        if (!leaderView)
            why = QStringLiteral("no meta leader");
        else if (!s.jetstream)
            why = QStringLiteral("JetStream disabled");
        else if (!peers.contains(name))
            why = QStringLiteral("not a member");
        else if (offline.contains(name))
            why = QStringLiteral("listed offline by the meta leader");
        if (why.isEmpty())
            continue;
        missing.append(QStringLiteral("%1 (%2)").arg(name, why));
        missingJson.append(QJsonObject{{QStringLiteral("server"), name}, {QStringLiteral("reason"), why}});
    }
    if (missing.isEmpty())
        return {};

    const qsizetype members = peers.size() - offline.size();
    Finding f = FindingCatalogue::make(FindingCodes::jetStreamMetaDegraded(), QString(), QString(),
                                       {{QStringLiteral("missing"), missing.join(QStringLiteral(", "))}});
    f.expected = QJsonObject{{QStringLiteral("meta_group"), QJsonArray::fromStringList(up)}};
    f.actual = QJsonObject{{QStringLiteral("leader"), leader.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(leader)},
                           {QStringLiteral("peers"), QJsonArray::fromStringList(peers)},
                           {QStringLiteral("offline"), QJsonArray::fromStringList(QStringList(offline.cbegin(), offline.cend()))},
                           {QStringLiteral("missing"), missingJson}};
    const qsizetype wanted = std::min<qsizetype>(3, up.size());
    if (!leaderView) {
        f.severity = Finding::Severity::Error;
        f.title = QStringLiteral("The JetStream meta group has no leader (%1 server(s) answer)").arg(up.size());
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
                   .arg(up.size())
                   .arg(leader)
                   .arg(members)
                   .arg(missing.join(QStringLiteral(", ")))
                   .arg(wanted);
    return {f};
}

} // namespace MqttDoctor
