// Every account of every server, on every version, whatever order a server lists its accounts in:
// JszCollector with small pages (so that one server's listing takes many pages) against real
// servers holding JetStream accounts, accounts without JetStream sorting before and after them, and
// Discovery::accounts() as the commands use it.
#include <QTest>

#include "natsserverfixture.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/jszcollector.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

// A.. (no JetStream) sort before every JetStream account, B.. have JetStream, C.. have none again.
constexpr int kJetStreamAccounts = 40;
constexpr int kPlainBefore = 9;
constexpr int kPlainAfter = 4;

QString numbered(const char *prefix, int i)
{
    return QStringLiteral("%1%2").arg(QLatin1String(prefix)).arg(i, 2, 10, QLatin1Char('0'));
}

ServerConfig fleetConfig()
{
    ServerConfig config = ServerConfig::standard(); // SYS, ACME (JetStream)
    for (int i = 0; i < kPlainBefore; ++i)
        config.addAccount(ServerConfig::plainAccount(numbered("A", i), numbered("a", i), QStringLiteral("pass")));
    for (int i = 0; i < kJetStreamAccounts; ++i)
        config.addAccount(ServerConfig::jetStreamAccount(numbered("B", i), numbered("b", i), QStringLiteral("pass")));
    for (int i = 0; i < kPlainAfter; ++i)
        config.addAccount(ServerConfig::plainAccount(numbered("C", i), numbered("c", i), QStringLiteral("pass")));
    return config;
}

QStringList jetStreamNames()
{
    QStringList names{QStringLiteral("ACME")};
    for (int i = 0; i < kJetStreamAccounts; ++i)
        names << numbered("B", i);
    return names;
}

Profile systemProfile(const QString &url)
{
    Profile profile;
    profile.servers = {url};
    profile.system.kind = Credentials::Kind::UserPassword;
    profile.system.user = QStringLiteral("sys");
    profile.system.password = QStringLiteral("syspass");
    return profile;
}

QStringList namesOf(const QList<AccountInfo> &accounts)
{
    QStringList out;
    for (const AccountInfo &a : accounts)
        out << a.name;
    return out;
}

} // namespace

class TestJszCollector : public QObject
{
    Q_OBJECT

private slots:
    void everyAccountOnce_data() { addServerVersionRows(); }

    void everyAccountOnce()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, fleetConfig()), qPrintable(server.errorString()));
        ConnectionSet connections(systemProfile(server.url()));
        auto sys = connections.systemClient();
        QVERIFY2(sys, qPrintable(sys ? QString() : sys.error().toString()));

        auto accountz = sys->ping(QStringLiteral("ACCOUNTZ"));
        QVERIFY2(accountz && accountz->size() == 1, "one server, one ACCOUNTZ reply");
        QStringList allNames;
        for (const QJsonValue &v : accountz->first().data.value(QLatin1String("accounts")).toArray())
            allNames << v.toString();
        allNames.sort();
        QHash<QString, QStringList> byServer{{server.serverName(), allNames}};

        // Pages of 3 and 7 accounts: 14 and 6 pages. Before 2.11 a server lists an arbitrary account
        // first at offset 0, so each run may take the other path for the first account: run several.
        for (int pageSize : {3, 7}) {
            for (int run = 0; run < 4; ++run) {
                JszCollector collector(*sys, pageSize);
                auto merge = collector.collectAll(byServer, allNames);
                QVERIFY2(merge, qPrintable(merge ? QString() : merge.error().toString()));
                const QList<AccountInfo> accounts = merge->accounts();
                QCOMPARE(namesOf(accounts), jetStreamNames());
                for (const AccountInfo &a : accounts)
                    QVERIFY2(a.jetstream && a.streamsKnown, qPrintable(a.name));
            }
        }

        // One account by name; an account without JetStream is in no server's listing (a 2.9 server
        // asked for it lists another account instead, which must not be taken for it).
        JszCollector collector(*sys, 7);
        auto one = collector.collectOne(QStringLiteral("B17"));
        QVERIFY(one);
        QCOMPARE(namesOf(one->accounts()), QStringList{QStringLiteral("B17")});
        auto none = collector.collectOne(QStringLiteral("A03"));
        QVERIFY(none);
        QCOMPARE(none->accountCount(), 0);

        // As the commands see it: every account of ACCOUNTZ once, JetStream told apart, nobody silent.
        auto accounts = Discovery::accounts(connections);
        QVERIFY2(accounts, qPrintable(accounts ? QString() : accounts.error().toString()));
        QStringList expected = allNames;
        expected.removeAll(QStringLiteral("$G"));
        QCOMPARE(namesOf(*accounts), expected);
        for (const AccountInfo &a : *accounts) {
            QVERIFY2(a.jetstreamKnown, qPrintable(a.name));
            QCOMPARE(a.jetstream, jetStreamNames().contains(a.name));
        }
        QVERIFY(connections.roster().unanswered().isEmpty());
        QCOMPARE(connections.roster().answering(), QStringList{server.serverName()});
    }
};

QTEST_GUILESS_MAIN(TestJszCollector)
#include "tst_jszcollector.moc"
