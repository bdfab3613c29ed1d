// Proves the test support library against real nats-server binaries (2.9, 2.10, newest) and
// Debian's mosquitto clients: single servers, restarts, a 3-node cluster, TLS, missing binaries.
#include "freeportallocator.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "natsserverbinary.h"
#include "natsserverfixture.h"
#include "serverconfig.h"
#include "testcertificates.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

using namespace Qt::Literals::StringLiterals;
using namespace MqttDoctor::Test;

namespace {

// Stream names of an account, from the monitoring endpoint /jsz.
QStringList streamNames(const NatsServerFixture &server, const QString &account)
{
    const auto response = server.monitor("/jsz?acc="_ba + account.toUtf8() + "&streams=true"_ba);
    if (!response || response->status != 200)
        return {};
    QStringList names;
    const QJsonArray details = QJsonDocument::fromJson(response->body).object().value(u"account_details"_s).toArray();
    for (const QJsonValue &detail : details) {
        const QJsonArray streams = detail.toObject().value(u"stream_detail"_s).toArray();
        for (const QJsonValue &stream : streams)
            names << stream.toObject().value(u"name"_s).toString();
    }
    names.sort();
    return names;
}

bool processExists(qint64 pid)
{
    return pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno != ESRCH);
}

ServerConfig demoLikeConfig()
{
    ServerConfig config = ServerConfig::standard();
    ServerConfig::JetStreamLimits limits;
    limits.maxMemory = 64 * 1024 * 1024;
    limits.maxFile = 512 * 1024 * 1024;
    limits.maxStreams = 20;
    limits.maxConsumers = 100;
    config.addAccount(ServerConfig::limitedAccount(u"BETA"_s, u"beta"_s, u"betapass"_s, limits));
    config.addAccount(ServerConfig::plainAccount(u"NOJS"_s, u"nojs"_s, u"nojspass"_s));
    return config;
}

} // namespace

class TestFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void freePorts();
    void singleServer_data();
    void singleServer();
    void destructorStopsServer();
    void jetStreamDomainAndLimits();
    void cluster();
    void tlsServer();
    void missingBinary();
    void serverExitIsReported();
    void portTakenMeanwhile();
};

void TestFixture::initTestCase()
{
    const QString missing = MqttClient::missingTools();
    QVERIFY2(missing.isEmpty(), qPrintable(missing));
}

void TestFixture::freePorts()
{
    const QList<quint16> ports = FreePortAllocator::allocate(8);
    QCOMPARE(ports.size(), 8);
    QSet<quint16> unique(ports.cbegin(), ports.cend());
    QCOMPARE(unique.size(), 8);
    QVERIFY(!unique.contains(0));
    // Never handed out twice within the process.
    const QList<quint16> more = FreePortAllocator::allocate(8);
    QCOMPARE(more.size(), 8);
    for (const quint16 port : more)
        QVERIFY(!unique.contains(port));
}

void TestFixture::singleServer_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<bool>("qos2Publish");
    QTest::newRow("2.9") << u"2.9"_s << false;
    QTest::newRow("2.10") << u"2.10"_s << true;
    QTest::newRow("newest") << u"newest"_s << true;
}

