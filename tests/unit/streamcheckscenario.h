#pragma once
// The inputs of the stream-level checks (Checks::checkAccount): captured $SYS JSZ replies of real servers turned
// into an AccountCheckInput, then changed the way operators and upgrades change streams (scenario()), and
// helpers to pick findings out. Shared by tst_streamchecks and tst_streamchecks_evidence.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/checks.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/layouts.h"
#include "nats/discovery.h"

namespace MqttDoctor::Test::StreamCheckScenario {

struct Capture
{
    QList<ServerInfo> servers;
    AccountInfo account;
};

// Replies of real servers (tests/unit/data), wrapped {"server": ..., "data": <jsz>} like $SYS replies:
// the 3-node 2.9.10 cluster, and single 2.9.10 / 2.10.27 / 2.15.1 servers with one persistent QoS1
// client and two retained messages in account ACME (see tests/unit/data/checks/README.md).
inline Capture loadCapture(const QString &relativePath)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/") + relativePath);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read captured JSZ replies: %s", qPrintable(f.fileName()));
    Capture c;
    QList<SystemClient::Reply> replies;
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).array()) {
        auto r = SystemClient::parse(QJsonDocument(v.toObject()).toJson());
        if (!r)
            qFatal("bad reply in %s", qPrintable(f.fileName()));
        replies.append(*r);
        c.servers.append(Discovery::serverFromEnvelope(r->server));
    }
    const QList<AccountInfo> accounts = Discovery::accountsFromJsz(replies);
    if (accounts.size() != 1)
        qFatal("expected one account in %s", qPrintable(f.fileName()));
    c.account = accounts.first();
    return c;
}

inline QString cluster29()
{
    return QStringLiteral("jsz-cluster-2.9.10.json");
}
inline QString single29()
{
    return QStringLiteral("checks/single-2.9.10.json");
}
inline QString single210()
{
    return QStringLiteral("checks/single-2.10.27.json");
}
inline QString single215()
{
    return QStringLiteral("checks/single-2.15.1.json");
}
inline QString domainHub()
{
    return QStringLiteral("checks/single-2.10.27-domain-hub.json");
}
inline QString upgradeBefore()
{
    return QStringLiteral("checks/upgrade-2.9.10-to-2.10.27-before-connect.json");
}
inline QString upgradeAfter()
{
    return QStringLiteral("checks/upgrade-2.9.10-to-2.10.27-after-connect.json");
}
inline QString downgrade()
{
    return QStringLiteral("checks/downgrade-2.10.27-to-2.9.10.json");
}

inline StreamInfo *findStream(AccountInfo &a, const char *name)
{
    for (StreamInfo &s : a.streams)
        if (s.name == QLatin1String(name))
            return &s;
    qFatal("no stream %s", name);
    return nullptr;
}

inline void removeStream(AccountInfo &a, const char *name)
{
    a.streams.removeIf([name](const StreamInfo &s) { return s.name == QLatin1String(name); });
    a.streamCount = int(a.streams.size());
}

inline void addStream(AccountInfo &a, const QString &name, const QStringList &subjects, qint64 messages = 0)
{
    StreamInfo s;
    s.name = name;
    s.config = QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("subjects"), QJsonArray::fromStringList(subjects)},
                           {QStringLiteral("retention"), QStringLiteral("limits")},
                           {QStringLiteral("max_msgs_per_subject"), -1},
                           {QStringLiteral("discard"), QStringLiteral("old")},
                           {QStringLiteral("storage"), QStringLiteral("file")},
                           {QStringLiteral("num_replicas"), 1}};
    s.state = QJsonObject{{QStringLiteral("messages"), messages}};
    s.source = QStringLiteral("jsz");
    a.streams.append(s);
    a.streamCount = int(a.streams.size());
}

inline void setConfig(AccountInfo &a, const char *stream, const char *field, const QJsonValue &value)
{
    StreamInfo *s = findStream(a, stream);
    s->config.insert(QLatin1String(field), value);
}

