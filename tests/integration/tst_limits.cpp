// Limits against real nats-server processes: nothing waits past its timeout (a
// server that accepts TCP but never speaks, one that stops answering mid-request or mid-read), and a
// user whose permissions deny a subject gets an error naming that subject instead of a bare timeout.
#include <signal.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QScopeGuard>
#include <QThread>
#include <QTest>

#include "clirunner.h"
#include "natsserverfixture.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"
#include "nats/streamreader.h"
#include "nats/systemclient.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

QString errorKind(const CliRunner::Run &run)
{
    return run.json.value(QLatin1String("error")).toObject().value(QLatin1String("kind")).toString();
}

QString errorText(const CliRunner::Run &run)
{
    const QJsonObject e = run.json.value(QLatin1String("error")).toObject();
    return e.value(QLatin1String("message")).toString() + QLatin1Char(' ') + e.value(QLatin1String("hint")).toString();
}

// Whether every thread of a process is stopped (each /proc/<pid>/task/<tid>/stat state 'T'): kill()
// only queues SIGSTOP, and a server thread still running may answer a request sent at once.
bool allThreadsStopped(qint64 pid)
{
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    const QStringList tids = tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (tids.isEmpty())
        return false;
    for (const QString &tid : tids) {
        QFile f(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!f.open(QIODevice::ReadOnly))
            return false;
        const QByteArray stat = f.readAll();
        const qsizetype close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 >= stat.size() || (stat.at(close + 2) != 'T' && stat.at(close + 2) != 't'))
            return false;
    }
    return true;
}

// Freezes a server process (it keeps its sockets: the kernel still accepts TCP) until the guard ends.
// Returns once every thread is stopped (or after 5 s).
auto freeze(const NatsServerFixture &server)
{
    const qint64 pid = server.processId();
    ::kill(static_cast<pid_t>(pid), SIGSTOP);
    QDeadlineTimer deadline(5000);
    while (!allThreadsStopped(pid) && !deadline.hasExpired())
        QThread::msleep(1);
    return qScopeGuard([pid] { ::kill(static_cast<pid_t>(pid), SIGCONT); });
}

} // namespace

class TestLimits : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server;

    std::shared_ptr<NatsConnection> connect(const QString &user, const QString &password, int timeoutMs = 2000)
    {
        ConnectionSettings settings;
        settings.servers = {m_server.url()};
        settings.credentials.kind = Credentials::Kind::UserPassword;
        settings.credentials.user = user;
        settings.credentials.password = password;
        settings.timeoutMs = timeoutMs;
        auto conn = NatsConnection::connect(settings);
        return conn ? *conn : nullptr;
    }
    QStringList userArgs(const QString &user, const QString &password) const
    {
        return {QStringLiteral("--server"),   m_server.url(), QStringLiteral("--user"),    user,
                QStringLiteral("--password"), password,       QStringLiteral("--timeout"), QStringLiteral("3s")};
    }