void TestFixture::singleServer()
{
    QFETCH(QString, label);
    QFETCH(bool, qos2Publish);

    const NatsServerBinary binary = NatsServerBinary::locate(label);
    QVERIFY2(binary.isValid(), qPrintable(binary.errorString()));
    if (label != u"newest")
        QVERIFY2(binary.version().startsWith(label + u'.'), qPrintable(binary.version()));
    else
        QVERIFY2(binary.versionNumber() > QVersionNumber(2, 10), qPrintable(binary.version()));

    NatsServerFixture server;
    QVERIFY2(server.start(binary, demoLikeConfig()), qPrintable(server.errorString()));
    QVERIFY(server.isRunning());
    QCOMPARE(server.url(), u"nats://127.0.0.1:%1"_s.arg(server.clientPort()));
    QVERIFY(server.mqttPort() != 0 && server.httpPort() != 0 && server.clientPort() != 0);
    QCOMPARE(server.serverName(), u"mqttdoctor-test"_s);
    QVERIFY(server.log().contains(u"Version:  "_s + binary.version()));
    QVERIFY(server.waitForLog(u"Listening for MQTT clients on mqtt://127.0.0.1:%1"_s.arg(server.mqttPort()), 1000));
    QVERIFY(!server.logLinesMatching(u"Enabled JetStream for account \"BETA\""_s).isEmpty());
    QVERIFY(server.logLinesMatching(u"Creating MQTT streams/consumers"_s).isEmpty());
    QVERIFY(streamNames(server, u"ACME"_s).isEmpty());

    MqttClient acme(server.mqttPort(), u"acme"_s, u"acmepass"_s);
    const MqttResult session = acme.createPersistentSession(u"sensor-sub-1"_s, {u"sensors/+/temp"_s, u"alerts/#"_s}, 1);
    QVERIFY2(session.connected() && session.subscribed() && session.exitCode == 0, qPrintable(session.describe()));
    QCOMPARE(session.grantedQos, QList<int>({1, 1}));
    QVERIFY(server.waitForLog(QRegularExpression(u"Creating MQTT streams/consumers with replicas 1 for account \"ACME\""_s), 5000));
    const QStringList streams = streamNames(server, u"ACME"_s);
    for (const QString &name : {u"$MQTT_msgs"_s, u"$MQTT_rmsgs"_s, u"$MQTT_sess"_s})
        QVERIFY2(streams.contains(name), qPrintable(streams.join(u", "_s)));

    const MqttResult retained = acme.publish(u"sensors/kitchen/temp"_s, "21.5", 1, true, u"pub-1"_s);
    QVERIFY2(retained.acknowledged && retained.exitCode == 0, qPrintable(retained.describe()));
    const MqttResult queued = acme.publish(u"alerts/smoke"_s, "smoke!", 1, false, u"pub-2"_s);
    QVERIFY2(queued.acknowledged && queued.exitCode == 0, qPrintable(queued.describe()));
    const MqttResult qos0 = acme.publish(u"sensors/garage/temp"_s, "9.0", 0, true, u"pub-3"_s);
    QVERIFY2(qos0.acknowledged && qos0.exitCode == 0, qPrintable(qos0.describe()));

    const MqttResult qos2 = acme.publish(u"alerts/fire"_s, "fire!", 2, false, u"pub-qos2"_s);
    if (qos2Publish) {
        QVERIFY2(qos2.acknowledged && qos2.exitCode == 0, qPrintable(qos2.describe()));
    } else {
        QVERIFY2(!qos2.acknowledged && qos2.connectionLost() && qos2.exitCode == 7, qPrintable(qos2.describe()));
        QVERIFY(server.waitForLog(u"\"pub-qos2\" - publish QoS=2 not supported"_s, 2000));
    }

    const MqttResult wrongPassword = MqttClient(server.mqttPort(), u"acme"_s, u"nope"_s).connectOnce(u"intruder"_s);
    QVERIFY2(!wrongPassword.connected() && wrongPassword.connackCode == 5, qPrintable(wrongPassword.describe()));
    const MqttResult noJetStream = MqttClient(server.mqttPort(), u"nojs"_s, u"nojspass"_s).connectOnce(u"nojs-1"_s);
    QVERIFY2(!noJetStream.connected() && noJetStream.connectionLost(), qPrintable(noJetStream.describe()));

    // Restart: same ports and store; the session, queued and retained messages survive.
    const qint64 oldPid = server.processId();
    const qsizetype beforeRestart = server.logSize();
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QVERIFY(server.processId() != oldPid);
    QVERIFY(!processExists(oldPid));
    QCOMPARE(server.logLinesMatching(u"Server is ready"_s, beforeRestart).size(), 1);
    QCOMPARE(server.logLinesMatching(u"Server is ready"_s).size(), 2);

    // The persistent session gets the QoS 1 messages queued while it was offline: kitchen, smoke
    // (+ fire, published with QoS 2). Retained messages may come too (2.10+ loads them
    // asynchronously after the account's first connect, so they are checked separately below).
    QStringList expectedQueued{u"21.5"_s, u"smoke!"_s};
    if (qos2Publish)
        expectedQueued << u"fire!"_s;
    const MqttResult resumed = acme.subscribeAndCollect(u"sensor-sub-1"_s, {u"sensors/+/temp"_s, u"alerts/#"_s}, 1, 0, 2, true);
    QVERIFY2(resumed.connected() && resumed.subscribed(), qPrintable(resumed.describe()));
    QStringList queuedPayloads;
    for (const MqttResult::Message &message : resumed.messages) {
        if (!message.retained)
            queuedPayloads << QString::fromUtf8(message.payload);
    }
    queuedPayloads.sort();
    expectedQueued.sort();
    QVERIFY2(queuedPayloads == expectedQueued, qPrintable(resumed.describe()));

    // Retained messages survived the restart: a new subscriber gets both (QoS 1 and QoS 0).
    MqttResult retainedAfterRestart;
    for (int attempt = 0; attempt < 5 && retainedAfterRestart.messages.size() < 2; ++attempt)
        retainedAfterRestart = acme.subscribeAndCollect(u"retained-check"_s, {u"sensors/+/temp"_s}, 1, 2, 2);
    QVERIFY2(retainedAfterRestart.messages.size() == 2, qPrintable(retainedAfterRestart.describe()));
    for (const MqttResult::Message &message : std::as_const(retainedAfterRestart.messages)) {
        QVERIFY(message.retained);
        if (message.topic == u"sensors/kitchen/temp")
            QVERIFY(message.payload == "21.5" && message.qos == 1);
        else
            QVERIFY(message.topic == u"sensors/garage/temp" && message.payload == "9.0" && message.qos == 0);
    }
    QVERIFY(server.waitForLog(u"Creating MQTT streams/consumers"_s, 2000, beforeRestart));

    QVERIFY(server.stop());
    QVERIFY(!server.isRunning());
}

