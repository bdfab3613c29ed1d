// Every connection failure an operator meets gives a distinct, clear error and exit code 3,
// against real servers; and the other auth kinds (NKey, TLS) connect.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <chrono>
#include <thread>
#include <vector>

#include <QFile>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "natsserverfixture.h"
#include "nats/nkeys.h"
#include "testcertificates.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

// A TCP port that accepts connections (kernel backlog) but never speaks: a hung server.
class SilentListener
{
public:
    SilentListener()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        if (::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 && ::listen(m_fd, 16) == 0) {
            socklen_t len = sizeof addr;
            ::getsockname(m_fd, reinterpret_cast<sockaddr *>(&addr), &len);
            m_port = ntohs(addr.sin_port);
        }
    }
    ~SilentListener() { ::close(m_fd); }
    quint16 port() const { return m_port; }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

// A slow network in front of a real server: forwards each client's bytes both ways, but holds what the
// server sends after its INFO line for `holdMs` (the handshake's PONG comes late).
class SlowLink
{
public:
    SlowLink(quint16 serverPort, int holdMs) : m_serverPort(serverPort), m_holdMs(holdMs)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in addr = loopback(0);
        if (::bind(m_listen, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 && ::listen(m_listen, 4) == 0) {
            socklen_t len = sizeof addr;
            ::getsockname(m_listen, reinterpret_cast<sockaddr *>(&addr), &len);
            m_port = ntohs(addr.sin_port);
        }
        m_accepting = std::thread([this] { serve(); });
    }
    ~SlowLink()
    {
        ::shutdown(m_listen, SHUT_RDWR);
        m_accepting.join();
        ::close(m_listen);
        for (int fd : m_sockets)
            ::shutdown(fd, SHUT_RDWR);
        for (std::thread &t : m_pumps)
            t.join();
        for (int fd : m_sockets)
            ::close(fd);
    }
    quint16 port() const { return m_port; }

private:
    static sockaddr_in loopback(quint16 port)
    {
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(port);
        return addr;
    }
    static void pump(int from, int to, int holdMs)
    {
        char buffer[4096];
        bool held = holdMs == 0;
        for (;;) {
            const ssize_t n = ::recv(from, buffer, sizeof buffer, 0);
            if (n <= 0)
                break;
            ssize_t at = 0;
            if (!held) {
                // The greeting line goes through at once, the rest after the hold.
                if (const void *eol = std::memchr(buffer, '\n', size_t(n))) {
                    const ssize_t line = static_cast<const char *>(eol) - buffer + 1;
                    if (::send(to, buffer, size_t(line), MSG_NOSIGNAL) != line)
                        break;
                    at = line;
                    std::this_thread::sleep_for(std::chrono::milliseconds(holdMs));
                    held = true;
                }
            }
            if (at < n && ::send(to, buffer + at, size_t(n - at), MSG_NOSIGNAL) != n - at)
                break;
        }
        ::shutdown(to, SHUT_WR);
    }
    // Accepts until the listening socket is shut down; each connection gets its own link to the server.
    void serve()
    {
        for (;;) {
            const int client = ::accept(m_listen, nullptr, nullptr);
            if (client < 0)
                return;
            const int server = ::socket(AF_INET, SOCK_STREAM, 0);
            m_sockets << client << server;
            sockaddr_in addr = loopback(m_serverPort);
            if (::connect(server, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
                ::shutdown(client, SHUT_RDWR);
                continue;
            }
            m_pumps.emplace_back([client, server] { pump(client, server, 0); });
            m_pumps.emplace_back([client, server, hold = m_holdMs] { pump(server, client, hold); });
        }
    }

    quint16 m_serverPort;
    int m_holdMs;
    int m_listen = -1;
    quint16 m_port = 0;
    std::thread m_accepting;
    // Touched by the accepting thread only, until the destructor has joined it.
    QList<int> m_sockets;
    std::vector<std::thread> m_pumps;
};

QString errorKind(const CliRunner::Run &run)
{
    return run.json.value(QLatin1String("error")).toObject().value(QLatin1String("kind")).toString();
}

QString errorText(const CliRunner::Run &run)
{
    const QJsonObject e = run.json.value(QLatin1String("error")).toObject();
    return e.value(QLatin1String("message")).toString() + QLatin1Char(' ') + e.value(QLatin1String("hint")).toString();
}

} // namespace

