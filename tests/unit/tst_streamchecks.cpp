#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/checks.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/layouts.h"
#include "nats/discovery.h"

using namespace MqttDoctor;

namespace {

struct Capture
{
    QList<ServerInfo> servers;
    AccountInfo account;
};

// Replies of real servers (tests/unit/data), wrapped {"server": ..., "data": <jsz>} like $SYS replies:
// the 3-node 2.9.10 cluster, and single 2.9.10 / 2.10.27 / 2.15.1 servers with one persistent QoS1
// client and two retained messages in account ACME (see tests/unit/data/checks/README.md).
Capture loadCapture(const QString &relativePath)
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

QString cluster29() { return QStringLiteral("jsz-cluster-2.9.10.json"); }
QString single29() { return QStringLiteral("checks/single-2.9.10.json"); }
QString single210() { return QStringLiteral("checks/single-2.10.27.json"); }
QString single215() { return QStringLiteral("checks/single-2.15.1.json"); }
QString domainHub() { return QStringLiteral("checks/single-2.10.27-domain-hub.json"); }
QString upgradeBefore() { return QStringLiteral("checks/upgrade-2.9.10-to-2.10.27-before-connect.json"); }
QString upgradeAfter() { return QStringLiteral("checks/upgrade-2.9.10-to-2.10.27-after-connect.json"); }
QString downgrade() { return QStringLiteral("checks/downgrade-2.10.27-to-2.9.10.json"); }

StreamInfo *findStream(AccountInfo &a, const char *name)
{
    for (StreamInfo &s : a.streams)
        if (s.name == QLatin1String(name))
            return &s;
    qFatal("no stream %s", name);
    return nullptr;
}

void removeStream(AccountInfo &a, const char *name)
{
    a.streams.removeIf([name](const StreamInfo &s) { return s.name == QLatin1String(name); });
    a.streamCount = int(a.streams.size());
}

void addStream(AccountInfo &a, const QString &name, const QStringList &subjects, qint64 messages = 0)
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

void setConfig(AccountInfo &a, const char *stream, const char *field, const QJsonValue &value)
{
    StreamInfo *s = findStream(a, stream);
    s->config.insert(QLatin1String(field), value);
}

/** An account with JetStream and no stream at all: no MQTT client has connected yet. */
void makeFresh(AccountInfo &a)
{
    a.streams.clear();
    a.streamCount = 0;
    a.storage = 0;
}

QJsonObject limits(qint64 maxStreams, qint64 maxStorage = -1, bool maxBytesRequired = false)
{
    return QJsonObject{{QStringLiteral("max_memory"), -1},
                       {QStringLiteral("max_storage"), maxStorage},
                       {QStringLiteral("max_streams"), maxStreams},
                       {QStringLiteral("max_consumers"), -1},
                       {QStringLiteral("max_bytes_required"), maxBytesRequired}};
}

ServerInfo server(const char *name, const char *version, const char *cluster)
{
    ServerInfo s;
    s.name = QString::fromLatin1(name);
    s.version = QString::fromLatin1(version);
    s.cluster = QString::fromLatin1(cluster);
    s.jetstream = true;
    return s;
}

/** "CODE stream severity" per finding, sorted: compact and exact. */
QStringList summary(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out.append(QStringLiteral("%1 %2 %3").arg(f.code, f.stream.isEmpty() ? QStringLiteral("-") : f.stream, Finding::severityName(f.severity)));
    out.sort();
    return out;
}

QString dump(const QList<Finding> &findings)
{
    QStringList lines;
    for (const Finding &f : findings)
        lines.append(QString::fromUtf8(QJsonDocument(f.toJson()).toJson(QJsonDocument::Compact)));
    return lines.join(QLatin1Char('\n'));
}

const Finding *first(const QList<Finding> &findings, const QString &code, const char *stream = nullptr)
{
    for (const Finding &f : findings)
        if (f.code == code && (!stream || f.stream == QLatin1String(stream)))
            return &f;
    return nullptr;
}

/** The scenario table: a capture, then a named change of the account, servers or options. */
AccountCheckInput scenario(const QString &capture, const QString &change)
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
        findStream(a, "$MQTT_rmsgs")->state.insert(QStringLiteral("subjects"),
                                                   QJsonObject{{QStringLiteral("$MQTT.rmsgs"), 3}, {QStringLiteral("$MQTT.rmsgs.sensors.kitchen.temp"), 1}});
    } else if (is("no orphans")) {
        findStream(a, "$MQTT_rmsgs")->state.insert(QStringLiteral("subjects"),
                                                   QJsonObject{{QStringLiteral("$MQTT.rmsgs.sensors.kitchen.temp"), 1}});
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

} // namespace

