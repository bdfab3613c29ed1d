// Connection and request failures name their real cause (DNS, refused, not a NATS server, TLS, auth,
// timeout), from real failures against real nats-server processes: in the core (NatsConnection,
// SystemClient) and through the CLI (exit 3, the message on stderr, the JSON error object).
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <future>

#include <QHash>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include "clirunner.h"
#include "freeportallocator.h"
#include "natsserverfixture.h"
#include "poisonedresponder.h"
#include "testcertificates.h"
#include "nats/connectionset.h"
#include "nats/natsconnection.h"
#include "nats/systemclient.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

namespace {

// One failure, as the core and the CLI are given it.
struct Case
{
    QString url;
    QString user = u"acme"_s;
    QString password = u"acmepass"_s;
    QString ca; // CA certificate file, empty: none
    QString kind; // Error::kindName
    QStringList message; // each must be in the message
    QStringList hint; // each must be in the hint
};

const QString kUnresolvable = u"doctor-test.nope.invalid"_s; // .invalid never resolves (RFC 6761)

// A port that takes connections into the kernel's backlog and never speaks; counts them afterwards.
class CountingSilentPort
{
public:
    CountingSilentPort()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), len) == 0 && ::listen(m_fd, 32) == 0
            && ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
            m_port = ntohs(addr.sin_port);
    }
    ~CountingSilentPort() { ::close(m_fd); }
    quint16 port() const { return m_port; }
    // Accepts (and closes) every connection made so far; how many there were.
    int takeConnections()
    {
        int n = 0;
        for (int fd; (fd = ::accept(m_fd, nullptr, nullptr)) >= 0; ++n)
            ::close(fd);
        return n;
    }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

} // namespace