void TestFixture::destructorStopsServer()
{
    qint64 pid = 0;
    {
        NatsServerFixture server;
        QVERIFY2(server.start(u"2.9"_s), qPrintable(server.errorString()));
        pid = server.processId();
        QVERIFY(processExists(pid));
    }
    QVERIFY(!processExists(pid));
}

void TestFixture::jetStreamDomainAndLimits()
{
    ServerConfig config = demoLikeConfig();
    config.setJetStreamDomain(u"hub"_s);
    QVERIFY(config.account(u"SYS"_s).has_value());
    QCOMPARE(config.account(u"BETA"_s)->limits.maxStreams, 20);
    NatsServerFixture server;
    QVERIFY2(server.start(u"2.9"_s, config), qPrintable(server.errorString()));

    const auto varz = server.monitor("/varz"_ba);
    QVERIFY(varz && varz->status == 200);
    const QJsonObject jetStream = QJsonDocument::fromJson(varz->body).object().value(u"jetstream"_s).toObject();
    QCOMPARE(jetStream.value(u"config"_s).toObject().value(u"domain"_s).toString(), u"hub"_s);

    const qsizetype beta = server.log().indexOf(u"Enabled JetStream for account \"BETA\""_s);
    QVERIFY(beta >= 0);
    QVERIFY(server.log().mid(beta, 300).contains(u"Max Memory:      64.00 MB"_s));
    QVERIFY(server.log().mid(beta, 300).contains(u"Max Storage:     512.00 MB"_s));

    const MqttResult session =
        MqttClient(server.mqttPort(), u"beta"_s, u"betapass"_s).createPersistentSession(u"beta-app-1"_s, {u"beta/#"_s}, 1);
    QVERIFY2(session.connected() && session.subscribed(), qPrintable(session.describe()));
    QVERIFY(server.waitForLog(u"Creating MQTT streams/consumers with replicas 1 for account \"BETA\""_s, 3000));
}

