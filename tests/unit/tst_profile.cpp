// Profiles (nats/profile.h): credential kinds, servers, timeouts, auth and file references from JSON, errors,
// round trips, the secret-free form and validation. Reading profile files and file references from disk:
// tst_profilefile.cpp.
#include <functional>

#include <QJsonArray>
#include <QRegularExpression>

#include "profiletestfiles.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::ProfileTestFiles;

using ProfileMutator = std::function<void(Profile &)>;
Q_DECLARE_METATYPE(ProfileMutator)

class TestProfile final : public QObject, private ProfileFiles
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFiles(); }
    void cleanupTestCase() { restoreEnvironment(); }

    void kindNames_data()
    {
        QTest::addColumn<Credentials::Kind>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << Credentials::Kind::None << QStringLiteral("none");
        QTest::newRow("user_password") << Credentials::Kind::UserPassword << QStringLiteral("user_password");
        QTest::newRow("token") << Credentials::Kind::Token << QStringLiteral("token");
        QTest::newRow("nkey") << Credentials::Kind::NKey << QStringLiteral("nkey");
        QTest::newRow("creds") << Credentials::Kind::Creds << QStringLiteral("creds");
        QTest::newRow("user_jwt") << Credentials::Kind::UserJwt << QStringLiteral("user_jwt");
    }

    void kindNames()
    {
        QFETCH(Credentials::Kind, kind);
        QFETCH(QString, name);
        QCOMPARE(Credentials::kindName(kind), name);
        QCOMPARE(Credentials::kindFromName(name), std::optional<Credentials::Kind>(kind));
        QCOMPARE(Credentials::kindFromName(QLatin1Char(' ') + name.toUpper() + QLatin1Char(' ')), std::optional<Credentials::Kind>(kind));
    }

    void kindFromUnknownName()
    {
        QVERIFY(!Credentials::kindFromName(QStringLiteral("password")).has_value());
        QVERIFY(!Credentials::kindFromName(QString()).has_value());
    }

    void servers_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("expected");
        const QStringList local{QStringLiteral("nats://127.0.0.1:4222")};
        QTest::newRow("absent: default") << QByteArray("{}") << local;
        QTest::newRow("null: default") << QByteArray("{\"servers\": null}") << local;
        QTest::newRow("empty string: default") << QByteArray("{\"servers\": \"\"}") << local;
        QTest::newRow("empty array: default") << QByteArray("{\"servers\": []}") << local;
        QTest::newRow("one string") << QByteArray("{\"servers\": \"n1\"}") << QStringList{QStringLiteral("nats://n1:4222")};
        QTest::newRow("comma string") << QByteArray("{\"servers\": \"n1:4222, tls://n2:4443 ,,ws://n3:8080\"}")
                                      << QStringList{QStringLiteral("nats://n1:4222"), QStringLiteral("tls://n2:4443"),
                                                     QStringLiteral("ws://n3:8080")};
        QTest::newRow("array") << QByteArray("{\"servers\": [\"nats://n1:4222\", \"n2:5222\", \"wss://n3\"]}")
                               << QStringList{QStringLiteral("nats://n1:4222"), QStringLiteral("nats://n2:5222"),
                                              QStringLiteral("wss://n3:443")};
        QTest::newRow("array with comma item") << QByteArray("{\"servers\": [\"n1,n2\"]}")
                                               << QStringList{QStringLiteral("nats://n1:4222"), QStringLiteral("nats://n2:4222")};
    }

    void servers()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, expected);
        const auto p = Profile::fromJson(parse(json));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message()));
        QCOMPARE(p->servers, expected);
    }

    void defaults()
    {
        const auto p = Profile::fromJson(QJsonObject());
        QVERIFY(p.ok());
        QCOMPARE(p->timeoutMs, 5000);
        QCOMPARE(p->allowChanges, false);
        QVERIFY(!p->auth.isSet());
        QVERIFY(!p->hasSystem());
        QVERIFY(p->accounts.isEmpty());
        QVERIFY(!p->tls.isSet());
        QVERIFY(p->validate().ok());
    }

    void timeout_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("expected"); // -1: must fail
        QTest::newRow("ms number") << QByteArray("5000") << 5000;
        QTest::newRow("1 ms") << QByteArray("1") << 1;
        QTest::newRow("5s") << QByteArray("\"5s\"") << 5000;
        QTest::newRow("500ms") << QByteArray("\"500ms\"") << 500;
        QTest::newRow("2m") << QByteArray("\"2m\"") << 120000;
        QTest::newRow("1h") << QByteArray("\"1h\"") << 3600000;
        QTest::newRow("1m30s") << QByteArray("\"1m30s\"") << 90000;
        QTest::newRow("1.5s") << QByteArray("\"1.5s\"") << 1500;
        QTest::newRow("spaces around") << QByteArray("\" 10s \"") << 10000;
        QTest::newRow("us") << QByteArray("\"2500us\"") << 3; // 2.5ms rounds to 3
        QTest::newRow("ns") << QByteArray("\"2000000ns\"") << 2;
        QTest::newRow("24h") << QByteArray("\"24h\"") << 86400000;

        QTest::newRow("bare number string") << QByteArray("\"5\"") << -1;
        QTest::newRow("unknown unit") << QByteArray("\"5x\"") << -1;
        QTest::newRow("days") << QByteArray("\"1d\"") << -1;
        QTest::newRow("words") << QByteArray("\"five seconds\"") << -1;
        QTest::newRow("empty string") << QByteArray("\"\"") << -1;
        QTest::newRow("zero") << QByteArray("0") << -1;
        QTest::newRow("0s") << QByteArray("\"0s\"") << -1;
        QTest::newRow("negative") << QByteArray("-100") << -1;
        QTest::newRow("negative string") << QByteArray("\"-5s\"") << -1;
        QTest::newRow("fraction ms") << QByteArray("1.5") << -1;
        QTest::newRow("below 1ms") << QByteArray("\"100us\"") << -1;
        QTest::newRow("too long") << QByteArray("\"25h\"") << -1;
        QTest::newRow("too long ms") << QByteArray("100000000") << -1;
        QTest::newRow("bool") << QByteArray("true") << -1;
        QTest::newRow("object") << QByteArray("{}") << -1;
        QTest::newRow("two dots") << QByteArray("\"1.2.3s\"") << -1;
    }

    void timeout()
    {
        QFETCH(QByteArray, value);
        QFETCH(int, expected);
        const auto p = Profile::fromJson(parse("{\"timeout\": " + value + "}"));
        if (expected > 0) {
            QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().message()));
            QCOMPARE(p->timeoutMs, expected);
        } else {
            QVERIFY(!p.ok());
            QCOMPARE(p.error().kind(), Error::Kind::InvalidInput);
            QVERIFY2(p.error().message().contains(QLatin1String("\"timeout\"")), qPrintable(p.error().message()));
            QVERIFY(!p.error().hint().isEmpty());
            QVERIFY2(!p.error().isUsage(), "a profile's timeout is not the command line's");
        }
    }

    // The range (1ms to 24h) and its message are the command line's --timeout's (timeoutInRange).
    void timeoutRangeMessage_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("25h") << QByteArray("\"25h\"") << QStringLiteral("\"timeout\" must be between 1ms and 24h, not \"25h\"");
        QTest::newRow("0s") << QByteArray("\"0s\"") << QStringLiteral("\"timeout\" must be between 1ms and 24h, not \"0s\"");
        QTest::newRow("100us") << QByteArray("\"100us\"") << QStringLiteral("\"timeout\" must be between 1ms and 24h, not \"100us\"");
        QTest::newRow("zero ms") << QByteArray("0") << QStringLiteral("\"timeout\" must be between 1ms and 24h, not 0");
        QTest::newRow("too many ms") << QByteArray("86400001") << QStringLiteral("\"timeout\" must be between 1ms and 24h, not 86400001");
    }

    void timeoutRangeMessage()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, message);
        const auto p = Profile::fromJson(parse("{\"timeout\": " + value + "}"));
        QVERIFY(!p.ok());
        QCOMPARE(p.error().message(), message);
        QCOMPARE(p.error().hint(), timeoutInRange(0, QString(), QString()).error().hint());
        // A profile built in code (the GUI's) is held to the same range.
        Profile built;
        built.servers = {QStringLiteral("nats://127.0.0.1:4222")};
        built.timeoutMs = 86400001;
        QVERIFY(!built.validate().ok());
        QCOMPARE(built.validate().error().message(), QStringLiteral("\"timeout\" must be between 1ms and 24h, not 86400001ms"));
        built.timeoutMs = 86400000;
        QVERIFY(built.validate().ok());
    }

    void auth_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<Credentials>("expected");

        QTest::newRow("empty object") << QByteArray("{}") << Credentials{};
        QTest::newRow("empty strings as natscli writes") << QByteArray(
            "{\"user\": \"\", \"password\": \"\", \"token\": \"\", \"creds\": \"\", \"nkey\": \"\", \"user_jwt\": \"\", \"user_seed\": \"\"}")
                                                         << Credentials{};
        QTest::newRow("nulls") << QByteArray("{\"user\": null, \"token\": null}") << Credentials{};
        QTest::newRow("user and password") << QByteArray("{\"user\": \"alice\", \"password\": \"pw\"}")
                                           << userPassword(QStringLiteral("alice"), QStringLiteral("pw"));
        QTest::newRow("user only") << QByteArray("{\"user\": \"alice\"}") << userPassword(QStringLiteral("alice"), QString());
        QTest::newRow("token") << QByteArray("{\"token\": \"t0k3n\"}") << token(QStringLiteral("t0k3n"));
        QTest::newRow("nkey relative") << QByteArray("{\"nkey\": \"user.nk\"}") << nkey(fromPath(base(QStringLiteral("user.nk"))));
        QTest::newRow("nkey data") << QByteArray("{\"nkey\": \"data:;base64,U1VBQkM=\"}") << nkey(fromData("SUABC"));
        QTest::newRow("creds relative subdir") << QByteArray("{\"creds\": \"./sub/../user.creds\"}")
                                               << creds(fromPath(base(QStringLiteral("user.creds"))));
        QTest::newRow("creds absolute") << (QByteArray("{\"creds\": \"") + QFile::encodeName(base(QStringLiteral("user.creds"))) + "\"}")
                                        << creds(fromPath(base(QStringLiteral("user.creds"))));
        QTest::newRow("creds home") << QByteArray("{\"creds\": \"~/home.creds\"}")
                                    << creds(fromPath(QDir(m_home).filePath(QStringLiteral("home.creds"))));
        QTest::newRow("creds data") << (QByteArray("{\"creds\": \"data:;base64,") + kCredsText.toBase64() + "\"}")
                                    << creds(fromData(kCredsText));
        QTest::newRow("user_jwt literal") << ("{\"user_jwt\": \"" + kJwt.toUtf8() + "\", \"user_seed\": \"" + fakeSeed().toUtf8() + "\"}")
                                          << userJwt(kJwt, fakeSeed());
        QTest::newRow("user_jwt data and seed file")
            << ("{\"user_jwt\": \"data:text/plain;base64," + kJwt.toUtf8().toBase64() + "\", \"user_seed\": \"seed.txt\"}")
            << userJwt(kJwt, fakeSeed());
        QTest::newRow("user_jwt file") << ("{\"user_jwt\": \"$MQTTDOCTOR_TST_BASE/jwt.txt\", \"user_seed\": \"" + fakeSeed().toUtf8()
                                           + "\"}")
                                       << userJwt(kJwt, fakeSeed());
        QTest::newRow("explicit kind") << QByteArray("{\"kind\": \"token\", \"token\": \"x\"}") << token(QStringLiteral("x"));
        QTest::newRow("explicit kind without secret") << QByteArray("{\"kind\": \"token\"}") << token(QString());
        QTest::newRow("explicit user_password without password")
            << QByteArray("{\"kind\": \"user_password\", \"user\": \"bob\"}") << userPassword(QStringLiteral("bob"), QString());
        QTest::newRow("explicit user_jwt without secrets") << QByteArray("{\"kind\": \"user_jwt\"}") << userJwt(QString(), QString());
        QTest::newRow("explicit creds without file") << QByteArray("{\"kind\": \"creds\"}") << creds(FileOrData{});
        QTest::newRow("explicit none") << QByteArray("{\"kind\": \"none\"}") << Credentials{};
        QTest::newRow("comment ignored") << QByteArray("{\"_comment\": \"ops user\", \"token\": \"x\"}") << token(QStringLiteral("x"));
    }

    void auth()
    {
        QFETCH(QByteArray, json);
        QFETCH(Credentials, expected);
        const QJsonObject auth = parse(json);
        for (const char *where : {"auth", "system", "account"}) {
            QJsonObject root;
            if (qstrcmp(where, "account") == 0) {
                if (!expected.isSet())
                    continue; // an account needs credentials (tested in errors)
                root.insert(QStringLiteral("accounts"), QJsonObject{{QStringLiteral("APP"), auth}});
            } else {
                root.insert(QLatin1String(where), auth);
            }
            const auto p = Profile::fromJson(root, m_base);
            QVERIFY2(p.ok(), qPrintable(QLatin1String(where) + QLatin1String(": ") + (p.ok() ? QString() : p.error().toString())));
            const Credentials actual = qstrcmp(where, "auth") == 0 ? p->auth
                : qstrcmp(where, "system") == 0                    ? p->system
                                                                   : p->accounts.value(QStringLiteral("APP"));
            QVERIFY2(actual == expected, qPrintable(describe(actual) + QLatin1String("\n   vs ") + describe(expected)));
        }
    }

    void fileReferences_data()
    {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<FileOrData>("expected");
        QTest::newRow("relative") << QStringLiteral("ca.pem") << fromPath(base(QStringLiteral("ca.pem")));
        QTest::newRow("relative dir") << QStringLiteral("certs/ca.pem") << fromPath(base(QStringLiteral("certs/ca.pem")));
        QTest::newRow("dot relative") << QStringLiteral("./certs/../ca.pem") << fromPath(base(QStringLiteral("ca.pem")));
        QTest::newRow("parent") << QStringLiteral("../home/home.creds") << fromPath(QDir(m_home).filePath(QStringLiteral("home.creds")));
        QTest::newRow("absolute") << base(QStringLiteral("ca.pem")) << fromPath(base(QStringLiteral("ca.pem")));
        QTest::newRow("tilde") << QStringLiteral("~/ca.pem") << fromPath(m_home + QStringLiteral("/ca.pem"));
        QTest::newRow("var") << QStringLiteral("$MQTTDOCTOR_TST_BASE/ca.pem") << fromPath(base(QStringLiteral("ca.pem")));
        QTest::newRow("braced var") << QStringLiteral("${MQTTDOCTOR_TST_BASE}/certs/ca.pem")
                                    << fromPath(base(QStringLiteral("certs/ca.pem")));
        QTest::newRow("file uri") << QUrl::fromLocalFile(base(QStringLiteral("ca.pem"))).toString()
                                  << fromPath(base(QStringLiteral("ca.pem")));
        QTest::newRow("data base64") << QStringLiteral("data:;base64,SGVsbG8=") << fromData("Hello");
        QTest::newRow("data text/plain base64") << QStringLiteral("data:text/plain;base64,SGVsbG8=") << fromData("Hello");
        QTest::newRow("data plain") << QStringLiteral("data:,Hello%20there") << fromData("Hello there");
    }

    void fileReferences()
    {
        QFETCH(QString, reference);
        QFETCH(FileOrData, expected);
        const QJsonObject root{{QStringLiteral("tls"), QJsonObject{{QStringLiteral("ca"), reference}}}};
        const auto p = Profile::fromJson(root, m_base);
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->tls.ca.path, expected.path);
        QCOMPARE(p->tls.ca.data, expected.data);
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("parts"); // every part must be in the message

        auto row = [](const char *tag, const QByteArray &json, QStringList parts) { QTest::newRow(tag) << json << parts; };
        row("token and password", "{\"auth\": {\"user\": \"u\", \"password\": \"hunter2\", \"token\": \"tok\"}}",
            {QStringLiteral("\"auth.user\", \"auth.password\" and \"auth.token\" cannot be used together")});
        row("user and token", "{\"auth\": {\"user\": \"u\", \"token\": \"tok\"}}", {QStringLiteral("\"auth.user\" and \"auth.token\"")});
        row("nkey and creds", "{\"auth\": {\"nkey\": \"a.nk\", \"creds\": \"a.creds\"}}",
            {QStringLiteral("\"auth.nkey\" and \"auth.creds\"")});
        row("creds and jwt", "{\"auth\": {\"creds\": \"a.creds\", \"user_jwt\": \"x\"}}",
            {QStringLiteral("\"auth.creds\" and \"auth.user_jwt\"")});
        row("password without user", "{\"auth\": {\"password\": \"hunter2\"}}", {QStringLiteral("\"auth.password\" needs \"auth.user\"")});
        row("jwt without seed", "{\"auth\": {\"user_jwt\": \"eyJa.eyJb.c2\"}}",
            {QStringLiteral("\"auth.user_jwt\" needs \"auth.user_seed\"")});
        row("seed without jwt", "{\"auth\": {\"user_seed\": \"SUAAAA\"}}", {QStringLiteral("\"auth.user_seed\" needs \"auth.user_jwt\"")});
        row("unknown auth field", "{\"auth\": {\"user\": \"u\", \"passwd\": \"hunter2\"}}",
            {QStringLiteral("unknown field \"auth.passwd\"")});
        row("bad kind", "{\"auth\": {\"kind\": \"oauth\"}}", {QStringLiteral("\"auth.kind\" must be one of")});
        row("kind not string", "{\"auth\": {\"kind\": 3}}", {QStringLiteral("\"auth.kind\"")});
        row("kind mismatch", "{\"auth\": {\"kind\": \"token\", \"user\": \"u\", \"password\": \"hunter2\"}}",
            {QStringLiteral("\"auth.user\" cannot be used with \"auth.kind\" \"token\"")});
        row("kind none with token", "{\"auth\": {\"kind\": \"none\", \"token\": \"hunter2\"}}",
            {QStringLiteral("\"auth.token\""), QStringLiteral("none")});
        row("auth not object", "{\"auth\": \"user:pw\"}", {QStringLiteral("\"auth\" must be an object")});
        row("user not string", "{\"auth\": {\"user\": 5}}", {QStringLiteral("\"auth.user\" must be a string")});
        row("password not string", "{\"auth\": {\"user\": \"u\", \"password\": 1234}}",
            {QStringLiteral("\"auth.password\" must be a string")});
        row("jwt garbage", "{\"auth\": {\"user_jwt\": \"not-a-jwt\", \"user_seed\": \"SUAAA\"}}",
            {QStringLiteral("\"auth.user_jwt\" is neither a user JWT nor a file")});
        row("creds unset var", "{\"auth\": {\"creds\": \"$MQTTDOCTOR_TST_UNSET/u.creds\"}}",
            {QStringLiteral("\"auth.creds\""), QStringLiteral("$MQTTDOCTOR_TST_UNSET"), QStringLiteral("not set")});
        row("creds https", "{\"auth\": {\"creds\": \"https://example.com/u.creds\"}}",
            {QStringLiteral("\"auth.creds\""), QStringLiteral("\"https\""), QStringLiteral("not supported")});
        row("creds nsc", "{\"auth\": {\"creds\": \"nsc://op/acc/user\"}}",
            {QStringLiteral("\"auth.creds\""), QStringLiteral("not supported by NATS MQTT Doctor")});
        row("nkey bad base64", "{\"auth\": {\"nkey\": \"data:;base64,@@@\"}}", {QStringLiteral("\"auth.nkey\""), QStringLiteral("base64")});
        row("nkey data without comma", "{\"auth\": {\"nkey\": \"data:SUABC\"}}", {QStringLiteral("\"auth.nkey\""), QStringLiteral("','")});
        row("creds other user home", "{\"auth\": {\"creds\": \"~bob/u.creds\"}}",
            {QStringLiteral("\"auth.creds\""), QStringLiteral("~bob")});
        row("servers not list", "{\"servers\": 4222}", {QStringLiteral("\"servers\" must be an array")});
        row("servers item not string", "{\"servers\": [\"n1\", 5]}", {QStringLiteral("\"servers[1]\" must be a string")});
        row("servers bad url", "{\"servers\": [\"n1\", \"http://n2\"]}",
            {QStringLiteral("\"servers[1]\""), QStringLiteral("\"http://n2\"")});
        row("servers bad in string", "{\"servers\": \"n1,n2:99999\"}", {QStringLiteral("\"servers\""), QStringLiteral("\"n2:99999\"")});
        row("tls not object", "{\"tls\": \"ca.pem\"}", {QStringLiteral("\"tls\" must be an object")});
        row("tls unknown field", "{\"tls\": {\"crt\": \"c.pem\"}}", {QStringLiteral("unknown field \"tls.crt\"")});
        row("tls ca not string", "{\"tls\": {\"ca\": true}}", {QStringLiteral("\"tls.ca\" must be a string")});
        row("tls key op", "{\"tls\": {\"key\": \"op://vault/key\"}}",
            {QStringLiteral("\"tls.key\""), QStringLiteral("not supported by NATS MQTT Doctor")});
        row("js_domain dotted", "{\"js_domain\": \"a.b\"}", {QStringLiteral("\"js_domain\"")});
        row("js_domain number", "{\"js_domain\": 1}", {QStringLiteral("\"js_domain\" must be a string")});
        row("system conflict", "{\"system\": {\"token\": \"t\", \"creds\": \"c\"}}",
            {QStringLiteral("\"system.token\" and \"system.creds\"")});
        row("system not object", "{\"system\": [\"x\"]}", {QStringLiteral("\"system\" must be an object")});
        row("accounts not object", "{\"accounts\": [\"ACME\"]}", {QStringLiteral("\"accounts\" must be an object")});
        row("account empty", "{\"accounts\": {\"ACME\": {}}}", {QStringLiteral("\"accounts.ACME\" gives no credentials")});
        row("account not object", "{\"accounts\": {\"ACME\": \"acme.creds\"}}", {QStringLiteral("\"accounts.ACME\" must be an object")});
        row("account conflict", "{\"accounts\": {\"ACME\": {\"token\": \"t\", \"nkey\": \"n\"}}}",
            {QStringLiteral("\"accounts.ACME.token\" and \"accounts.ACME.nkey\"")});
        row("account unknown field", "{\"accounts\": {\"ACME\": {\"cred\": \"a.creds\"}}}", {QStringLiteral("\"accounts.ACME.cred\"")});
        row("account empty name", "{\"accounts\": {\"\": {\"token\": \"t\"}}}", {QStringLiteral("\"accounts.\"")});
        row("timeout bad", "{\"timeout\": \"soon\"}", {QStringLiteral("\"timeout\" is \"soon\"")});
        row("allow_changes string", "{\"allow_changes\": \"yes\"}", {QStringLiteral("\"allow_changes\" must be true or false")});
        row("unknown top field", "{\"allow_change\": true}", {QStringLiteral("unknown field \"allow_change\"")});
        row("name not string", "{\"name\": 1}", {QStringLiteral("\"name\" must be a string")});
        row("description not string", "{\"description\": []}", {QStringLiteral("\"description\" must be a string")});
    }

    void errors()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, parts);
        const auto p = Profile::fromJson(parse(json), m_base);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().kind(), Error::Kind::InvalidInput);
        for (const QString &part : parts)
            QVERIFY2(p.error().message().contains(part),
                     qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
        // Secret values never appear in messages.
        for (const char *secret : {"hunter2", "user:pw"})
            QVERIFY2(!p.error().toString().contains(QLatin1String(secret)), qPrintable(p.error().toString()));
    }

    void roundTrip_data()
    {
        QTest::addColumn<Profile>("profile");
        QTest::newRow("full") << fullProfile();
        Profile defaults;
        defaults.servers = {QStringLiteral("nats://127.0.0.1:4222")};
        QTest::newRow("defaults") << defaults;
        for (const Credentials &c :
             {userPassword(QStringLiteral("u"), QString()), token(QStringLiteral("t")), nkey(fromData("seed-bytes\n")),
              creds(fromPath(base(QStringLiteral("user.creds")))), userJwt(QStringLiteral("odd jwt"), QStringLiteral("odd seed"))}) {
            Profile p;
            p.servers = {QStringLiteral("nats://h:4222")};
            p.auth = c;
            QTest::newRow(qPrintable(QStringLiteral("auth ") + Credentials::kindName(c.kind))) << p;
        }
        Profile special;
        special.servers = {QStringLiteral("nats://h:4222")};
        special.tls.ca = fromPath(m_dir.filePath(QStringLiteral("dollar$dir/~ca.pem")));
        special.auth = creds(fromPath(m_dir.filePath(QStringLiteral("file:odd.creds"))));
        QTest::newRow("paths with $ and ~") << special;
    }

    void roundTrip()
    {
        QFETCH(Profile, profile);
        const QJsonObject json = profile.toJson(true);
        const auto back = Profile::fromJson(json, QStringLiteral("/elsewhere"));
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().toString()));
        QVERIFY2(*back == profile, QJsonDocument(json).toJson().constData());
        QCOMPARE(back->toJson(true), json);
    }

    void roundTripThroughFile()
    {
        const Profile profile = fullProfile();
        const QString path = m_dir.filePath(QStringLiteral("written/prod.json"));
        QVERIFY(writeFile(path, QJsonDocument(profile.toJson(true)).toJson()));
        const auto back = Profile::fromFile(path);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().toString()));
        QVERIFY(*back == profile);
    }

    void toJsonWithoutSecrets()
    {
        const Profile profile = fullProfile();
        const QJsonObject json = profile.toJson(false);
        const QByteArray text = QJsonDocument(json).toJson();
        const QList<QByteArray> secrets{"s3cr3t-pw",
                                        "tok-abc-123",
                                        "inline-key-material",
                                        "SUINLINESEEDDATA",
                                        "END NATS USER JWT",
                                        kJwt.toUtf8(),
                                        fakeSeed().toUtf8(),
                                        "data:",
                                        "\"password\":",
                                        "\"token\":",
                                        "user_seed",
                                        "user_jwt\":",
                                        kCredsText.toBase64().left(20)};
        for (const QByteArray &s : secrets)
            QVERIFY2(!text.contains(s),
                     qPrintable(QLatin1String("found ") + QLatin1String(s) + QLatin1String(" in ") + QLatin1String(text)));
        // What is not secret stays: kinds, user names, paths.
        QVERIFY(text.contains("\"admin\""));
        QVERIFY(text.contains(QFile::encodeName(base(QStringLiteral("ca.pem")))));
        QVERIFY(text.contains(QFile::encodeName(base(QStringLiteral("sys.creds")))));
        QVERIFY(text.contains(QFile::encodeName(base(QStringLiteral("user.nk")))));
        QCOMPARE(json.value(QStringLiteral("auth")).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("user_password"));
        QVERIFY(!json.value(QStringLiteral("tls")).toObject().contains(QStringLiteral("key")));
        const QJsonObject accounts = json.value(QStringLiteral("accounts")).toObject();
        QCOMPARE(accounts.value(QStringLiteral("ACME")).toObject(), QJsonObject({{QStringLiteral("kind"), QStringLiteral("creds")}}));
        QCOMPARE(accounts.value(QStringLiteral("JWT")).toObject(), QJsonObject({{QStringLiteral("kind"), QStringLiteral("user_jwt")}}));

        // The secret-free form reads back: same kinds and non-secret fields, secrets empty.
        const auto back = Profile::fromJson(json);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().toString()));
        QCOMPARE(back->servers, profile.servers);
        QCOMPARE(back->auth.kind, Credentials::Kind::UserPassword);
        QCOMPARE(back->auth.user, QStringLiteral("admin"));
        QVERIFY(back->auth.password.isEmpty());
        QCOMPARE(back->system, profile.system);
        QCOMPARE(back->accounts.keys(), profile.accounts.keys());
        for (auto it = profile.accounts.begin(); it != profile.accounts.end(); ++it)
            QCOMPARE(back->accounts.value(it.key()).kind, it->kind);
        QVERIFY(back->accounts.value(QStringLiteral("ACME")).creds.isEmpty());
        QCOMPARE(back->accounts.value(QStringLiteral("KEYS")), profile.accounts.value(QStringLiteral("KEYS")));
        QCOMPARE(back->tls.ca, profile.tls.ca);
        QVERIFY(back->tls.key.isEmpty());
        QCOMPARE(back->timeoutMs, profile.timeoutMs);
        QCOMPARE(back->allowChanges, profile.allowChanges);
        QCOMPARE(back->jsDomain, profile.jsDomain);
    }

    void validate_data()
    {
        QTest::addColumn<ProfileMutator>("mutate");
        QTest::addColumn<Error::Kind>("kind"); // None: valid
        QTest::addColumn<QString>("part");

        QTest::newRow("full profile is valid") << ProfileMutator([](Profile &) {}) << Error::Kind::None << QString();
        QTest::newRow("inline files need no file") << ProfileMutator([](Profile &p) {
            p.tls.ca = fromData("ca");
            p.tls.cert = fromData("cert");
        }) << Error::Kind::None << QString();
        QTest::newRow("no servers") << ProfileMutator([](Profile &p) { p.servers.clear(); }) << Error::Kind::InvalidInput
                                    << QStringLiteral("\"servers\" is empty");
        QTest::newRow("bad server") << ProfileMutator([](Profile &p) { p.servers.append(QStringLiteral("nats://h:99999")); })
                                    << Error::Kind::InvalidInput << QStringLiteral("\"servers[2]\": server URL \"nats://h:99999\"");
        QTest::newRow("zero timeout") << ProfileMutator([](Profile &p) { p.timeoutMs = 0; }) << Error::Kind::InvalidInput
                                      << QStringLiteral("\"timeout\"");
        QTest::newRow("bad domain") << ProfileMutator([](Profile &p) { p.jsDomain = QStringLiteral("a b"); }) << Error::Kind::InvalidInput
                                    << QStringLiteral("\"js_domain\"");
        QTest::newRow("missing ca") << ProfileMutator([this](Profile &p) { p.tls.ca = fromPath(base(QStringLiteral("nope.pem"))); })
                                    << Error::Kind::Io
                                    << QStringLiteral("\"tls.ca\": file \"%1\" does not exist").arg(base(QStringLiteral("nope.pem")));
        QTest::newRow("ca is folder") << ProfileMutator([this](Profile &p) { p.tls.ca = fromPath(base(QStringLiteral("a-folder"))); })
                                      << Error::Kind::Io << QStringLiteral("\"tls.ca\"");
        QTest::newRow("cert without key") << ProfileMutator([](Profile &p) { p.tls.key = {}; }) << Error::Kind::InvalidInput
                                          << QStringLiteral("\"tls.cert\" needs \"tls.key\"");
        QTest::newRow("key without cert") << ProfileMutator([](Profile &p) { p.tls.cert = {}; }) << Error::Kind::InvalidInput
                                          << QStringLiteral("\"tls.key\" needs \"tls.cert\"");
        QTest::newRow("missing system creds") << ProfileMutator([](Profile &p) {
            p.system.creds = fromPath(QStringLiteral("/nonexistent/sys.creds"));
        }) << Error::Kind::Io << QStringLiteral("\"system.creds\"");
        QTest::newRow("missing account nkey") << ProfileMutator([](Profile &p) {
            p.accounts[QStringLiteral("KEYS")].nkeySeed = fromPath(QStringLiteral("/nonexistent/u.nk"));
        }) << Error::Kind::Io << QStringLiteral("\"accounts.KEYS.nkey\"");
        QTest::newRow("account without credentials")
            << ProfileMutator([](Profile &p) { p.accounts.insert(QStringLiteral("EMPTY"), Credentials{}); }) << Error::Kind::InvalidInput
            << QStringLiteral("\"accounts.EMPTY\" gives no credentials");
        QTest::newRow("kind mismatch") << ProfileMutator([](Profile &p) { p.auth.token = QStringLiteral("hunter2"); })
                                       << Error::Kind::InvalidInput
                                       << QStringLiteral("\"auth.token\" is set but the kind is \"user_password\"");
        QTest::newRow("user_password without user") << ProfileMutator([](Profile &p) { p.auth.user.clear(); }) << Error::Kind::InvalidInput
                                                    << QStringLiteral("\"auth.user\" is empty");
        QTest::newRow("kind none with fields") << ProfileMutator([](Profile &p) { p.system.kind = Credentials::Kind::None; })
                                               << Error::Kind::InvalidInput
                                               << QStringLiteral("\"system.creds\" is set but the kind is \"none\"");
    }

    void validate()
    {
        QFETCH(ProfileMutator, mutate);
        QFETCH(Error::Kind, kind);
        QFETCH(QString, part);
        Profile p = fullProfile();
        mutate(p);
        const auto r = p.validate();
        if (kind == Error::Kind::None) {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
            return;
        }
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind(), kind);
        QVERIFY2(r.error().message().contains(part), qPrintable(r.error().message()));
        QVERIFY(!r.error().toString().contains(QLatin1String("hunter2")));
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