class TestConnectionCauses : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server; // plain client port, MQTT listener, HTTP monitoring
    NatsServerFixture m_tlsServer; // requires TLS on its client port
    NatsServerFixture m_quietServer; // no JetStream: only the responders below answer $JS.API and $SYS.REQ there
    TestCertificates m_certs;
    PoisonedResponder m_quiet; // swallows $JS.API.> in account QUIET (no JetStream)
    PoisonedResponder m_fakeSys; // swallows $SYS.REQ.> in account FAKESYS (not the system account)
    quint16 m_closedPort = 0;
    QHash<QString, Case> m_cases;

    ConnectionSettings settingsFor(const Case &c) const
    {
        ConnectionSettings s;
        s.servers = {c.url};
        s.credentials.kind = Credentials::Kind::UserPassword;
        s.credentials.user = c.user;
        s.credentials.password = c.password;
        s.tls.ca.path = c.ca;
        s.timeoutMs = 1000;
        s.role = u"connection"_s;
        return s;
    }

    static QStringList cliArgs(const Case &c)
    {
        QStringList args{u"--server"_s, c.url, u"--user"_s, c.user, u"--password"_s, c.password, u"--timeout"_s, u"1s"_s};
        if (!c.ca.isEmpty())
            args << u"--tlsca"_s << c.ca;
        return args << u"streams"_s;
    }

    static bool containsAll(const QString &text, const QStringList &parts, QString *missing)
    {
        for (const QString &p : parts)
            if (!text.contains(p)) {
                *missing = u"\"%1\" not in: %2"_s.arg(p, text);
                return false;
            }
        return true;
    }

    std::shared_ptr<NatsConnection> connectAs(const QString &user, const QString &password)
    {
        ConnectionSettings s;
        s.servers = {m_quietServer.url()};
        s.credentials.kind = Credentials::Kind::UserPassword;
        s.credentials.user = user;
        s.credentials.password = password;
        s.timeoutMs = 1000;
        s.role = u"system connection"_s;
        auto conn = NatsConnection::connect(s);
        return conn ? *conn : nullptr;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(u"2.9"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));

        ServerConfig config;
        config.setJetStreamEnabled(false);
        config.setMqttEnabled(false);
        config.addAccount(ServerConfig::plainAccount(u"ACME"_s, u"acme"_s, u"acmepass"_s));
        ServerConfig::Account quiet = ServerConfig::plainAccount(u"QUIET"_s, u"quiet"_s, u"quietpass"_s);
        quiet.users.append({u"quietresponder"_s, u"quietresponderpass"_s, {}});
        config.addAccount(quiet);
        ServerConfig::Account fakeSys = ServerConfig::plainAccount(u"FAKESYS"_s, u"fakesys"_s, u"fakesyspass"_s);
        fakeSys.users.append({u"sysresponder"_s, u"sysresponderpass"_s, {}});
        config.addAccount(fakeSys);
        QVERIFY2(m_quietServer.start(u"2.9"_s, config), qPrintable(m_quietServer.errorString()));
        QVERIFY2(m_quiet.start(m_quietServer.url(), u"quietresponder"_s, u"quietresponderpass"_s, {u"$JS.API.>"_s}),
                 qPrintable(m_quiet.errorString()));
        QVERIFY2(m_fakeSys.start(m_quietServer.url(), u"sysresponder"_s, u"sysresponderpass"_s, {u"$SYS.REQ.>"_s}),
                 qPrintable(m_fakeSys.errorString()));

        QVERIFY2(m_certs.generate(), qPrintable(m_certs.errorString()));
        ServerConfig tlsConfig = ServerConfig::standard();
        ServerConfig::Tls tls;
        tls.certFile = m_certs.serverCertFile();
        tls.keyFile = m_certs.serverKeyFile();
        tlsConfig.setTls(tls);
        QVERIFY2(m_tlsServer.start(u"2.9"_s, tlsConfig), qPrintable(m_tlsServer.errorString()));

        m_closedPort = FreePortAllocator::allocateOne();
        QVERIFY(m_closedPort != 0);
        const QString local = u"127.0.0.1:%1"_s;

        Case c;
        c.url = u"nats://%1:4222"_s.arg(kUnresolvable);
        c.kind = u"dns"_s;
        c.message = {kUnresolvable, u"DNS"_s};
        c.hint = {};
        m_cases.insert(u"unresolvable host"_s, c);

        c = Case();
        c.url = u"nats://"_s + local.arg(m_closedPort);
        c.kind = u"connection_refused"_s;
        c.message = {u"nothing listens on "_s + local.arg(m_closedPort), u"connection refused"_s};
        c.hint = {u"port"_s, u"4222"_s};
        m_cases.insert(u"closed port"_s, c);

        c = Case();
        c.url = u"nats://"_s + local.arg(m_server.mqttPort());
        c.kind = u"not_nats_server"_s;
        c.message = {local.arg(m_server.mqttPort()) + u" is not a NATS server"_s, u"did not answer the NATS handshake"_s};
        c.hint = {u"is it the MQTT port?"_s, u"Give the NATS client port, 4222 by default"_s};
        m_cases.insert(u"MQTT port as the NATS URL"_s, c);

        c = Case();
        c.url = u"nats://"_s + local.arg(m_server.httpPort());
        c.kind = u"not_nats_server"_s;
        c.message = {local.arg(m_server.httpPort()) + u" is not a NATS server"_s, u"HTTP server"_s};
        c.hint = {u"monitoring port"_s, u"4222"_s};
        m_cases.insert(u"HTTP monitoring port as the NATS URL"_s, c);

        c = Case();
        c.url = m_server.url();
        c.ca = m_certs.caFile();
        c.kind = u"tls"_s;
        c.message = {u"set up for TLS (a CA certificate)"_s, u"the server does not offer TLS"_s};
        c.hint = {u"connect without TLS"_s};
        m_cases.insert(u"client wants TLS, plain server"_s, c);

        c = Case();
        c.url = u"tls://"_s + local.arg(m_server.clientPort());
        c.kind = u"tls"_s;
        c.message = {u"set up for TLS (a tls:// URL)"_s, u"the server does not offer TLS"_s};
        c.hint = {u"a nats:// URL"_s};
        m_cases.insert(u"tls:// URL, plain server"_s, c);

        c = Case();
        c.url = u"nats://"_s + local.arg(m_tlsServer.clientPort());
        c.kind = u"tls"_s;
        c.message = {u"at "_s + local.arg(m_tlsServer.clientPort()) + u" requires TLS (its greeting says so)"_s,
                     u"no CA certificate was given"_s, u"(nats.c: "_s};
        c.hint = {u"connect with TLS and give the CA certificate"_s};
        m_cases.insert(u"TLS server reached without TLS"_s, c);

        c = Case();
        c.url = m_server.url();
        c.password = u"Zq9-not-the-password"_s;
        c.kind = u"auth_failed"_s;
        c.message = {u"authorization violation: the server refused the credentials"_s};
        c.hint = {u"check the credentials: the user and password"_s};
        m_cases.insert(u"wrong password"_s, c);
    }

    void connectFailures_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *name :
             {"unresolvable host", "closed port", "MQTT port as the NATS URL", "HTTP monitoring port as the NATS URL",
              "client wants TLS, plain server", "tls:// URL, plain server", "TLS server reached without TLS", "wrong password"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    // The core: NatsConnection::connect's error carries the cause as its kind, and says it.
    void connectFailures()
    {
        QFETCH(QString, name);
        const Case c = m_cases.value(name);
        QVERIFY(!c.url.isEmpty());
        auto conn = NatsConnection::connect(settingsFor(c));
        QVERIFY2(!conn, "the connection must fail");
        const Error &e = conn.error();
        QCOMPARE(Error::kindName(e.kind()), c.kind);
        QString missing;
        QVERIFY2(containsAll(e.message(), c.message, &missing), qPrintable(missing));
        QVERIFY2(containsAll(e.hint(), c.hint, &missing), qPrintable(missing));
        QVERIFY2(e.message().startsWith(u"cannot connect to "_s + c.url + u" (connection): "_s), qPrintable(e.message()));
        QVERIFY2(!e.hint().isEmpty(), "every cause says what to do");
        QVERIFY2(!e.hint().contains(u"--"_s), qPrintable(u"a core hint names a CLI option: "_s + e.hint()));
        QVERIFY2(!e.message().contains(QRegularExpression(u"\\(\\w+\\.c:\\d+\\)"_s)),
                 qPrintable(u"nats.c's source location reached the message: "_s + e.message()));
        QVERIFY(e.natsStatus() != 0);
    }

    void cliFailures_data() { connectFailures_data(); }

    // The CLI: exit 3, the JSON error object with --json; "error: <message>" and "hint: " on stderr without.
    void cliFailures()
    {
        QFETCH(QString, name);
        const Case c = m_cases.value(name);
        const auto json = CliRunner::run(cliArgs(c) + QStringList{u"--json"_s});
        QVERIFY2(json.exitCode() == 3 && json.jsonValid, qPrintable(json.describe()));
        const QJsonObject error = json.json.value(u"error"_s).toObject();
        QCOMPARE(error.value(u"kind"_s).toString(), c.kind);
        QString missing;
        QVERIFY2(containsAll(error.value(u"message"_s).toString(), c.message, &missing), qPrintable(missing));
        QVERIFY2(containsAll(error.value(u"hint"_s).toString(), c.hint, &missing), qPrintable(missing));
        QVERIFY(error.value(u"nats_status"_s).toInt() != 0);
        QVERIFY2(!json.out().contains(u"Zq9-not"_s), "a password is never echoed");

        const auto text = CliRunner::run(cliArgs(c));
        QCOMPARE(text.exitCode(), 3);
        QVERIFY(text.out().isEmpty());
        QVERIFY2(text.err().startsWith(u"error: cannot connect to "_s + c.url), qPrintable(text.describe()));
        QVERIFY2(containsAll(text.err(), c.message, &missing), qPrintable(missing));
        QVERIFY2(text.err().contains(u"\nhint: "_s), qPrintable(text.describe()));
        QVERIFY2(!text.err().contains(u"Zq9-not"_s), "a password is never echoed");
    }

    // A request nobody answers in time is a timeout, named with its subject; in the core and the CLI.
    void requestTimeout()
    {
        auto conn = connectAs(u"quiet"_s, u"quietpass"_s);
        QVERIFY(conn);
        auto reply = conn->request(u"$JS.API.INFO"_s, {}, 700);
        QVERIFY(!reply);
        QCOMPARE(reply.error().kind(), Error::Kind::Timeout);
        QCOMPARE(reply.error().message(), u"no reply on $JS.API.INFO within 700 ms"_s);
        QVERIFY2(reply.error().hint().contains(u"did not answer in time"_s), qPrintable(reply.error().hint()));

        const QStringList args{u"--server"_s,  m_quietServer.url(), u"--user"_s, u"quiet"_s,  u"--password"_s,
                               u"quietpass"_s, u"--timeout"_s,      u"1s"_s,     u"streams"_s};
        const auto json = CliRunner::run(args + QStringList{u"--json"_s});
        QVERIFY2(json.exitCode() == 3 && json.jsonValid, qPrintable(json.describe()));
        const QJsonObject error = json.json.value(u"error"_s).toObject();
        QCOMPARE(error.value(u"kind"_s).toString(), u"timeout"_s);
        QVERIFY2(error.value(u"message"_s).toString().contains(u"no reply on $JS.API.INFO within 1000 ms"_s), qPrintable(json.describe()));
        const auto text = CliRunner::run(args);
        QCOMPARE(text.exitCode(), 3);
        QVERIFY2(text.err().startsWith(u"error: "_s) && text.err().contains(u"no reply on $JS.API.INFO within 1000 ms"_s),
                 qPrintable(text.describe()));
    }

    // A system request that times out is a timeout, not "no system-account access".
    void systemRequestTimeout()
    {
        auto conn = connectAs(u"fakesys"_s, u"fakesyspass"_s);
        QVERIFY(conn);
        SystemClient sys(conn);
        auto varz = sys.ping(u"VARZ"_s);
        QVERIFY(!varz);
        QCOMPARE(varz.error().kind(), Error::Kind::Timeout);
        QVERIFY2(varz.error().message().startsWith(u"no reply on $SYS.REQ.SERVER.PING."_s), qPrintable(varz.error().message()));
        QVERIFY2(!varz.error().message().contains(u"system-account access"_s), qPrintable(varz.error().message()));

        const QStringList args{
            u"--server"_s, m_quietServer.url(), u"--system-user"_s, u"fakesys"_s, u"--system-password"_s, u"fakesyspass"_s, u"--timeout"_s,
            u"1s"_s,       u"servers"_s};
        const QString said = u"no reply on $SYS.REQ.SERVER.PING.STATSZ within 1000 ms"_s;
        const auto json = CliRunner::run(args + QStringList{u"--json"_s});
        QVERIFY2(json.exitCode() == 3 && json.jsonValid, qPrintable(json.describe()));
        const QJsonObject error = json.json.value(u"error"_s).toObject();
        QCOMPARE(error.value(u"kind"_s).toString(), u"timeout"_s);
        QVERIFY2(error.value(u"message"_s).toString().contains(said), qPrintable(json.describe()));
        const auto text = CliRunner::run(args);
        QCOMPARE(text.exitCode(), 3);
        QVERIFY2(text.err().startsWith(u"error: "_s + said), qPrintable(text.describe()));
        QVERIFY2(!text.err().contains(u"system-account access"_s), qPrintable(text.describe()));
    }

    // A user of another account as the system connection: nobody answers there, which is the lack of access.
    void noSystemAccess()
    {
        auto conn = connectAs(u"acme"_s, u"acmepass"_s);
        QVERIFY(conn);
        SystemClient sys(conn);
        auto varz = sys.ping(u"VARZ"_s);
        QVERIFY(!varz);
        QCOMPARE(varz.error().kind(), Error::Kind::NoSystemAccess);
        QVERIFY2(varz.error().message().contains(u"not a user of the system account"_s), qPrintable(varz.error().message()));
        QVERIFY2(!varz.error().hint().contains(u"--"_s), qPrintable(varz.error().hint()));
    }

    // Callers that wait while another one's attempt at the same connection fails share its failure (the
    // GUI's loads run at once): one attempt, one explanation. A later call tries again.
    void concurrentCallersShareOneAttempt()
    {
        CountingSilentPort silent;
        QVERIFY(silent.port() != 0);
        Profile profile;
        profile.servers = {u"nats://127.0.0.1:%1"_s.arg(silent.port())};
        profile.auth.kind = Credentials::Kind::UserPassword;
        profile.auth.user = u"acme"_s;
        profile.auth.password = u"acmepass"_s;
        profile.timeoutMs = 1000;
        ConnectionSet set(profile);
        auto first = std::async(std::launch::async, [&set] { return set.primary(); });
        QTest::qWait(100); // the first attempt waits for the greeting now
        auto second = std::async(std::launch::async, [&set] { return set.primary(); });
        const auto a = first.get();
        const auto b = second.get();
        QVERIFY(!a && !b);
        QCOMPARE(a.error().kind(), Error::Kind::Timeout);
        QCOMPARE(b.error().message(), a.error().message());
        QVERIFY2(a.error().message().contains(u"accepted the connection but sent no NATS greeting"_s), qPrintable(a.error().message()));
        QCOMPARE(silent.takeConnections(), 2); // nats.c's connection and the probe's, once

        const auto again = set.primary();
        QVERIFY(!again);
        QCOMPARE(silent.takeConnections(), 2);
    }

    void cleanupTestCase()
    {
        m_quiet.stop();
        m_fakeSys.stop();
        QVERIFY(m_tlsServer.stop());
        QVERIFY(m_quietServer.stop());
        QVERIFY(m_server.stop());
    }
};

QTEST_GUILESS_MAIN(TestConnectionCauses)
#include "tst_connectioncauses.moc"