private slots:
    void initTestCase()
    {
        ServerConfig config;
        config.clearSystemAccount();
        config.addSetting(QStringLiteral(R"(accounts {
  SYS: { users: [ { user: sys, password: syspass },
                  { user: sysdeny, password: sysdenypass, permissions: { publish: { deny: [ "$SYS.REQ.SERVER.PING.>" ] } } } ] }
  ACME: { jetstream: enabled, users: [
    { user: acme, password: acmepass },
    { user: nojs, password: nojspass, permissions: { publish: { deny: [ "$JS.API.>" ] } } },
    { user: nocons, password: noconspass, permissions: { publish: { deny: [ "$JS.API.CONSUMER.>" ] } } },
    { user: noinbox, password: noinboxpass, permissions: { subscribe: { deny: [ "_INBOX.>" ] } } } ] }
}
system_account: SYS)"));
        QVERIFY2(m_server.start(QStringLiteral("2.9"), config), qPrintable(m_server.errorString()));

        // A stream with enough data that a read is still going when the server is frozen.
        auto acme = connect(QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(acme);
        JetStreamClient js(acme);
        auto created = js.call(QStringLiteral("STREAM.CREATE.BIG"),
                               QJsonObject{{QStringLiteral("name"), QStringLiteral("BIG")},
                                           {QStringLiteral("subjects"), QJsonArray{QStringLiteral("big.>")}},
                                           {QStringLiteral("storage"), QStringLiteral("memory")}});
        QVERIFY2(created, qPrintable(created ? QString() : created.error().message()));
        const QByteArray payload(4000, 'x');
        for (int i = 0; i < 20000; ++i)
            QVERIFY(acme->publish(QStringLiteral("big.%1").arg(i), payload));
        auto info = js.streamInfo(QStringLiteral("BIG"));
        QVERIFY(info);
        QTRY_VERIFY_WITH_TIMEOUT(
            js.streamInfo(QStringLiteral("BIG"))->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger()
                == 20000,
            20000);
    }

    void deniedSubjectIsNamed_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("$JS.API denied") << userArgs(QStringLiteral("nojs"), QStringLiteral("nojspass"))
                + QStringList{QStringLiteral("streams")}
                                        << QStringLiteral("$JS.API.INFO");
        QTest::newRow("reply inbox denied") << userArgs(QStringLiteral("noinbox"), QStringLiteral("noinboxpass"))
                + QStringList{QStringLiteral("streams")}
                                            << QStringLiteral("_INBOX");
        QTest::newRow("$SYS denied") << QStringList{QStringLiteral("--server"),
                                                    m_server.url(),
                                                    QStringLiteral("--system-user"),
                                                    QStringLiteral("sysdeny"),
                                                    QStringLiteral("--system-password"),
                                                    QStringLiteral("sysdenypass"),
                                                    QStringLiteral("--timeout"),
                                                    QStringLiteral("3s"),
                                                    QStringLiteral("servers")}
                                     << QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ"); // the first system request of every command
    }

    void deniedSubjectIsNamed()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        const auto run = CliRunner::run(args + QStringList{QStringLiteral("--json")}, 60000);
        QVERIFY2(!run.process.crashed && !run.process.timedOut, qPrintable(run.describe()));
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(errorKind(run) == QLatin1String("permission_denied"), qPrintable(run.describe()));
        QVERIFY2(errorText(run).contains(mentions), qPrintable(errorText(run)));
    }

    void deniedConsumerCreateIsNamed()
    {
        auto conn = connect(QStringLiteral("nocons"), QStringLiteral("noconspass"));
        QVERIFY(conn);
        StreamReader reader(conn);
        StreamReader::Options options;
        options.idleTimeoutMs = 3000;
        auto read = reader.readAll(QStringLiteral("BIG"), {}, options, [](QList<StreamMessage> &&, const ReadProgress &) { return true; });
        QVERIFY(!read);
        QVERIFY2(read.error().kind() == Error::Kind::PermissionDenied, qPrintable(read.error().message()));
        QVERIFY2(read.error().message().contains(QLatin1String("$JS.API.CONSUMER")), qPrintable(read.error().message()));
    }

    void silentServerConnectTimesOut()
    {
        auto guard = freeze(m_server);
        const auto run = CliRunner::run({QStringLiteral("--server"), m_server.url(), QStringLiteral("--user"), QStringLiteral("acme"),
                                         QStringLiteral("--password"), QStringLiteral("acmepass"), QStringLiteral("--timeout"),
                                         QStringLiteral("1s"), QStringLiteral("streams"), QStringLiteral("--json")},
                                        60000);
        QVERIFY2(!run.process.timedOut && !run.process.crashed, "the CLI must end by itself, bounded by --timeout");
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(errorKind(run) == QLatin1String("timeout") || errorKind(run) == QLatin1String("connection_refused"),
                 qPrintable(run.describe()));
    }

    void serverStopsAnsweringRequests()
    {
        auto acme = connect(QStringLiteral("acme"), QStringLiteral("acmepass"), 1500);
        auto sys = connect(QStringLiteral("sys"), QStringLiteral("syspass"), 1500);
        QVERIFY(acme && sys);
        auto guard = freeze(m_server);
        JetStreamClient js(acme);
        auto info = js.streamInfo(QStringLiteral("BIG"));
        QVERIFY2(!info && info.error().kind() == Error::Kind::Timeout, qPrintable(info ? QString() : info.error().message()));
        QVERIFY(info.error().message().contains(QLatin1String("$JS.API.STREAM.INFO.BIG")));
        SystemClient system(sys);
        auto varz = system.ping(QStringLiteral("VARZ"));
        QVERIFY2(!varz, "no reply from a frozen server");
        // The first system request a client sends counts the servers (STATSZ); that is the one named.
        QVERIFY2(varz.error().message().contains(QLatin1String("$SYS.REQ.SERVER.PING.STATSZ")), qPrintable(varz.error().message()));
        MessageGetter getter(acme);
        auto got = getter.getBySequences(QStringLiteral("BIG"), {1, 2, 3}, MessageGetter::Options{1024, 1500, 256, nullptr},
                                         [](QList<StreamMessage> &&, const ReadProgress &) { return true; });
        QVERIFY2(!got && got.error().kind() == Error::Kind::Timeout, "a pipelined read of a frozen server times out");
    }

    void consumerCreateAnsweredTooLate()
    {
        // The server makes the read's consumer only after the read stopped waiting for it. The read says
        // which request went unanswered; once the server runs again, the consumer it made for nobody goes
        // away by itself and the same connection reads the stream in full.
        auto acme = connect(QStringLiteral("acme"), QStringLiteral("acmepass"), 1500);
        QVERIFY(acme);
        StreamReader reader(acme);
        StreamReader::Options options;
        options.batchSize = 1000;
        options.idleTimeoutMs = 5000;
        const auto count = [](quint64 &n) {
            return [&n](QList<StreamMessage> &&batch, const ReadProgress &) {
                n += quint64(batch.size());
                return true;
            };
        };
        quint64 seen = 0;
        {
            auto guard = freeze(m_server);
            // With a filter the read asks nothing before the consumer: CONSUMER.CREATE is what goes unanswered.
            auto read = reader.readAll(QStringLiteral("BIG"), QStringLiteral("big.>"), options, count(seen));
            QVERIFY2(!read && read.error().kind() == Error::Kind::Timeout,
                     qPrintable(read ? QStringLiteral("the read completed") : read.error().message()));
            QVERIFY2(read.error().message().contains(QLatin1String("$JS.API.CONSUMER.CREATE.BIG")), qPrintable(read.error().message()));
        }
        QCOMPARE(seen, 0u);
        JetStreamClient js(acme);
        QTRY_VERIFY_WITH_TIMEOUT(js.consumerList(QStringLiteral("BIG")).value_or(QList<QJsonObject>{{}}).isEmpty(), 20000);
        auto full = reader.readAll(QStringLiteral("BIG"), QStringLiteral("big.>"), options, count(seen));
        QVERIFY2(full, qPrintable(full ? QString() : full.error().message()));
        QCOMPARE(seen, 20000u);
        QVERIFY2(js.consumerList(QStringLiteral("BIG")).value_or(QList<QJsonObject>{{}}).isEmpty(), "the read deleted its consumer");
    }

    void serverStopsMidStreamRead()
    {
        auto acme = connect(QStringLiteral("acme"), QStringLiteral("acmepass"), 1500);
        QVERIFY(acme);
        StreamReader reader(acme);
        StreamReader::Options options;
        options.batchSize = 100;
        options.idleTimeoutMs = 2000;
        qint64 pid = m_server.processId();
        bool frozen = false;
        auto thaw = qScopeGuard([&] {
            if (frozen)
                ::kill(static_cast<pid_t>(pid), SIGCONT);
        });
        quint64 seen = 0;
        auto read = reader.readAll(QStringLiteral("BIG"), {}, options, [&](QList<StreamMessage> &&batch, const ReadProgress &) {
            seen += quint64(batch.size());
            if (!frozen) {
                ::kill(static_cast<pid_t>(pid), SIGSTOP);
                frozen = true;
            }
            return true;
        });
        QVERIFY(frozen);
        QVERIFY2(!read, "the read cannot complete while the server is frozen");
        QVERIFY2(read.error().kind() == Error::Kind::Timeout, qPrintable(read.error().message()));
        QVERIFY2(seen < 20000, "it stopped part way");
        QVERIFY(read.error().message().contains(QLatin1String("BIG")));
    }

    void cleanupTestCase() { QVERIFY(m_server.stop()); }
};

QTEST_GUILESS_MAIN(TestLimits)
#include "tst_limits.moc"
