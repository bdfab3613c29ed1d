// normalizeServerUrl: every URL form an operator types, and the errors for the bad ones.
#include <QTest>

#include "nats/profile.h"

using namespace MqttDoctor;

class TestServerUrl : public QObject
{
    Q_OBJECT

private slots:
    void normalizeUrl_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QString>("errorPart"); // empty: must succeed

        auto good = [](const char *tag, const char *in, const char *out) {
            QTest::newRow(tag) << QString::fromUtf8(in) << QString::fromUtf8(out) << QString();
        };
        auto bad = [](const char *tag, const char *in, const char *part) {
            QTest::newRow(tag) << QString::fromUtf8(in) << QString() << QString::fromUtf8(part);
        };
        good("host", "localhost", "nats://localhost:4222");
        good("host:port", "n1.example.com:4333", "nats://n1.example.com:4333");
        good("nats url", "nats://n1:4222", "nats://n1:4222");
        good("nats no port", "nats://n1", "nats://n1:4222");
        good("upper case", "NATS://N1.Example.COM", "nats://n1.example.com:4222");
        good("tls", "tls://secure.example.com", "tls://secure.example.com:4222");
        good("tls port", "tls://secure:4443", "tls://secure:4443");
        good("ws", "ws://web:8080", "ws://web:8080");
        good("ws default port", "ws://web", "ws://web:80");
        good("wss default port", "wss://web", "wss://web:443");
        good("wss path", "wss://web:8443/nats", "wss://web:8443/nats");
        good("trailing slash", "nats://n1:4222/", "nats://n1:4222");
        good("ipv4", "127.0.0.1", "nats://127.0.0.1:4222");
        good("ipv6", "[::1]:4223", "nats://[::1]:4223");
        good("ipv6 scheme", "nats://[fe80::1]", "nats://[fe80::1]:4222");
        good("underscore host", "nats_1:4222", "nats://nats_1:4222");
        good("port 1", "h:1", "nats://h:1");
        good("port 65535", "h:65535", "nats://h:65535");
        good("whitespace around", "  n1:4222 \n", "nats://n1:4222");

        bad("empty", "", "empty server URL");
        bad("blank", "   ", "empty server URL");
        bad("scheme only", "nats://", "\"nats://\" has no host");
        bad("no host", "nats://:4222", "\"nats://:4222\" has no host");
        bad("no host bare", ":4222", "\":4222\" has no host");
        bad("port letters", "host:abc", "\"host:abc\" has an invalid port \"abc\"");
        bad("port empty", "host:", "\"host:\" has an invalid port \"\"");
        bad("port zero", "host:0", "\"host:0\" has an invalid port \"0\"");
        bad("port too big", "nats://host:65536", "\"nats://host:65536\" has an invalid port \"65536\"");
        bad("port negative", "host:-1", "\"host:-1\" has an invalid port");
        bad("port huge", "host:99999999999", "invalid port");
        bad("unknown scheme", "http://host:4222", "\"http://host:4222\" has the unsupported scheme \"http\"");
        bad("mqtt scheme", "mqtt://host:1883", "unsupported scheme \"mqtt\"");
        bad("empty scheme", "://host", "\"://host\" has no scheme");
        bad("space", "ho st", "\"ho st\" contains a space");
        bad("space in url", "nats://n1:4222 nats://n2:4222", "contains a space");
        bad("tab", "nats://n1\t:4222", "contains a space");
        bad("bare ipv6", "::1", "\"::1\" has too many ':'");
        bad("ipv6 unclosed", "[::1:4222", "closing ']'");
        bad("ipv6 garbage", "[::zz]:4222", "invalid IPv6");
        bad("path", "nats://host:4222/sub", "\"nats://host:4222/sub\" has a path");
        bad("query", "nats://host:4222?x=1", "query");
        bad("bad host char", "ho$t:4222", "\"ho$t:4222\" has an invalid host name");
        bad("credentials", "nats://admin:hunter2@host:4222", "\"nats://***@host:4222\" holds credentials");
    }

    void normalizeUrl()
    {
        QFETCH(QString, input);
        QFETCH(QString, expected);
        QFETCH(QString, errorPart);
        const auto r = normalizeServerUrl(input);
        if (errorPart.isEmpty()) {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            QCOMPARE(*r, expected);
            // Normalizing twice changes nothing.
            const auto again = normalizeServerUrl(*r);
            QVERIFY(again.ok());
            QCOMPARE(*again, expected);
        } else {
            QVERIFY2(!r.ok(), qPrintable(r.ok() ? *r : QString()));
            QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
            QVERIFY2(r.error().message().contains(errorPart), qPrintable(r.error().message()));
            QVERIFY2(!r.error().toString().contains(QLatin1String("hunter2")), qPrintable(r.error().toString()));
        }
    }
};

QTEST_GUILESS_MAIN(TestServerUrl)
#include "tst_serverurl.moc"
