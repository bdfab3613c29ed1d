#include "layouts.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

#include <algorithm>

namespace MqttDoctor::Layouts {

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

QString streamCluster(const StreamInfo &s)
{
    return str(s.cluster, "name");
}

void addStreamPeers(const StreamInfo &s, QSet<QString> &peers)
{
    const QString leader = str(s.cluster, "leader");
    if (!leader.isEmpty())
        peers.insert(leader);
    for (const QJsonValue &r : s.cluster.value(QLatin1String("replicas")).toArray()) {
        const QString name = str(r.toObject(), "name");
        if (!name.isEmpty())
            peers.insert(name);
    }
}

QStringList sorted(QSet<QString> set)
{
    QStringList out(set.begin(), set.end());
    out.sort();
    return out;
}

} // namespace

MqttLayout::Kind kindFor(const ServerVersion &v)
{
    // Pre-releases of 2.10 (2.10.0-RC.x) already create the 2.10 streams: compare major.minor only.
    const bool modern = v.isValid() && (v.majorVersion() > 2 || (v.majorVersion() == 2 && v.minorVersion() >= 10));
    return modern ? MqttLayout::Kind::V2_10 : MqttLayout::Kind::V2_9;
}

bool servesMqtt(const ServerInfo &server)
{
    return !server.mqttKnown || server.mqttPort > 0;
}

QString domainFor(const QList<ServerInfo> &servers, const LayoutOptions &options, QString *source)
{
    const auto setSource = [source](const char *s) {
        if (source)
            *source = QString::fromLatin1(s);
    };
    if (options.domain.has_value()) {
        setSource(options.domain->isEmpty() ? "" : "option");
        return *options.domain;
    }
    // mqtt { js_domain } wins over the server's own JetStream domain: the MQTT state is in that domain
    // (e.g. a leaf node's MQTT listener keeping its state in the hub's JetStream).
    for (const ServerInfo &s : servers) {
        const QString mqttDomain = s.mqtt.value(QLatin1String("js_domain")).toString();
        if (servesMqtt(s) && !mqttDomain.isEmpty()) {
            setSource("mqtt");
            return mqttDomain;
        }
    }
    for (const ServerInfo &s : servers)
        if (s.jetstream && servesMqtt(s) && !s.jsDomain.isEmpty()) {
            setSource("server");
            return s.jsDomain;
        }
    for (const ServerInfo &s : servers)
        if (!s.jsDomain.isEmpty()) {
            setSource("server");
            return s.jsDomain;
        }
    setSource("");
    return {};
}

QString placementCluster(const QList<ServerInfo> &servers, const QString &cluster, const QList<StreamInfo> &streams)
{
    QString name = cluster;
    if (name.isEmpty()) {
        // Where the MQTT streams live, else any stream of the account.
        for (const StreamInfo &s : streams)
            if (s.isMqtt() && !streamCluster(s).isEmpty()) {
                name = streamCluster(s);
                break;
            }
        for (const StreamInfo &s : streams)
            if (name.isEmpty() && !streamCluster(s).isEmpty())
                name = streamCluster(s);
    }
    if (name.isEmpty()) {
        QMap<QString, int> sizes;
        for (const ServerInfo &s : servers)
            if (s.jetstream && !s.cluster.isEmpty())
                ++sizes[s.cluster];
        int best = 0;
        for (auto it = sizes.cbegin(); it != sizes.cend(); ++it)
            if (it.value() > best) {
                best = it.value();
                name = it.key();
            }
    }
    return name;
}

QStringList jetStreamClusters(const QList<ServerInfo> &servers, const QList<StreamInfo> &streams)
{
    QSet<QString> names;
    for (const ServerInfo &s : servers) {
        if (s.jetstream && !s.cluster.isEmpty())
            names.insert(s.cluster);
        // A cluster behind a gateway whose servers do not answer still counts.
        for (const QString &remote : s.gatewayRemotes)
            names.insert(remote);
    }
    for (const StreamInfo &s : streams)
        if (!streamCluster(s).isEmpty())
            names.insert(streamCluster(s));
    return sorted(names);
}

