// A 3-node cluster with one node stopped: the commands end within their timeout, name the stopped
// server, and still show everything the other servers hold (the MQTT streams are replicated).
// `check` never says "no problem" then: it exits 2 (errors found) or 3, never 0 or 1.
#include <QJsonArray>
#include <QTest>

#include "clirunner.h"
#include "mqttclient.h"
#include "natsclusterfixture.h"
#include "versionrows.h"

using namespace MqttDoctor::Test;

namespace {

QStringList systemArgs(const QString &url)
{
    return {QStringLiteral("--server"),          url,
            QStringLiteral("--system-user"),     QStringLiteral("sys"),
            QStringLiteral("--system-password"), QStringLiteral("syspass"),
            QStringLiteral("--timeout"),         QStringLiteral("3s")};
}

QStringList unansweredNames(const QJsonObject &json)
{
    QStringList out;
    for (const QJsonValue &v : json.value(QLatin1String("unanswered_servers")).toArray())
        out << v.toObject().value(QLatin1String("name")).toString();
    return out;
}

QJsonObject byName(const QJsonArray &array, const QString &name)
{
    for (const QJsonValue &v : array)
        if (v.toObject().value(QLatin1String("name")).toString() == name)
            return v.toObject();
    return {};
}

} // namespace

class TestUnansweredServers : public QObject
{
    Q_OBJECT

private slots:
    void oneNodeStopped_data() { addServerVersionRows(); }

    void oneNodeStopped()
    {
        QFETCH(QString, version);
        NatsClusterFixture cluster;
        ServerConfig config = ServerConfig::standard();
        config.setMqttStreamReplicas(3);
        QVERIFY2(cluster.start(version, config), qPrintable(cluster.errorString()));
        MqttClient acme(cluster.node(0).mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        acme.setTimeoutMs(30000);
        MqttResult session;
        for (int attempt = 0; attempt < 3 && !session.subscribed(); ++attempt)
            session = acme.createPersistentSession(QStringLiteral("meter-1"), {QStringLiteral("meters/+/reading")}, 1);
        QVERIFY2(session.subscribed(), qPrintable(session.describe()));

        // Everyone answers: nobody is named.
        const QString url = cluster.node(0).url();
        const auto before = CliRunner::run(systemArgs(url) + QStringList{QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(before.exitCode() == 0 && before.jsonValid, qPrintable(before.describe()));
        QCOMPARE(before.json.value(QLatin1String("servers")).toArray().size(), 3);
        QCOMPARE(unansweredNames(before.json), QStringList());

        const QString stopped = cluster.node(2).serverName();
        QVERIFY2(cluster.stopNode(2), qPrintable(cluster.errorString()));

        const auto servers = CliRunner::run(systemArgs(url) + QStringList{QStringLiteral("servers"), QStringLiteral("--json")}, 60000);
        QVERIFY2(!servers.process.timedOut && servers.exitCode() == 0 && servers.jsonValid, qPrintable(servers.describe()));
        QCOMPARE(servers.json.value(QLatin1String("servers")).toArray().size(), 2);
        QVERIFY2(unansweredNames(servers.json).contains(stopped), qPrintable(servers.describe()));
        qInfo() << "servers with a node stopped took" << servers.elapsedMs << "ms";

        const auto accounts = CliRunner::run(systemArgs(url) + QStringList{QStringLiteral("accounts"), QStringLiteral("--json")}, 60000);
        QVERIFY2(!accounts.process.timedOut && accounts.exitCode() == 0 && accounts.jsonValid, qPrintable(accounts.describe()));
        QVERIFY2(unansweredNames(accounts.json).contains(stopped), qPrintable(accounts.describe()));
        const QJsonObject acmeRow = byName(accounts.json.value(QLatin1String("accounts")).toArray(), QStringLiteral("ACME"));
        QCOMPARE(acmeRow.value(QLatin1String("jetstream")), QJsonValue(true));
        QVERIFY2(acmeRow.value(QLatin1String("mqtt_streams")).toArray().contains(QStringLiteral("$MQTT_sess")),
                 qPrintable(accounts.describe()));
        QVERIFY2(acmeRow.value(QLatin1String("mqtt_streams")).toArray().contains(QStringLiteral("$MQTT_msgs")),
                 qPrintable(accounts.describe()));

        const auto text = CliRunner::run(systemArgs(url) + QStringList{QStringLiteral("accounts")}, 60000);
        QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("server %1 ").arg(stopped)), qPrintable(text.describe()));

        const auto check = CliRunner::run(
            systemArgs(url) + QStringList{QStringLiteral("check"), QStringLiteral("--all-accounts"), QStringLiteral("--json")}, 60000);
        QVERIFY2(!check.process.timedOut && check.jsonValid, qPrintable(check.describe()));
        QVERIFY2(check.exitCode() == 2 || check.exitCode() == 3, qPrintable(check.describe()));
        QVERIFY2(unansweredNames(check.json).contains(stopped), qPrintable(check.describe()));
        QVERIFY2(check.json.value(QLatin1String("accounts")).toArray().contains(QStringLiteral("ACME")), qPrintable(check.describe()));
    }
};

QTEST_GUILESS_MAIN(TestUnansweredServers)
#include "tst_unansweredservers.moc"
