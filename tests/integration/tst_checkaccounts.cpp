// `check` against real servers of every version for what depends on the account and the server setup: a
// JetStream domain (its token is part of the sessions subject), a domain added to a server that already has
// MQTT state, and `--all-accounts` with only a system connection on a server with a broken, a healthy and a
// JetStream-less account.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "records/sessionloader.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

const QString kSess = QStringLiteral("$MQTT_sess");

// Real MQTT state in an account: a persistent QoS1 session, a retained message, a queued QoS1 message.
void makeMqttState(quint16 mqttPort, const QString &user, const QString &password)
{
    MqttClient client(mqttPort, user, password);
    const MqttResult session = client.createPersistentSession(user + QStringLiteral("-sub"), {QStringLiteral("sensors/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    const MqttResult retained = client.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true);
    QVERIFY2(retained.acknowledged, qPrintable(retained.describe()));
    const MqttResult queued = client.publish(QStringLiteral("sensors/door"), "open", 1);
    QVERIFY2(queued.acknowledged, qPrintable(queued.describe()));
}

QStringList strings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

} // namespace

class TestCheckAccounts : public QObject
{
    Q_OBJECT

private slots:
    // Case 8: jetstream { domain: hub }. The servers put the domain token into the sessions subject; that is
    // the expected layout, not a finding.
    void jetStreamDomain_data() { addServerVersionRows(); }
    void jetStreamDomain()
    {
        QFETCH(QString, version);
        ServerConfig config = ServerConfig::standard();
        config.setJetStreamDomain(QStringLiteral("hub"));
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        if (QTest::currentTestFailed())
            return;

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const auto sess = admin.streamConfig(kSess);
        QVERIFY2(sess, qPrintable(admin.error()));
        QCOMPARE(strings(sess->value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.sess.hub.>")});

        const QList<QStringList> connections{
            acmeArgs(server.url()),
            acmeArgs(server.url()) + QStringList{QStringLiteral("--js-domain"), QStringLiteral("hub")},
            systemArgs(server.url()) + QStringList{QStringLiteral("--account"), acme(), QStringLiteral("--no-records")},
        };
        for (const QStringList &connection : connections) {
            const CliRunner::Run run = check(connection);
            QVERIFY2(run.jsonValid, qPrintable(run.describe()));
            QVERIFY2(findingsAbove(run, QStringLiteral("info")).isEmpty(), qPrintable(connection.join(u' ') + u'\n' + describe(run)));
            QCOMPARE(run.exitCode(), 0);
        }
    }

    // A domain added to a server that already keeps MQTT state: $MQTT_sess keeps $MQTT.sess.>, which still
    // captures $MQTT.sess.hub.<hash> (MQTT works), but the sessions saved before are no longer found.
    void domainAddedLater_data() { addServerVersionRows(); }
    void domainAddedLater()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        if (QTest::currentTestFailed())
            return;
        QVERIFY(server.stop());
        ServerConfig config = server.config();
        config.setJetStreamDomain(QStringLiteral("hub"));
        QVERIFY2(server.launch(server.binary(), config) && server.waitUntilReady(NatsServerFixture::DefaultReadyTimeoutMs),
                 qPrintable(server.errorString()));
        MqttClient client(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        const MqttResult other = client.connectOnce(QStringLiteral("other-client"), false);
        QVERIFY2(other.connected(), qPrintable(other.describe()));

        const CliRunner::Run run = check(acmeArgs(server.url()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        const QJsonObject f = findingWith(run, QStringLiteral("STREAM_SUBJECTS_WRONG"), kSess);
        QVERIFY2(!f.isEmpty(), qPrintable(describe(run)));
        QCOMPARE(str(f, "severity"), QStringLiteral("warning"));
        QCOMPARE(strings(expectedOf(f).toObject().value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.sess.hub.>")});
        QCOMPARE(strings(actualOf(f).toObject().value(QLatin1String("subjects"))), QStringList{QStringLiteral("$MQTT.sess.>")});
        QVERIFY2(findingsAbove(run, QStringLiteral("warning")).isEmpty(), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 1);
    }

    // `check --all-accounts` (and `check` with nothing but a system connection): ACME lost $MQTT_sess, BETA is
    // healthy, NOJS has no JetStream. Every account is checked from JSZ; only ACME is a problem.
    void allAccountsSystemOnly_data() { addServerVersionRows(); }
    void allAccountsSystemOnly()
    {
        QFETCH(QString, version);
        ServerConfig config = ServerConfig::standard();
        config.addAccount(ServerConfig::jetStreamAccount(QStringLiteral("BETA"), QStringLiteral("beta"), QStringLiteral("betapass")));
        config.addAccount(ServerConfig::plainAccount(QStringLiteral("NOJS"), QStringLiteral("nojs"), QStringLiteral("nojspass")));
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));
        makeMqttState(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        makeMqttState(server.mqttPort(), QStringLiteral("beta"), QStringLiteral("betapass"));
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));

        for (const QStringList &extra : {QStringList{QStringLiteral("--all-accounts")}, QStringList{}}) {
            const CliRunner::Run run = check(systemArgs(server.url()), extra);
            QVERIFY2(run.jsonValid, qPrintable(run.describe()));
            QStringList accounts = strings(run.json.value(QLatin1String("accounts")));
            for (const QString &name : {acme(), QStringLiteral("BETA"), QStringLiteral("NOJS")})
                QVERIFY2(accounts.contains(name), qPrintable(accounts.join(u',')));

            const QJsonObject missing = findingWith(run, QStringLiteral("STREAM_MISSING"), kSess);
            QVERIFY2(!missing.isEmpty(), qPrintable(describe(run)));
            QCOMPARE(str(missing, "account"), acme());
            QCOMPARE(str(missing, "severity"), QStringLiteral("critical"));
            for (const QJsonObject &f : findingsAbove(run, QStringLiteral("info")))
                QVERIFY2(str(f, "account") == acme(), qPrintable(describe(run)));
            for (const QJsonObject &f : findings(run))
                if (str(f, "account") == QStringLiteral("NOJS"))
                    QVERIFY2(str(f, "code") == QStringLiteral("JETSTREAM_DISABLED"), qPrintable(describe(run)));
            QCOMPARE(run.exitCode(), 2);
        }
    }

    // `check --all-accounts` with every account's credentials in a profile: ten accounts read through their
    // own connections three at a time. A corrupt record in one account is found through that path; one
    // account whose credentials are wrong is a note, and every other account is still checked.
    void allAccountsWithCredentials_data() { addServerVersionRows(); }
    void allAccountsWithCredentials()
    {
        QFETCH(QString, version);
        constexpr int kAccounts = 10;
        const auto name = [](int i) { return QStringLiteral("T%1").arg(i); };
        const auto user = [](int i) { return QStringLiteral("t%1").arg(i); };
        ServerConfig config = ServerConfig::standard();
        for (int i = 0; i < kAccounts; ++i)
            config.addAccount(ServerConfig::jetStreamAccount(name(i), user(i), QStringLiteral("pass")));
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));
        for (int i = 0; i < kAccounts; ++i)
            makeMqttState(server.mqttPort(), user(i), QStringLiteral("pass"));
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, user(3), QStringLiteral("pass")), qPrintable(admin.error()));
        QVERIFY2(admin.store(SessionLoader::sessionSubject(user(3) + QStringLiteral("-sub"), {}), "{not a session record"),
                 qPrintable(admin.error()));

        Profile profile;
        profile.servers = {server.url()};
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = QStringLiteral("sys");
        profile.system.password = QStringLiteral("syspass");
        for (int i = 0; i < kAccounts; ++i) {
            Credentials c;
            c.kind = Credentials::Kind::UserPassword;
            c.user = user(i);
            c.password = i == 7 ? QStringLiteral("wrong") : QStringLiteral("pass");
            profile.accounts.insert(name(i), c);
        }
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("fleet.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(profile.toJson(true)).toJson());
        file.close();
        QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));

        const CliRunner::Run run = check({QStringLiteral("--profile"), file.fileName()},
                                         {QStringLiteral("--all-accounts"), QStringLiteral("--parallel"), QStringLiteral("3")});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QStringList checked = strings(run.json.value(QLatin1String("records_checked")));
        checked.sort();
        QStringList expected;
        for (int i = 0; i < kAccounts; ++i)
            if (i != 7)
                expected << name(i);
        QCOMPARE(checked, expected);
        const QStringList notes = strings(run.json.value(QLatin1String("notes")));
        bool named = false;
        for (const QString &note : notes)
            named = named || (note.contains(name(7)) && note.contains(QLatin1String("authorization"), Qt::CaseInsensitive));
        QVERIFY2(named, qPrintable(notes.join(u'\n')));
        const QJsonObject undecodable = findingWith(run, QStringLiteral("SESSION_UNDECODABLE"), kSess);
        QVERIFY2(!undecodable.isEmpty() && str(undecodable, "account") == name(3), qPrintable(describe(run)));
        for (const QJsonObject &f : findingsAbove(run, QStringLiteral("info")))
            QVERIFY2(str(f, "account") == name(3), qPrintable(describe(run)));
        QCOMPARE(run.exitCode(), 2);

        // The option's range is checked: a usage error.
        const CliRunner::Run bad = check({QStringLiteral("--profile"), file.fileName()},
                                         {QStringLiteral("--all-accounts"), QStringLiteral("--parallel"), QStringLiteral("0")});
        QVERIFY2(bad.exitCode() == 64
                     && bad.json.value(QLatin1String("error"))
                            .toObject()
                            .value(QLatin1String("message"))
                            .toString()
                            .contains(QLatin1String("--parallel")),
                 qPrintable(bad.describe()));
    }
};

QTEST_GUILESS_MAIN(TestCheckAccounts)
#include "tst_checkaccounts.moc"