/** An account with JetStream and no stream at all: no MQTT client has connected yet. */
inline void makeFresh(AccountInfo &a)
{
    a.streams.clear();
    a.streamCount = 0;
    a.storage = 0;
}

inline QJsonObject limits(qint64 maxStreams, qint64 maxStorage = -1, bool maxBytesRequired = false)
{
    return QJsonObject{{QStringLiteral("max_memory"), -1},
                       {QStringLiteral("max_storage"), maxStorage},
                       {QStringLiteral("max_streams"), maxStreams},
                       {QStringLiteral("max_consumers"), -1},
                       {QStringLiteral("max_bytes_required"), maxBytesRequired}};
}

inline ServerInfo server(const char *name, const char *version, const char *cluster)
{
    ServerInfo s;
    s.name = QString::fromLatin1(name);
    s.version = QString::fromLatin1(version);
    s.cluster = QString::fromLatin1(cluster);
    s.jetstream = true;
    return s;
}

/** "CODE stream severity" per finding, sorted: compact and exact. */
inline QStringList summary(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out.append(
            QStringLiteral("%1 %2 %3").arg(f.code, f.stream.isEmpty() ? QStringLiteral("-") : f.stream, Finding::severityName(f.severity)));
    out.sort();
    return out;
}

inline QString dump(const QList<Finding> &findings)
{
    QStringList lines;
    for (const Finding &f : findings)
        lines.append(QString::fromUtf8(QJsonDocument(f.toJson()).toJson(QJsonDocument::Compact)));
    return lines.join(QLatin1Char('\n'));
}

inline const Finding *first(const QList<Finding> &findings, const QString &code, const char *stream = nullptr)
{
    for (const Finding &f : findings)
        if (f.code == code && (!stream || f.stream == QLatin1String(stream)))
            return &f;
    return nullptr;
}