class TestStreamChecks : public QObject
{
    Q_OBJECT

private slots:
    void scenarios_data()
    {
        QTest::addColumn<QString>("capture");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QStringList>("expected");

        const auto row = [](const char *name, const QString &capture, const char *change, QStringList expected) {
            expected.sort();
            QTest::newRow(name) << capture << QString::fromLatin1(change) << expected;
        };
        const auto s = [](const char *line) { return QString::fromLatin1(line); };

        // Healthy accounts: nothing at all.
        row("healthy 2.9.10 cluster", cluster29(), "none", {});
        row("healthy 2.9.10 single", single29(), "none", {});
        row("healthy 2.10.27 single", single210(), "none", {});
        row("healthy 2.15.1 single", single215(), "none", {});
        row("healthy 2.10.27 domain hub", domainHub(), "none", {});
        row("healthy after 2.9 -> 2.10 upgrade", upgradeAfter(), "none", {});
        row("healthy with unrelated streams", single210(), "unrelated streams", {});
        row("healthy, no limits", single210(), "max_streams -1", {});
        row("healthy 2.9 with room for 2.10", single29(), "max_streams 5", {});
        row("follower-only lag is not reported", cluster29(), "follower view", {});
        row("no orphans on $MQTT.rmsgs", single210(), "no orphans", {});
        row("streams unknown: nothing to say", single210(), "streams unknown", {});

        // No MQTT client yet: info only.
        row("fresh 2.10 account", single210(), "fresh",
            {s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"), s("STREAM_MISSING $MQTT_qos2in info"),
             s("STREAM_MISSING $MQTT_out info"), s("STREAM_MISSING $MQTT_rmsgs info")});
        row("fresh 2.9 account", single29(), "fresh",
            {s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"), s("STREAM_MISSING $MQTT_rmsgs info")});
        row("upgraded, not connected yet", upgradeBefore(), "none",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});

        // JETSTREAM_DISABLED
        row("jetstream off", single210(), "jetstream off", {s("JETSTREAM_DISABLED - critical")});
        row("jetstream off, not an mqtt account", single210(), "jetstream off, not for mqtt", {s("JETSTREAM_DISABLED - info")});

        // STREAM_MISSING after the servers set up MQTT
        row("sess deleted", single210(), "sess deleted", {s("STREAM_MISSING $MQTT_sess critical")});
        row("msgs deleted", single29(), "msgs deleted", {s("STREAM_MISSING $MQTT_msgs error")});
        row("rmsgs deleted", cluster29(), "rmsgs deleted", {s("STREAM_MISSING $MQTT_rmsgs error")});
        row("out deleted", single215(), "out deleted", {s("STREAM_MISSING $MQTT_out error")});

        // SUBJECTS_OVERLAP
        row("$MQTT.> blocks a fresh 2.10 account", single210(), "fresh + $MQTT.> stream",
            {s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL critical"),
             s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL critical"),
             s("STREAM_MISSING $MQTT_sess critical"), s("STREAM_MISSING $MQTT_msgs critical"), s("STREAM_MISSING $MQTT_qos2in critical"),
             s("STREAM_MISSING $MQTT_out critical"), s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("$MQTT.> in a 2.9 account also blocks the upgrade", single29(), "fresh + $MQTT.> stream",
            {s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL critical"), s("SUBJECTS_OVERLAP CATCHALL critical"),
             s("SUBJECTS_OVERLAP CATCHALL warning"), s("SUBJECTS_OVERLAP CATCHALL warning"),
             s("STREAM_MISSING $MQTT_sess critical"), s("STREAM_MISSING $MQTT_msgs critical"), s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("$MQTT.> in an account not meant for MQTT", single210(), "fresh + $MQTT.> stream, not for mqtt",
            {s("SUBJECTS_OVERLAP CATCHALL warning"), s("SUBJECTS_OVERLAP CATCHALL warning"), s("SUBJECTS_OVERLAP CATCHALL warning"),
             s("SUBJECTS_OVERLAP CATCHALL warning"), s("SUBJECTS_OVERLAP CATCHALL warning"),
             s("STREAM_MISSING $MQTT_sess warning"), s("STREAM_MISSING $MQTT_msgs warning"), s("STREAM_MISSING $MQTT_qos2in warning"),
             s("STREAM_MISSING $MQTT_out warning"), s("STREAM_MISSING $MQTT_rmsgs warning")});
        row("$MQTT.msgs.foo.* blocks the messages stream", single29(), "fresh + msgs.foo.* stream",
            {s("SUBJECTS_OVERLAP ORDERS critical"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs critical"),
             s("STREAM_MISSING $MQTT_rmsgs info")});
        row("> blocks everything", single215(), "fresh + > stream",
            {s("SUBJECTS_OVERLAP EVERYTHING critical"), s("SUBJECTS_OVERLAP EVERYTHING critical"), s("SUBJECTS_OVERLAP EVERYTHING critical"),
             s("SUBJECTS_OVERLAP EVERYTHING critical"), s("SUBJECTS_OVERLAP EVERYTHING critical"),
             s("STREAM_MISSING $MQTT_sess critical"), s("STREAM_MISSING $MQTT_msgs critical"), s("STREAM_MISSING $MQTT_qos2in critical"),
             s("STREAM_MISSING $MQTT_out critical"), s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("$MQTT.qos2.> breaks the upgrade of a 2.9 account", single29(), "qos2 capture stream", {s("SUBJECTS_OVERLAP QOS2TAP warning")});
        row("$MQTT.rmsgs.foo breaks the retained migration", single29(), "rmsgs.foo stream", {s("SUBJECTS_OVERLAP RETAP warning")});
        row("$MQTT.rmsgs.foo blocks a pending migration", upgradeBefore(), "rmsgs.foo stream",
            {s("SUBJECTS_OVERLAP RETAP critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"),
             s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});

        // STREAM_SUBJECTS_WRONG
        row("sess with another domain token", single210(), "sess subjects other token", {s("STREAM_SUBJECTS_WRONG $MQTT_sess critical")});
        row("domain hub expected, stream without token", single210(), "domain option hub", {s("STREAM_SUBJECTS_WRONG $MQTT_sess warning")});
        row("no domain expected, stream with token", domainHub(), "domain option empty", {s("STREAM_SUBJECTS_WRONG $MQTT_sess critical")});
        row("msgs too narrow", single29(), "msgs subjects narrow", {s("STREAM_SUBJECTS_WRONG $MQTT_msgs error")});
        row("msgs with extra subjects", single210(), "msgs subjects extra", {s("STREAM_SUBJECTS_WRONG $MQTT_msgs warning")});
        row("same subjects", single210(), "sess subjects reordered", {});

        // STREAM_CONFIG_WRONG
        row("sess keeps duplicates", single29(), "sess max per subject -1 + duplicates", {s("STREAM_CONFIG_WRONG $MQTT_sess error")});
        row("sess in memory", single210(), "sess memory", {s("STREAM_CONFIG_WRONG $MQTT_sess warning")});
        row("qos2in discards old", single215(), "qos2 discard old", {s("STREAM_CONFIG_WRONG $MQTT_qos2in error")});
        row("msgs with limits retention", cluster29(), "msgs limits retention", {s("STREAM_CONFIG_WRONG $MQTT_msgs error")});

        // STREAM_LIMIT_HEADROOM
        row("max_streams 2 blocks the retained stream", single29(), "max_streams 2, fresh",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"),
             s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("max_streams 3: no room to upgrade", single29(), "max_streams 3", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_streams 4: no room to upgrade", single29(), "max_streams 4", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_streams 4 after the upgrade", upgradeBefore(), "max_streams 4",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out critical"),
             s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("limits from the account", upgradeBefore(), "account limits max_streams 4",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out critical"),
             s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("storage full", single210(), "storage full", {s("STREAM_LIMIT_HEADROOM - critical")});
        row("storage 95%", single210(), "storage 95%", {s("STREAM_LIMIT_HEADROOM - warning")});
        row("max_bytes_required blocks creation", single210(), "max_bytes_required, fresh",
            {s("STREAM_LIMIT_HEADROOM - critical"), s("STREAM_MISSING $MQTT_sess critical"), s("STREAM_MISSING $MQTT_msgs critical"),
             s("STREAM_MISSING $MQTT_qos2in critical"), s("STREAM_MISSING $MQTT_out critical"), s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("max_bytes_required, streams exist", single210(), "max_bytes_required", {});

        // REPLICAS_MISMATCH
        row("msgs R1 in a 3-node cluster", cluster29(), "msgs R1", {s("REPLICAS_MISMATCH $MQTT_msgs warning")});
        row("R3 streams, stream_replicas 1", cluster29(), "stream_replicas 1",
            {s("REPLICAS_MISMATCH $MQTT_sess info"), s("REPLICAS_MISMATCH $MQTT_msgs info"), s("REPLICAS_MISMATCH $MQTT_rmsgs info")});
        row("stream_replicas 5 in a 3-node cluster", cluster29(), "stream_replicas 5", {s("REPLICAS_MISMATCH - warning")});
        row("stream_replicas 3 standalone blocks creation", single29(), "stream_replicas 3, fresh",
            {s("REPLICAS_MISMATCH - critical"), s("STREAM_MISSING $MQTT_sess critical"), s("STREAM_MISSING $MQTT_msgs critical"),
             s("STREAM_MISSING $MQTT_rmsgs critical")});
        row("R3 on a single server", single210(), "sess R3 on one server", {s("REPLICAS_MISMATCH $MQTT_sess error")});
        row("R1 streams in a 3-node cluster", single210(), "servers: 3-node cluster",
            {s("REPLICAS_MISMATCH $MQTT_sess warning"), s("REPLICAS_MISMATCH $MQTT_msgs warning"), s("REPLICAS_MISMATCH $MQTT_qos2in warning"),
             s("REPLICAS_MISMATCH $MQTT_out warning"), s("REPLICAS_MISMATCH $MQTT_rmsgs warning")});

        // STREAM_UNHEALTHY
        row("sess without leader", cluster29(), "sess no leader", {s("STREAM_UNHEALTHY $MQTT_sess critical")});
        row("msgs without leader", cluster29(), "msgs no leader", {s("STREAM_UNHEALTHY $MQTT_msgs error")});
        row("rmsgs replica offline", cluster29(), "rmsgs replica offline", {s("STREAM_UNHEALTHY $MQTT_rmsgs warning")});
        row("sess replica lagging", cluster29(), "sess replica lagging", {s("STREAM_UNHEALTHY $MQTT_sess warning")});

        // Retained layout
        row("orphans on $MQTT.rmsgs", single210(), "orphans on $MQTT.rmsgs", {s("RETAINED_ORPHANED $MQTT_rmsgs error")});
        row("many retained messages to migrate", upgradeBefore(), "retained 5000",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs warning")});
        row("2.10.0-2.10.5 spin on corrupt records", upgradeBefore(), "servers: 2.10.4",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs warning")});
        row("half-migrated retained stream", single29(), "retained half migrated",
            {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("half-migrated, all 2.10", upgradeBefore(), "retained half migrated",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("retained with unknown subjects", single210(), "retained odd subjects", {s("STREAM_SUBJECTS_WRONG $MQTT_rmsgs error")});
        row("upgrade planned", single29(), "upgrade planned", {s("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info")});
        row("2.9.10 on a migrated store", downgrade(), "none", {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("mixed cluster, 2.10 retained", single210(), "servers: mixed",
            {s("RETAINED_DOWNGRADE $MQTT_rmsgs critical")});
        row("mixed cluster, 2.9 account", single29(), "servers: mixed",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info")});
        row("mixed 3-node cluster, R1 streams", single29(), "servers: mixed, derived replicas",
            {s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("REPLICAS_MISMATCH $MQTT_sess warning"),
             s("REPLICAS_MISMATCH $MQTT_msgs warning"), s("REPLICAS_MISMATCH $MQTT_rmsgs warning")});

        // LEGACY_SESSION_STREAMS
        row("empty legacy session stream", single210(), "legacy empty", {s("LEGACY_SESSION_STREAMS $MQTT_sess_ivan warning")});
        row("stranded legacy session", single29(), "legacy with record", {s("LEGACY_SESSION_STREAMS $MQTT_sess_UH4PAlxE warning")});
        row("legacy session migrated on first connect", single210(), "fresh + legacy with record",
            {s("LEGACY_SESSION_STREAMS $MQTT_sess_UH4PAlxE info"), s("STREAM_MISSING $MQTT_sess info"), s("STREAM_MISSING $MQTT_msgs info"),
             s("STREAM_MISSING $MQTT_qos2in info"), s("STREAM_MISSING $MQTT_out info"), s("STREAM_MISSING $MQTT_rmsgs info")});
    }

    void scenarios()
    {
        QFETCH(QString, capture);
        QFETCH(QString, change);
        QFETCH(QStringList, expected);
        const AccountCheckInput in = scenario(capture, change);
        const QList<Finding> findings = Checks::checkAccount(in);
        const QStringList actual = summary(findings);
        if (actual != expected || qEnvironmentVariableIsSet("MQTTDOCTOR_DUMP_FINDINGS"))
            qWarning().noquote() << dump(findings);
        QCOMPARE(actual, expected);
        for (const Finding &f : findings) {
            QCOMPARE(f.account, QStringLiteral("ACME"));
            QVERIFY2(!f.title.isEmpty() && !f.title.contains(QLatin1Char('{')), qPrintable(f.title));
            QVERIFY2(!f.detail.isEmpty(), qPrintable(f.code));
            QVERIFY2(!f.expected.isUndefined() && !f.actual.isUndefined(), qPrintable(f.code));
        }
        // Sorted: most severe first.
        for (qsizetype i = 1; i < findings.size(); ++i)
            QVERIFY(int(findings.at(i - 1).severity) >= int(findings.at(i).severity));
    }

    void evidenceOfMissingStream()
    {
        const auto findings = Checks::checkAccount(scenario(single210(), QStringLiteral("sess deleted")));
        const Finding *f = first(findings, FindingCodes::streamMissing());
        QVERIFY(f);
        QCOMPARE(f->repair, QStringLiteral("create_stream"));
        QCOMPARE(f->expected.toObject(), MqttLayout(MqttLayout::Kind::V2_10).stream(QStringLiteral("$MQTT_sess"))->createConfig());
        QVERIFY(f->actual.isNull());
        QVERIFY(f->explains.contains(QStringLiteral("loading session record: stream not found (10059)")));
        QVERIFY(f->explains.contains(QStringLiteral("loading session record for account %q, session %q: stream not found (10059)")));
        QCOMPARE(f->title, QStringLiteral("$MQTT_sess is missing in account ACME"));
    }

    void evidenceOfOverlap()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("fresh + msgs.foo.* stream")));
        const Finding *f = first(findings, FindingCodes::subjectsOverlap());
        QVERIFY(f);
        QCOMPARE(f->stream, QStringLiteral("ORDERS"));
        QCOMPARE(f->subject, QStringLiteral("$MQTT.msgs.>"));
        QCOMPARE(f->repair, QStringLiteral("resolve_overlap"));
        QCOMPARE(f->expected.toObject().value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_msgs"));
        QCOMPARE(f->actual.toObject().value(QLatin1String("overlapping")).toArray(), QJsonArray{QStringLiteral("$MQTT.msgs.foo.*")});
        QCOMPARE(f->explains, QStringList{QStringLiteral("create messages stream for account %q: subjects overlap with an existing stream (10065)")});
        const Finding *m = first(findings, FindingCodes::streamMissing(), "$MQTT_msgs");
        QVERIFY(m && m->detail.contains(QStringLiteral("ORDERS")));
    }

    void evidenceOfConfig()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("sess max per subject -1 + duplicates")));
        const Finding *f = first(findings, FindingCodes::streamConfigWrong());
        QVERIFY(f);
        QCOMPARE(f->repair, QStringLiteral("update_stream"));
        QCOMPARE(f->expected.toObject().value(QLatin1String("max_msgs_per_subject")).toInteger(), 1);
        QCOMPARE(f->actual.toObject().value(QLatin1String("max_msgs_per_subject")).toInteger(), -1);
        QCOMPARE(f->actual.toObject().value(QLatin1String("messages")).toInteger(), 5);
        QVERIFY(f->detail.contains(QStringLiteral("duplicates")));
        QCOMPARE(f->title, QStringLiteral("$MQTT_sess has the wrong configuration (max_msgs_per_subject)"));

        const auto memory = Checks::checkAccount(scenario(single210(), QStringLiteral("sess memory")));
        QCOMPARE(first(memory, FindingCodes::streamConfigWrong())->repair, QStringLiteral("recreate_stream"));
    }

    void evidenceOfSubjects()
    {
        const auto findings = Checks::checkAccount(scenario(domainHub(), QStringLiteral("domain option empty")));
        const Finding *f = first(findings, FindingCodes::streamSubjectsWrong());
        QVERIFY(f);
        QCOMPARE(f->expected.toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.>")});
        QCOMPARE(f->actual.toObject().value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("$MQTT.sess.hub.>")});
        QCOMPARE(f->repair, QStringLiteral("update_stream"));
        QVERIFY(f->explains.contains(QStringLiteral("unable to persist session %q (seq=%v): timeout")));
    }

    void evidenceOfHeadroom()
    {
        const auto findings = Checks::checkAccount(scenario(single29(), QStringLiteral("max_streams 3")));
        const Finding *f = first(findings, FindingCodes::streamLimitHeadroom());
        QVERIFY(f);
        QCOMPARE(f->expected.toObject().value(QLatin1String("max_streams")).toInteger(), 5);
        QCOMPARE(f->actual.toObject().value(QLatin1String("max_streams")).toInteger(), 3);
        QCOMPARE(f->actual.toObject().value(QLatin1String("streams")).toInteger(), 3);
        QVERIFY(f->explains.contains(QStringLiteral("create QoS2 incoming messages stream for account %q: maximum number of streams reached (10027)")));
        QVERIFY(f->repair.isEmpty());

        const auto blocked = Checks::checkAccount(scenario(single29(), QStringLiteral("max_streams 2, fresh")));
        QVERIFY(first(blocked, FindingCodes::streamLimitHeadroom())->explains.contains(
            QStringLiteral("create retained messages stream for account %q: maximum number of streams reached (10027)")));
    }

    void evidenceOfReplicas()
    {
        const auto standalone = Checks::checkAccount(scenario(single29(), QStringLiteral("stream_replicas 3, fresh")));
        const Finding *f = first(standalone, FindingCodes::replicasMismatch());
        QVERIFY(f);
        QVERIFY(f->explains.contains(QStringLiteral("create sessions stream for account %q: replicas > 1 not supported in non-clustered mode (10074)")));
        const auto cluster = Checks::checkAccount(scenario(cluster29(), QStringLiteral("stream_replicas 5")));
        QVERIFY(first(cluster, FindingCodes::replicasMismatch())->detail.contains(QStringLiteral("10005")));

        const auto r1 = Checks::checkAccount(scenario(cluster29(), QStringLiteral("msgs R1")));
        const Finding *m = first(r1, FindingCodes::replicasMismatch());
        QCOMPARE(m->title, QStringLiteral("$MQTT_msgs has 1 replicas, expected 3"));
        QCOMPARE(m->repair, QStringLiteral("update_stream"));
        QCOMPARE(m->expected.toObject().value(QLatin1String("num_replicas")).toInt(), 3);
    }

    void evidenceOfRetained()
    {
        const auto orphans = Checks::checkAccount(scenario(single210(), QStringLiteral("orphans on $MQTT.rmsgs")));
        const Finding *o = first(orphans, FindingCodes::retainedOrphaned());
        QVERIFY(o);
        QCOMPARE(o->subject, QStringLiteral("$MQTT.rmsgs"));
        QCOMPARE(o->actual.toObject().value(QLatin1String("$MQTT.rmsgs")).toInteger(), 3);
        QCOMPARE(o->repair, QStringLiteral("republish"));
        QCOMPARE(o->title, QStringLiteral("3 retained message(s) orphaned on $MQTT.rmsgs"));

        const auto down = Checks::checkAccount(scenario(downgrade(), QStringLiteral("none")));
        const Finding *d = first(down, FindingCodes::retainedDowngrade());
        QVERIFY(d);
        QCOMPARE(d->explains, QStringList{QStringLiteral("create retained messages consumer for account %q: consumer filter subject is not a valid subset of the interest subjects (10093)")});
        QCOMPARE(d->repair, QStringLiteral("revert_retained"));
        QVERIFY(d->detail.contains(QStringLiteral("x1")));

        const auto legacy = Checks::checkAccount(scenario(upgradeBefore(), QStringLiteral("none")));
        const Finding *l = first(legacy, FindingCodes::retainedLegacyLayout());
        QVERIFY(l);
        QCOMPARE(l->repair, QStringLiteral("migrate_retained"));
        QCOMPARE(l->actual.toObject().value(QLatin1String("messages")).toInteger(), 2);
        QVERIFY(l->detail.contains(QStringLiteral("10 s")));
    }

    void layoutGiven()
    {
        // A precomputed layout wins over the servers.
        AccountCheckInput in = scenario(single29(), QStringLiteral("none"));
        in.layout = Layouts::choose({server("x1", "2.10.27", "")}, {}, in.account.streams);
        QCOMPARE(summary(Checks::checkAccount(in)),
                 (QStringList{QStringLiteral("RETAINED_LEGACY_LAYOUT $MQTT_rmsgs info"), QStringLiteral("STREAM_MISSING $MQTT_out info"),
                              QStringLiteral("STREAM_MISSING $MQTT_qos2in info")}));
    }

    void clusterLevel()
    {
        const QList<ServerInfo> mixed{server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c")};
        const auto findings = Checks::checkCluster(mixed);
        QCOMPARE(summary(findings), QStringList{QStringLiteral("MIXED_SERVER_VERSIONS - warning")});
        const Finding &f = findings.first();
        QVERIFY(f.account.isEmpty());
        QVERIFY(f.title.contains(QStringLiteral("2.9.10, 2.10.27")));
        QCOMPARE(f.actual.toObject().value(QLatin1String("2.9")).toArray(), QJsonArray{QStringLiteral("n1 (2.9.10)")});
        QVERIFY(Checks::checkCluster({server("a", "2.10.27", "c"), server("b", "2.15.1", "c")}).isEmpty());
        QVERIFY(Checks::checkCluster(loadCapture(cluster29()).servers).isEmpty());
    }

    void diagnoseAll()
    {
        Capture c = loadCapture(single210());
        AccountInfo sys;
        sys.name = QStringLiteral("SYS");
        sys.isSystem = true;
        sys.jetstream = false;
        AccountInfo plain; // JetStream off, never used for MQTT
        plain.name = QStringLiteral("PLAIN");
        plain.jetstream = false;
        AccountInfo broken = c.account; // ACME without its sessions stream
        removeStream(broken, "$MQTT_sess");
        broken.name = QStringLiteral("BROKEN");
        AccountInfo unused = c.account;
        makeFresh(unused);
        unused.name = QStringLiteral("UNUSED");

        DiagnosisInput in;
        in.servers = {server("n1", "2.9.10", "c"), server("n2", "2.10.27", "c")};
        in.accounts = {sys, plain, c.account, broken, unused};
        const QList<Finding> findings = Checks::diagnose(in);
        QStringList lines;
        for (const Finding &f : findings)
            lines << QStringLiteral("%1 %2 %3 %4").arg(f.account.isEmpty() ? QStringLiteral("-") : f.account, f.code, f.stream, Finding::severityName(f.severity));
        QCOMPARE(lines.first(), QStringLiteral("ACME RETAINED_DOWNGRADE $MQTT_rmsgs critical"));
        QVERIFY(lines.contains(QStringLiteral("BROKEN STREAM_MISSING $MQTT_sess critical")));
        QVERIFY(lines.contains(QStringLiteral("- MIXED_SERVER_VERSIONS  warning")));
        QVERIFY(lines.contains(QStringLiteral("PLAIN JETSTREAM_DISABLED  info")));
        QVERIFY(lines.contains(QStringLiteral("UNUSED STREAM_MISSING $MQTT_sess info")));
        for (const Finding &f : findings)
            QVERIFY(f.account != QLatin1String("SYS"));
        QCOMPARE(Checks::exitCodeFor(findings), 2);

        // Asked about explicitly: PLAIN is meant for MQTT, so JetStream being off is critical.
        in.mqttAccounts = {QStringLiteral("PLAIN")};
        in.accounts = {plain};
        QCOMPARE(summary(Checks::diagnose(in)), (QStringList{QStringLiteral("JETSTREAM_DISABLED - critical"), QStringLiteral("MIXED_SERVER_VERSIONS - warning")}));
    }

    void exitCodes()
    {
        QCOMPARE(Checks::exitCodeFor({}), 0);
        QVERIFY(!Checks::highestSeverity({}).has_value());
        Finding info;
        info.severity = Finding::Severity::Info;
        Finding warning;
        warning.severity = Finding::Severity::Warning;
        Finding critical;
        critical.severity = Finding::Severity::Critical;
        QCOMPARE(Checks::exitCodeFor({info}), 0);
        QCOMPARE(Checks::exitCodeFor({info, warning}), 1);
        QCOMPARE(Checks::exitCodeFor({warning, critical, info}), 2);
        QCOMPARE(*Checks::highestSeverity({info, critical, warning}), Finding::Severity::Critical);
    }
};

QTEST_GUILESS_MAIN(TestStreamChecks)
#include "tst_streamchecks.moc"