void TestFixture::cluster()
{
    ServerConfig config = ServerConfig::standard();
    config.setMqttStreamReplicas(3);
    config.setMqttConsumerReplicas(1);
    NatsClusterFixture cluster;
    QVERIFY2(cluster.start(u"2.9"_s, config), qPrintable(cluster.errorString()));
    QCOMPARE(cluster.nodeCount(), 3);
    QCOMPARE(cluster.urls().size(), 3);
    QVERIFY(QStringList({u"n1"_s, u"n2"_s, u"n3"_s}).contains(cluster.metaLeader()));
    QCOMPARE(cluster.metaGroupGap(), QString()); // the leader lists both others as current members
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(cluster.node(i).serverName(), u"n%1"_s.arg(i + 1));
        QVERIFY(cluster.node(i).log().contains(u"Route connection created"_s));
    }

    // The session is created on a node that is not the meta leader; then the leader is stopped.
    const int leader = cluster.metaLeader().mid(1).toInt() - 1;
    const int sessionNode = (leader + 1) % 3;
    const int publishNode = (leader + 2) % 3;
    MqttClient sessionClient(cluster.node(sessionNode).mqttPort(), u"acme"_s, u"acmepass"_s);
    // Creating the R3 streams can outlast one attempt on a loaded machine; a client would retry.
    sessionClient.setTimeoutMs(30000);
    MqttResult session;
    for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
        session = sessionClient.createPersistentSession(u"cluster-sub"_s, {u"plant/#"_s}, 1);
    QVERIFY2(session.connected() && session.subscribed(), qPrintable(session.describe()));
    QVERIFY(cluster.node(sessionNode).waitForLog(u"Creating MQTT streams/consumers with replicas 3 for account \"ACME\""_s, 5000));

    QVERIFY2(cluster.stopNode(leader), qPrintable(cluster.errorString()));
    QVERIFY(!cluster.node(leader).isRunning());
    const QString newLeader = cluster.metaLeader();
    QVERIFY2(!newLeader.isEmpty() && newLeader != cluster.node(leader).serverName(), qPrintable(newLeader));

    // R3 streams whose leader was the stopped node elect a new one; an MQTT client would retry.
    MqttClient publisher(cluster.node(publishNode).mqttPort(), u"acme"_s, u"acmepass"_s);
    MqttResult published;
    for (int attempt = 0; attempt < 10 && !published.acknowledged; ++attempt) {
        if (attempt > 0)
            QTest::qWait(1000);
        published = publisher.publish(u"plant/line1"_s, "while the leader is down", 1, false, u"cluster-pub"_s);
    }
    QVERIFY2(published.acknowledged, qPrintable(published.describe()));

    QVERIFY2(cluster.startNode(leader), qPrintable(cluster.errorString()));
    QVERIFY(cluster.node(leader).isRunning());
    QCOMPARE(cluster.node(leader).logLinesMatching(u"Server is ready"_s).size(), 2);
    QVERIFY(!cluster.metaLeader().isEmpty());

    // The session is resumed on the restarted node, with the message queued while it was down.
    MqttClient restartedClient(cluster.node(leader).mqttPort(), u"acme"_s, u"acmepass"_s);
    const MqttResult resumed = restartedClient.subscribeAndCollect(u"cluster-sub"_s, {u"plant/#"_s}, 1, 1, 10, true);
    QVERIFY2(resumed.connected() && resumed.receivedPayloads() == QStringList{u"while the leader is down"_s},
             qPrintable(resumed.describe()));

    cluster.stop();
    QCOMPARE(cluster.metaGroupGap(), u"no running node reports itself as the meta leader"_s);
}

void TestFixture::tlsServer()
{
    TestCertificates certificates;
    QVERIFY2(certificates.generate(), qPrintable(certificates.errorString()));

    ServerConfig config = ServerConfig::standard();
    ServerConfig::Tls tls;
    tls.certFile = certificates.serverCertFile();
    tls.keyFile = certificates.serverKeyFile();
    tls.caFile = certificates.caFile();
    tls.verify = true;
    tls.clientListener = true;
    tls.mqttListener = true;
    config.setTls(tls);

    NatsServerFixture server;
    QVERIFY2(server.start(u"2.9"_s, config), qPrintable(server.errorString()));
    QVERIFY(server.url().startsWith(u"tls://127.0.0.1:"_s));
    QVERIFY(server.log().contains(u"TLS required for client connections"_s));

    MqttClient client(server.mqttPort(), u"acme"_s, u"acmepass"_s);
    client.setTls(certificates.caFile(), certificates.clientCertFile(), certificates.clientKeyFile());
    const MqttResult ok = client.publish(u"secure/topic"_s, "hello", 1, false, u"tls-pub"_s);
    QVERIFY2(ok.connected() && ok.acknowledged, qPrintable(ok.describe()));

    MqttClient noClientCert(server.mqttPort(), u"acme"_s, u"acmepass"_s);
    noClientCert.setTls(certificates.caFile());
    const MqttResult refused = noClientCert.connectOnce(u"tls-nocert"_s);
    QVERIFY2(!refused.connected() && refused.exitCode != 0, qPrintable(refused.describe()));

    MqttClient wrongCa(server.mqttPort(), u"acme"_s, u"acmepass"_s);
    wrongCa.setTls(certificates.otherCaFile(), certificates.otherClientCertFile(), certificates.otherClientKeyFile());
    const MqttResult untrusted = wrongCa.connectOnce(u"tls-wrongca"_s);
    QVERIFY2(!untrusted.connected() && untrusted.exitCode != 0, qPrintable(untrusted.describe()));
}

