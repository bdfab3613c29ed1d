#include <QCommandLineParser>
#include <QTemporaryDir>
#include <QTest>

#include "nats/connectionoptions.h"

using namespace MqttDoctor;

class TestConnectionOptions : public QObject
{
    Q_OBJECT

private:
    static Result<Profile> parse(const QStringList &args)
    {
        QCommandLineParser parser;
        ConnectionOptions::addTo(parser);
        if (!parser.parse(QStringList{QStringLiteral("prog")} + args))
            return Error(Error::Kind::InvalidInput, parser.errorText());
        return ConnectionOptions::fromParser(parser).toProfile();
    }

private slots:
    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("ms");
        QTest::newRow("seconds") << QStringLiteral("5s") << 5000;
        QTest::newRow("millis") << QStringLiteral("500ms") << 500;
        QTest::newRow("minutes") << QStringLiteral("2m") << 120000;
        QTest::newRow("compound") << QStringLiteral("1m30s") << 90000;
        QTest::newRow("plain number is seconds") << QStringLiteral("3") << 3000;
        QTest::newRow("fraction") << QStringLiteral("1.5s") << 1500;
        QTest::newRow("hours") << QStringLiteral("2h") << 7200000;
        QTest::newRow("the most: 24h") << QStringLiteral("24h") << 86400000;
        QTest::newRow("the most in seconds") << QStringLiteral("86400") << 86400000;
        QTest::newRow("the least: 1ms") << QStringLiteral("1ms") << 1;
        QTest::newRow("rounded to ms") << QStringLiteral("1500us") << 2;
    }

    void durations()
    {
        QFETCH(QString, text);
        QFETCH(int, ms);
        const auto r = parseDurationMs(text);
        QVERIFY(r.ok());
        QCOMPARE(*r, ms);
    }

    void badDurations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString notDuration = QStringLiteral("--timeout \"%1\" is not a duration");
        const QString range = QStringLiteral("--timeout must be between 1ms and 24h, not \"%1\"");
        QTest::newRow("unit") << QStringLiteral("5x") << notDuration.arg(QStringLiteral("5x"));
        QTest::newRow("negative") << QStringLiteral("-1") << range.arg(QStringLiteral("-1"));
        QTest::newRow("zero") << QStringLiteral("0") << range.arg(QStringLiteral("0"));
        QTest::newRow("below 1ms") << QStringLiteral("400us") << range.arg(QStringLiteral("400us"));
        QTest::newRow("too long") << QStringLiteral("24h1s") << range.arg(QStringLiteral("24h1s"));
        QTest::newRow("too long in seconds") << QStringLiteral("86401") << range.arg(QStringLiteral("86401"));
        QTest::newRow("empty") << QString() << notDuration.arg(QString());
    }

    // The range and its message are a profile's (Profile: "timeout"), named --timeout; a usage error.
    void badDurations()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const auto r = parseDurationMs(text);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
        QVERIFY(r.error().isUsage());
        QCOMPARE(r.error().message(), message);
        QVERIFY(!r.error().hint().isEmpty());
    }

    void sameRangeAsProfiles()
    {
        const auto cli = parseDurationMs(QStringLiteral("25h"));
        const auto profile = timeoutInRange(25.0 * 3600 * 1000, QStringLiteral("\"timeout\""), QStringLiteral("\"25h\""));
        QVERIFY(!cli.ok() && !profile.ok());
        QCOMPARE(cli.error().message().mid(int(qstrlen("--timeout"))), profile.error().message().mid(int(qstrlen("\"timeout\""))));
        QCOMPARE(cli.error().hint(), profile.error().hint());
        QVERIFY2(!profile.error().isUsage(), "a profile's value is not the command line's");
        QCOMPARE(*timeoutInRange(86400000, QStringLiteral("x"), QString()), 86400000);
    }

    void userAndSystem()
    {
        const auto p = parse({QStringLiteral("-s"), QStringLiteral("nats://127.0.0.1:4222,nats://127.0.0.1:4223"), QStringLiteral("--user"),
                              QStringLiteral("acme"), QStringLiteral("--password"), QStringLiteral("pw"), QStringLiteral("--system-user"),
                              QStringLiteral("sys"), QStringLiteral("--system-password"), QStringLiteral("sp"), QStringLiteral("--timeout"),
                              QStringLiteral("2s"), QStringLiteral("--js-domain"), QStringLiteral("hub")});
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message()));
        QCOMPARE(p->servers.size(), 2);
        QCOMPARE(p->auth.kind, Credentials::Kind::UserPassword);
        QCOMPARE(p->auth.user, QStringLiteral("acme"));
        QCOMPARE(p->system.kind, Credentials::Kind::UserPassword);
        QCOMPARE(p->system.password, QStringLiteral("sp"));
        QCOMPARE(p->timeoutMs, 2000);
        QCOMPARE(p->jsDomain, QStringLiteral("hub"));
        QVERIFY(!p->allowChanges);
    }

    void fileOptionsResolve()
    {
        QTemporaryDir dir;
        const QString seed = dir.filePath(QStringLiteral("user.nk"));
        QFile f(seed);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("SUAAAAICAMCAKBQHBAEQUCYMBUHA6EARCIJRIFIWC4MBSGQ3DQOR4H776Y\n");
        f.close();
        const auto p =
            parse({QStringLiteral("-s"), QStringLiteral("127.0.0.1"), QStringLiteral("--nkey"), seed, QStringLiteral("--tlsca"), seed});
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message()));
        QCOMPARE(p->auth.kind, Credentials::Kind::NKey);
        QCOMPARE(p->auth.nkeySeed.path, seed);
        QCOMPARE(p->tls.ca.path, seed);
    }

    void errors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::addColumn<bool>("usage"); // the command line itself is wrong (the CLI exits 64), not a file or URL
        QTest::newRow("no server") << QStringList{QStringLiteral("--user"), QStringLiteral("u")} << QStringLiteral("no server") << true;
        QTest::newRow("two auth kinds") << QStringList{QStringLiteral("-s"), QStringLiteral("h"),       QStringLiteral("--user"),
                                                       QStringLiteral("u"),  QStringLiteral("--token"), QStringLiteral("t")}
                                        << QStringLiteral("only one") << true;
        QTest::newRow("password alone") << QStringList{QStringLiteral("-s"), QStringLiteral("h"), QStringLiteral("--password"),
                                                       QStringLiteral("p")}
                                        << QStringLiteral("--password needs --user") << true;
        QTest::newRow("bad url") << QStringList{QStringLiteral("-s"), QStringLiteral("nats://host:0")} << QStringLiteral("nats://host:0")
                                 << false;
        QTest::newRow("bad timeout") << QStringList{QStringLiteral("-s"), QStringLiteral("h"), QStringLiteral("--timeout"),
                                                    QStringLiteral("soon")}
                                     << QStringLiteral("--timeout") << true;
        QTest::newRow("missing creds file") << QStringList{QStringLiteral("-s"), QStringLiteral("h"), QStringLiteral("--creds"),
                                                           QStringLiteral("/nonexistent/x.creds")}
                                            << QStringLiteral("x.creds") << false;
        QTest::newRow("system user and creds") << QStringList{QStringLiteral("-s"),
                                                              QStringLiteral("h"),
                                                              QStringLiteral("--system-user"),
                                                              QStringLiteral("s"),
                                                              QStringLiteral("--system-creds"),
                                                              QStringLiteral("/tmp")}
                                               << QStringLiteral("not both") << true;
    }

    void errors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        QFETCH(bool, usage);
        const auto p = parse(args);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().isUsage(), usage);
        QVERIFY2(p.error().toString().contains(mentions), qPrintable(p.error().toString()));
    }
};

QTEST_GUILESS_MAIN(TestConnectionOptions)
#include "tst_connectionoptions.moc"