QStringList jetStreamPeers(const QList<ServerInfo> &servers, const QString &cluster, const QList<StreamInfo> &streams)
{
    const QString name = placementCluster(servers, cluster, streams);
    QSet<QString> peers;
    if (!name.isEmpty())
        for (const ServerInfo &s : servers)
            if (s.jetstream && s.cluster == name)
                peers.insert(s.name.isEmpty() ? s.id : s.name);
    for (const StreamInfo &s : streams)
        if (streamCluster(s) == name)
            addStreamPeers(s, peers);
    if (peers.isEmpty()) {
        // Not clustered: the one server JetStream runs on.
        for (const ServerInfo &s : servers)
            if (s.jetstream) {
                peers.insert(s.name.isEmpty() ? s.id : s.name);
                break;
            }
    }
    return sorted(peers);
}

int expectedReplicas(std::optional<int> streamReplicas, int peerCount)
{
    if (streamReplicas.has_value() && *streamReplicas > 0)
        return *streamReplicas;
    return std::clamp(peerCount, 1, 3);
}

int expectedReplicas(const QList<ServerInfo> &servers, std::optional<int> streamReplicas, const QString &cluster)
{
    return expectedReplicas(streamReplicas, int(jetStreamPeers(servers, cluster).size()));
}

LayoutChoice choose(const QList<ServerInfo> &servers, const LayoutOptions &options, const QList<StreamInfo> &streams)
{
    LayoutChoice c;
    QList<ServerInfo> mqttServers;
    for (const ServerInfo &s : servers)
        if (servesMqtt(s))
            mqttServers.append(s);
    if (mqttServers.isEmpty())
        mqttServers = servers;

    QList<ServerVersion> versions;
    for (const ServerInfo &s : std::as_const(mqttServers)) {
        const QString name = s.name.isEmpty() ? s.id : s.name;
        const auto v = ServerVersion::parse(s.version);
        if (!v) {
            c.unknownServers.append(name);
            continue;
        }
        if (!versions.contains(*v))
            versions.append(*v);
        (kindFor(*v) == MqttLayout::Kind::V2_9 ? c.legacyServers : c.currentServers).append(name);
    }
    std::sort(versions.begin(), versions.end());
    for (const ServerVersion &v : std::as_const(versions))
        c.versions.append(v.toString());
    c.legacyServers.sort();
    c.currentServers.sort();
    c.unknownServers.sort();

    MqttLayout::Kind kind = MqttLayout::Kind::V2_10;
    if (!c.legacyServers.isEmpty() || !c.currentServers.isEmpty()) {
        c.basis = LayoutChoice::Basis::Versions;
        if (!c.legacyServers.isEmpty() && !c.currentServers.isEmpty())
            kind = MqttLayout::Kind::Mixed;
        else
            kind = c.legacyServers.isEmpty() ? MqttLayout::Kind::V2_10 : MqttLayout::Kind::V2_9;
    } else {
        bool modern = false;
        bool legacy = false;
        for (const StreamInfo &s : streams) {
            if (s.name == MqttLayout::qos2InStream() || s.name == MqttLayout::outStream())
                modern = true;
            if (s.name == MqttLayout::retainedStream()) {
                const QStringList subjects = MqttStreamSpec::subjectsOf(s.config);
                if (subjects == QStringList{MqttLayout::retainedSubjects()})
                    modern = true;
                else if (subjects == QStringList{MqttLayout::retainedLegacySubject()})
                    legacy = true;
            }
        }
        if (modern || legacy) {
            c.basis = LayoutChoice::Basis::Streams;
            kind = modern ? MqttLayout::Kind::V2_10 : MqttLayout::Kind::V2_9;
        }
    }

    const QString domain = domainFor(servers, options, &c.domainSource);
    c.peers = jetStreamPeers(servers, options.cluster, streams);
    // Several clusters (a supercluster): a stream the tool creates goes where the account's MQTT streams
    // are, not into the cluster of the server the tool happens to be connected to.
    if (jetStreamClusters(servers, streams).size() > 1)
        c.cluster = placementCluster(servers, options.cluster, streams);
    c.replicasFromConfig = options.streamReplicas.has_value() && *options.streamReplicas > 0;
    c.layout = MqttLayout(kind, domain, expectedReplicas(options.streamReplicas, c.peerCount()));
    return c;
}

} // namespace MqttDoctor::Layouts