class TestConnectionErrors : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server;

private slots:
    void initTestCase() { QVERIFY2(m_server.start(QStringLiteral("2.9")), qPrintable(m_server.errorString())); }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("mentions");
        const QString url = m_server.url();
        QTest::newRow("wrong password") << QStringList{QStringLiteral("--server"),          url,
                                                       QStringLiteral("--system-user"),     QStringLiteral("sys"),
                                                       QStringLiteral("--system-password"), QStringLiteral("Zq9-not-the-password"),
                                                       QStringLiteral("accounts")}
                                        << QStringLiteral("auth_failed") << QStringLiteral("authorization violation");
        QTest::newRow("no system privileges") << QStringList{QStringLiteral("--server"),          url,
                                                             QStringLiteral("--system-user"),     QStringLiteral("acme"),
                                                             QStringLiteral("--system-password"), QStringLiteral("acmepass"),
                                                             QStringLiteral("accounts")}
                                              << QStringLiteral("no_system_access") << QStringLiteral("system account");
        QTest::newRow("bad url") << QStringList{QStringLiteral("--server"), QStringLiteral("nats://127.0.0.1:notaport"),
                                                QStringLiteral("servers")}
                                 << QStringLiteral("invalid_input") << QStringLiteral("notaport");
        QTest::newRow("unknown account") << QStringList{QStringLiteral("--server"),
                                                        url,
                                                        QStringLiteral("--system-user"),
                                                        QStringLiteral("sys"),
                                                        QStringLiteral("--system-password"),
                                                        QStringLiteral("syspass"),
                                                        QStringLiteral("streams"),
                                                        QStringLiteral("--account"),
                                                        QStringLiteral("NOPE")}
                                         << QStringLiteral("not_found") << QStringLiteral("NOPE");
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, kind);
        QFETCH(QString, mentions);
        const auto run = CliRunner::run(args + QStringList{QStringLiteral("--json")});
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QCOMPARE(errorKind(run), kind);
        QVERIFY2(errorText(run).contains(mentions, Qt::CaseInsensitive), qPrintable(errorText(run)));
        QVERIFY2(!run.out().contains(QLatin1String("Zq9-not")), "a password must never be echoed");

        // The same without --json: a readable error on stderr, nothing on stdout, exit 3.
        const auto text = CliRunner::run(args);
        QCOMPARE(text.exitCode(), 3);
        QVERIFY2(text.err().startsWith(QLatin1String("error: ")), qPrintable(text.describe()));
        QVERIFY(text.out().isEmpty());
    }

    void serverDown()
    {
        NatsServerFixture gone;
        QVERIFY2(gone.start(QStringLiteral("2.9")), qPrintable(gone.errorString()));
        const QString url = gone.url();
        QVERIFY(gone.stop());
        const auto run =
            CliRunner::run({QStringLiteral("--server"), url, QStringLiteral("--user"), QStringLiteral("acme"), QStringLiteral("--password"),
                            QStringLiteral("acmepass"), QStringLiteral("streams"), QStringLiteral("--json")});
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QCOMPARE(errorKind(run), QStringLiteral("connection_refused"));
        QVERIFY(errorText(run).contains(url));
        QVERIFY2(errorText(run).contains(QStringLiteral("nothing listens on ") + url.mid(url.indexOf(QLatin1String("://")) + 3)),
                 qPrintable(errorText(run)));

        // An address needs no DNS lookup: even with a 1 ms timeout (too short for a lookup thread to start
        // on a busy machine) the cause is that nothing listens, never a DNS failure.
        for (int i = 0; i < 5; ++i) {
            const auto hurried = CliRunner::run({QStringLiteral("--server"), url, QStringLiteral("--timeout"), QStringLiteral("1ms"),
                                                 QStringLiteral("servers"), QStringLiteral("--json")});
            QVERIFY2(hurried.exitCode() == 3 && hurried.jsonValid, qPrintable(hurried.describe()));
            QVERIFY2(errorKind(hurried) == QLatin1String("connection_refused"), qPrintable(hurried.describe()));
        }
    }

    void hungServerTimesOut()
    {
        SilentListener silent;
        QVERIFY(silent.port() != 0);
        const auto run =
            CliRunner::run({QStringLiteral("--server"), QStringLiteral("nats://127.0.0.1:%1").arg(silent.port()),
                            QStringLiteral("--timeout"), QStringLiteral("1s"), QStringLiteral("servers"), QStringLiteral("--json")},
                           30000);
        QVERIFY2(!run.process.timedOut, "the CLI must end by itself, bounded by --timeout");
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QCOMPARE(errorKind(run), QStringLiteral("timeout"));
        QVERIFY2(
            errorText(run).contains(QStringLiteral("127.0.0.1:%1 accepted the connection but sent no NATS greeting").arg(silent.port())),
            qPrintable(run.describe()));
    }

    void lateHandshakeReplyIsATimeout()
    {
        // The server's PONG comes 1.5 s after its greeting (a slow link); with a 300 ms timeout that is a
        // timeout to raise, not a server that closed the connection.
        SlowLink link(m_server.clientPort(), 1500);
        QVERIFY(link.port() != 0);
        const auto run =
            CliRunner::run({QStringLiteral("--server"), QStringLiteral("nats://127.0.0.1:%1").arg(link.port()), QStringLiteral("--user"),
                            QStringLiteral("acme"), QStringLiteral("--password"), QStringLiteral("acmepass"), QStringLiteral("--timeout"),
                            QStringLiteral("300ms"), QStringLiteral("servers"), QStringLiteral("--json")},
                           30000);
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QCOMPARE(errorKind(run), QStringLiteral("timeout"));
        QVERIFY2(errorText(run).contains(QStringLiteral("did not complete the connect handshake within 300 ms")),
                 qPrintable(errorText(run)));
        QVERIFY2(errorText(run).contains(QStringLiteral("raise the timeout")), qPrintable(errorText(run)));
        QVERIFY2(!errorText(run).contains(QStringLiteral("closed the connection")), qPrintable(errorText(run)));
    }

    void nkeyAuthentication()
    {
        QByteArray raw(32, 0);
        QRandomGenerator::securelySeeded().fillRange(reinterpret_cast<quint32 *>(raw.data()), 8);
        const QByteArray seed = NKeys::encodeUserSeed(raw);
        const auto pub = NKeys::publicKeyFromSeed(seed);
        QVERIFY(pub.ok());

        ServerConfig config;
        ServerConfig::Account account =
            ServerConfig::jetStreamAccount(QStringLiteral("NK"), QStringLiteral("unused"), QStringLiteral("unused"));
        account.users = {ServerConfig::User{QString(), QString(), QString::fromLatin1(*pub)}};
        config.addAccount(account);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), config), qPrintable(server.errorString()));

        QTemporaryDir dir;
        const QString seedFile = dir.filePath(QStringLiteral("user.nk"));
        QFile f(seedFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(seed + '\n');
        f.close();
        const auto ok = CliRunner::run({QStringLiteral("--server"), server.url(), QStringLiteral("--nkey"), seedFile,
                                        QStringLiteral("accounts"), QStringLiteral("--json")});
        QVERIFY2(ok.exitCode() == 0 && ok.jsonValid, qPrintable(ok.describe()));
        QCOMPARE(ok.json.value(QLatin1String("accounts")).toArray().first().toObject().value(QLatin1String("name")).toString(),
                 QStringLiteral("NK"));

        // Another seed: refused as an authorization violation.
        QByteArray other = raw;
        other[0] = static_cast<char>(other[0] ^ 0x55);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(NKeys::encodeUserSeed(other));
        f.close();
        const auto bad = CliRunner::run({QStringLiteral("--server"), server.url(), QStringLiteral("--nkey"), seedFile,
                                         QStringLiteral("accounts"), QStringLiteral("--json")});
        QVERIFY2(bad.exitCode() == 3, qPrintable(bad.describe()));
        QCOMPARE(errorKind(bad), QStringLiteral("auth_failed"));
        QVERIFY2(!bad.out().contains(QString::fromLatin1(seed)), "no secret in output");
    }

    void tls()
    {
        TestCertificates certs;
        QVERIFY2(certs.generate(), qPrintable(certs.errorString()));
        ServerConfig config = ServerConfig::standard();
        ServerConfig::Tls tls;
        tls.certFile = certs.serverCertFile();
        tls.keyFile = certs.serverKeyFile();
        tls.caFile = certs.caFile();
        tls.verify = true; // mutual TLS: client certificates required
        config.setTls(tls);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), config), qPrintable(server.errorString()));
        const QStringList base{QStringLiteral("--server"),          server.url(),
                               QStringLiteral("--system-user"),     QStringLiteral("sys"),
                               QStringLiteral("--system-password"), QStringLiteral("syspass")};
        const QStringList clientCert{QStringLiteral("--tlscert"), certs.clientCertFile(), QStringLiteral("--tlskey"),
                                     certs.clientKeyFile()};

        const auto good =
            CliRunner::run(base + clientCert
                           + QStringList{QStringLiteral("--tlsca"), certs.caFile(), QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(good.exitCode() == 0 && good.jsonValid, qPrintable(good.describe()));
        QCOMPARE(good.json.value(QLatin1String("servers")).toArray().size(), 1);

        const auto wrongCa = CliRunner::run(
            base + clientCert
            + QStringList{QStringLiteral("--tlsca"), certs.otherCaFile(), QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(wrongCa.exitCode() == 3 && wrongCa.jsonValid, qPrintable(wrongCa.describe()));
        QCOMPARE(errorKind(wrongCa), QStringLiteral("tls"));
        QVERIFY2(errorText(wrongCa).contains(QLatin1String("the TLS handshake with the NATS server")), qPrintable(errorText(wrongCa)));
        QVERIFY2(
            errorText(wrongCa).contains(QLatin1String("check that the CA certificate is the one that signed the server's certificate")),
            qPrintable(errorText(wrongCa)));

        const auto noClientCert = CliRunner::run(
            base + QStringList{QStringLiteral("--tlsca"), certs.caFile(), QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(noClientCert.exitCode() == 3 && noClientCert.jsonValid, qPrintable(noClientCert.describe()));
        QCOMPARE(errorKind(noClientCert), QStringLiteral("tls"));
        QVERIFY2(errorText(noClientCert).contains(QLatin1String("requires a client certificate (its greeting says so)")),
                 qPrintable(errorText(noClientCert)));
        QVERIFY2(errorText(noClientCert).contains(QLatin1String("give a client certificate and its key")),
                 qPrintable(errorText(noClientCert)));

        const auto noCa = CliRunner::run(base + clientCert + QStringList{QStringLiteral("servers"), QStringLiteral("--json")});
        QVERIFY2(noCa.exitCode() == 3 && noCa.jsonValid, qPrintable(noCa.describe()));
        QCOMPARE(errorKind(noCa), QStringLiteral("tls"));
        QVERIFY2(errorText(noCa).contains(QLatin1String("give the CA certificate that signed the server's certificate")),
                 qPrintable(errorText(noCa)));
    }
};

QTEST_GUILESS_MAIN(TestConnectionErrors)
#include "tst_connectionerrors.moc"