/** The scenario table: a capture, then a named change of the account, servers or options. */
inline AccountCheckInput scenario(const QString &capture, const QString &change)
{
    Capture c = loadCapture(capture);
    AccountCheckInput in;
    in.account = c.account;
    in.servers = c.servers;
    AccountInfo &a = in.account;
    const auto is = [&change](const char *name) { return change == QLatin1String(name); };

    if (is("none")) {
    } else if (is("fresh")) {
        makeFresh(a);
    } else if (is("jetstream off")) {
        makeFresh(a);
        a.jetstream = false;
    } else if (is("jetstream off, not for mqtt")) {
        makeFresh(a);
        a.jetstream = false;
        in.assumeMqtt = false;
    } else if (is("sess deleted")) {
        removeStream(a, "$MQTT_sess");
    } else if (is("msgs deleted")) {
        removeStream(a, "$MQTT_msgs");
    } else if (is("rmsgs deleted")) {
        removeStream(a, "$MQTT_rmsgs");
    } else if (is("out deleted")) {
        removeStream(a, "$MQTT_out");
    } else if (is("fresh + $MQTT.> stream")) {
        makeFresh(a);
        addStream(a, QStringLiteral("CATCHALL"), {QStringLiteral("$MQTT.>")});
    } else if (is("fresh + $MQTT.> stream, not for mqtt")) {
        makeFresh(a);
        addStream(a, QStringLiteral("CATCHALL"), {QStringLiteral("$MQTT.>")});
        in.assumeMqtt = false;
    } else if (is("fresh + msgs.foo.* stream")) {
        makeFresh(a);
        addStream(a, QStringLiteral("ORDERS"), {QStringLiteral("orders.>"), QStringLiteral("$MQTT.msgs.foo.*")});
    } else if (is("fresh + > stream")) {
        makeFresh(a);
        addStream(a, QStringLiteral("EVERYTHING"), {QStringLiteral(">")});
    } else if (is("qos2 capture stream")) {
        addStream(a, QStringLiteral("QOS2TAP"), {QStringLiteral("$MQTT.qos2.>")});
    } else if (is("rmsgs.foo stream")) {
        addStream(a, QStringLiteral("RETAP"), {QStringLiteral("$MQTT.rmsgs.foo")});
    } else if (is("unrelated streams")) {
        addStream(a, QStringLiteral("ORDERS"), {QStringLiteral("orders.>")});
        addStream(a, QStringLiteral("RETAINED_COPY"), {QStringLiteral("$MQTT.rmsgs")}); // no overlap with $MQTT.rmsgs.>
    } else if (is("sess subjects other token")) {
        setConfig(a, "$MQTT_sess", "subjects", QJsonArray{QStringLiteral("$MQTT.sess.spoke.>")});
    } else if (is("domain option hub")) {
        in.options.layout.domain = QStringLiteral("hub");
    } else if (is("domain option empty")) {
        in.options.layout.domain = QString();
    } else if (is("msgs subjects narrow")) {
        setConfig(a, "$MQTT_msgs", "subjects", QJsonArray{QStringLiteral("$MQTT.msgs.foo.>")});
    } else if (is("msgs subjects extra")) {
        setConfig(a, "$MQTT_msgs", "subjects", QJsonArray{QStringLiteral("$MQTT.msgs.>"), QStringLiteral("extra.>")});
    } else if (is("sess subjects reordered")) {
        setConfig(a, "$MQTT_sess", "subjects", QJsonArray{QStringLiteral("$MQTT.sess.>")});
    } else if (is("sess max per subject -1 + duplicates")) {
        setConfig(a, "$MQTT_sess", "max_msgs_per_subject", -1);
        findStream(a, "$MQTT_sess")->state.insert(QStringLiteral("messages"), 5);
        findStream(a, "$MQTT_sess")->state.insert(QStringLiteral("num_subjects"), 2);
    } else if (is("sess memory")) {
        setConfig(a, "$MQTT_sess", "storage", QStringLiteral("memory"));
    } else if (is("qos2 discard old")) {
        setConfig(a, "$MQTT_qos2in", "discard", QStringLiteral("old"));
        findStream(a, "$MQTT_qos2in")->config.remove(QStringLiteral("discard_new_per_subject"));
    } else if (is("msgs limits retention")) {
        setConfig(a, "$MQTT_msgs", "retention", QStringLiteral("limits"));
    } else if (is("max_streams 2, fresh")) {
        makeFresh(a);
        in.limits = limits(2);
    } else if (is("max_streams 3")) {
        in.limits = limits(3);
    } else if (is("max_streams 4")) {
        in.limits = limits(4);
    } else if (is("max_streams 5")) {
        in.limits = limits(5);
    } else if (is("max_streams -1")) {
        in.limits = limits(-1);
    } else if (is("account limits max_streams 4")) {
        a.limits = limits(4);
        a.limitsKnown = true;
    } else if (is("storage full")) {
        in.limits = limits(-1, 1000);
        a.storage = 1000;
    } else if (is("storage 95%")) {
        in.limits = limits(-1, 1000);
        a.storage = 950;
    } else if (is("max_bytes_required, fresh")) {
        makeFresh(a);
        in.limits = limits(-1, -1, true);
    } else if (is("max_bytes_required")) {
        in.limits = limits(-1, -1, true);
    } else if (is("msgs R1")) {
        setConfig(a, "$MQTT_msgs", "num_replicas", 1);
    } else if (is("stream_replicas 1")) {
        in.options.layout.streamReplicas = 1;
    } else if (is("stream_replicas 5")) {
        in.options.layout.streamReplicas = 5;
    } else if (is("stream_replicas 3, fresh")) {
        makeFresh(a);
        in.options.layout.streamReplicas = 3;
    } else if (is("sess R3 on one server")) {
        setConfig(a, "$MQTT_sess", "num_replicas", 3);
    } else if (is("servers: 3-node cluster")) {
        in.servers = {server("x1", "2.10.27", "c"), server("x2", "2.10.27", "c"), server("x3", "2.10.27", "c")};
    } else if (is("sess no leader")) {
        findStream(a, "$MQTT_sess")->cluster.remove(QStringLiteral("leader"));
    } else if (is("msgs no leader")) {
        findStream(a, "$MQTT_msgs")->cluster.remove(QStringLiteral("leader"));
    } else if (is("rmsgs replica offline")) {
        QJsonObject &cl = findStream(a, "$MQTT_rmsgs")->cluster;
        QJsonArray replicas = cl.value(QLatin1String("replicas")).toArray();
        QJsonObject r = replicas.at(0).toObject();
        r.insert(QStringLiteral("offline"), true);
        r.insert(QStringLiteral("current"), false);
        replicas.replace(0, r);
        cl.insert(QStringLiteral("replicas"), replicas);
    } else if (is("sess replica lagging")) {
        QJsonObject &cl = findStream(a, "$MQTT_sess")->cluster;
        QJsonArray replicas = cl.value(QLatin1String("replicas")).toArray();
        QJsonObject r = replicas.at(1).toObject();
        r.insert(QStringLiteral("current"), false);
        r.insert(QStringLiteral("active"), qint64(4200000000));
        r.insert(QStringLiteral("lag"), 17);
        replicas.replace(1, r);
        cl.insert(QStringLiteral("replicas"), replicas);
    } else if (is("follower view")) {
        // As n2 sees $MQTT_sess (leader n1): the other follower looks not current with no activity.
        QJsonObject &cl = findStream(a, "$MQTT_sess")->cluster;
        QJsonArray replicas = cl.value(QLatin1String("replicas")).toArray();
        QJsonObject r = replicas.at(1).toObject();
        r.insert(QStringLiteral("current"), false);
        r.insert(QStringLiteral("active"), 0);
        r.insert(QStringLiteral("lag"), 4);
        replicas.replace(1, r);
        cl.insert(QStringLiteral("replicas"), replicas);
    } else if (is("orphans on $MQTT.rmsgs")) {
        findStream(a, "$MQTT_rmsgs")
            ->state.insert(QStringLiteral("subjects"),
                           QJsonObject{{QStringLiteral("$MQTT.rmsgs"), 3}, {QStringLiteral("$MQTT.rmsgs.sensors.kitchen.temp"), 1}});
    } else if (is("no orphans")) {
        findStream(a, "$MQTT_rmsgs")
            ->state.insert(QStringLiteral("subjects"), QJsonObject{{QStringLiteral("$MQTT.rmsgs.sensors.kitchen.temp"), 1}});
    } else if (is("retained 5000")) {
        findStream(a, "$MQTT_rmsgs")->state.insert(QStringLiteral("messages"), 5000);
    } else if (is("retained half migrated")) {
        setConfig(a, "$MQTT_rmsgs", "subjects", QJsonArray{QStringLiteral("$MQTT.rmsgs.>")});
    } else if (is("retained odd subjects")) {
        setConfig(a, "$MQTT_rmsgs", "subjects", QJsonArray{QStringLiteral("$MQTT.retained.>")});
    } else if (is("upgrade planned")) {
        in.options.upgradePlanned = true;
    } else if (is("servers: mixed")) {
        in.servers = {server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c"), server("n3", "2.10.27", "c")};
        in.options.layout.streamReplicas = 1; // the captured streams are R1: keep replicas out of these rows
    } else if (is("servers: mixed, derived replicas")) {
        in.servers = {server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c"), server("n3", "2.10.27", "c")};
    } else if (is("servers: 2.10.4")) {
        in.servers = {server("x1", "2.10.4", "")};
    } else if (is("legacy empty")) {
        addStream(a, QStringLiteral("$MQTT_sess_ivan"), {QStringLiteral("$MQTT_sess_ivan")}, 0);
    } else if (is("legacy with record")) {
        addStream(a, QStringLiteral("$MQTT_sess_UH4PAlxE"), {QStringLiteral("$MQTT_sess_UH4PAlxE")}, 1);
    } else if (is("fresh + legacy with record")) {
        makeFresh(a);
        addStream(a, QStringLiteral("$MQTT_sess_UH4PAlxE"), {QStringLiteral("$MQTT_sess_UH4PAlxE")}, 1);
    } else if (is("streams unknown")) {
        a.streamsKnown = false;
    } else {
        qFatal("unknown change %s", qPrintable(change));
    }
    return in;
}

} // namespace MqttDoctor::Test::StreamCheckScenario