void TestFixture::missingBinary()
{
    QTemporaryDir empty;
    QVERIFY(empty.isValid());

    const NatsServerBinary missing = NatsServerBinary::locate(u"2.10"_s, empty.path());
    QVERIFY(!missing.isValid());
    QVERIFY2(missing.errorString().contains(u"make test"_s), qPrintable(missing.errorString()));
    QVERIFY2(missing.errorString().contains(empty.path() + u"/trixie/nats-server"_s), qPrintable(missing.errorString()));

    const NatsServerBinary unknown = NatsServerBinary::locate(u"1.0"_s);
    QVERIFY(!unknown.isValid());
    QVERIFY2(unknown.errorString().contains(u"unknown nats-server version label"_s), qPrintable(unknown.errorString()));

    // Through the fixture, with the directory CTest would pass pointing to an empty folder.
    const QByteArray saved = qgetenv("MQTTDOCTOR_NATS_SERVERS_DIR");
    qputenv("MQTTDOCTOR_NATS_SERVERS_DIR", empty.path().toLocal8Bit());
    NatsServerFixture server;
    const bool started = server.start(u"newest"_s);
    if (saved.isNull())
        qunsetenv("MQTTDOCTOR_NATS_SERVERS_DIR");
    else
        qputenv("MQTTDOCTOR_NATS_SERVERS_DIR", saved);
    QVERIFY(!started);
    QVERIFY(!server.isRunning());
    QVERIFY2(server.errorString().contains(u"make test"_s) && server.errorString().contains(u"sid/nats-server"_s),
             qPrintable(server.errorString()));
}

void TestFixture::serverExitIsReported()
{
    ServerConfig config = ServerConfig::standard();
    ServerConfig::Tls tls;
    tls.certFile = u"does-not-exist.pem"_s;
    tls.keyFile = u"does-not-exist-key.pem"_s;
    config.setTls(tls);

    NatsServerFixture server;
    QElapsedTimer timer;
    timer.start();
    QVERIFY(!server.start(u"2.9"_s, config));
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY(!server.isRunning());
    QVERIFY2(server.errorString().contains(u"exited before it was ready"_s), qPrintable(server.errorString()));
    // The server's own complaint is part of the message.
    QVERIFY2(server.errorString().contains(u"does-not-exist.pem"_s), qPrintable(server.errorString()));
}

// A port taken by another process between its pick and nats-server's bind is recognised as such. The
// fixture then launches again on ports picked afresh; a port the test gave itself is not replaced, so here
// every attempt meets the taken port and start() fails, after MaxPortRaceAttempts launches.
void TestFixture::portTakenMeanwhile()
{
    const int taker = ::socket(AF_INET, SOCK_STREAM, 0);
    QVERIFY(taker >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const quint16 port = FreePortAllocator::allocateOne();
    address.sin_port = htons(port);
    QVERIFY(::bind(taker, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 && ::listen(taker, 1) == 0);

    ServerConfig config = ServerConfig::standard();
    config.setHttpPort(port);
    NatsServerFixture server;
    QVERIFY(!server.start(u"2.9"_s, config));
    ::close(taker);
    QVERIFY(server.lostPortRace());
    QVERIFY2(server.errorString().contains(u"address already in use"_s), qPrintable(server.errorString()));
    QVERIFY2(server.log().count(u"Starting nats-server"_s) == NatsServerFixture::MaxPortRaceAttempts, qPrintable(server.log()));

    // A server that fails for another reason is not launched again.
    ServerConfig broken = ServerConfig::standard();
    ServerConfig::Tls tls;
    tls.certFile = u"does-not-exist.pem"_s;
    tls.keyFile = u"does-not-exist-key.pem"_s;
    broken.setTls(tls);
    NatsServerFixture other;
    QVERIFY(!other.start(u"2.9"_s, broken));
    QVERIFY(!other.lostPortRace());
    QVERIFY2(other.errorString().contains(u"does-not-exist.pem"_s), qPrintable(other.errorString()));
}

QTEST_GUILESS_MAIN(TestFixture)
#include "tst_fixture.moc"
