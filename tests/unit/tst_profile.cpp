#include <functional>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "nats/profile.h"

using namespace MqttDoctor;

using ProfileMutator = std::function<void(Profile &)>;
Q_DECLARE_METATYPE(MqttDoctor::Credentials)
Q_DECLARE_METATYPE(MqttDoctor::FileOrData)
Q_DECLARE_METATYPE(MqttDoctor::Profile)
Q_DECLARE_METATYPE(MqttDoctor::Error::Kind)
Q_DECLARE_METATYPE(ProfileMutator)

namespace {

const QString kJwt = QStringLiteral("eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVQUJDIn0.c2lnbmF0dXJl");

QString fakeSeed()
{
    return QStringLiteral("SUA") + QString(55, QLatin1Char('B'));
}

const QByteArray kCredsText = "-----BEGIN NATS USER JWT-----\neyJhbGciOi.eyJzdWIi.c2ln\n------END NATS USER JWT------\n\n"
                              "-----BEGIN USER NKEY SEED-----\nSUAFAKE\n------END USER NKEY SEED------\n";

QJsonObject parse(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s in %s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(content) == content.size();
}

FileOrData fromPath(const QString &path)
{
    FileOrData f;
    f.path = path;
    return f;
}

FileOrData fromData(const QByteArray &data)
{
    FileOrData f;
    f.data = data;
    return f;
}

Credentials userPassword(const QString &user, const QString &password)
{
    Credentials c;
    c.kind = Credentials::Kind::UserPassword;
    c.user = user;
    c.password = password;
    return c;
}

Credentials token(const QString &t)
{
    Credentials c;
    c.kind = Credentials::Kind::Token;
    c.token = t;
    return c;
}

Credentials nkey(const FileOrData &seed)
{
    Credentials c;
    c.kind = Credentials::Kind::NKey;
    c.nkeySeed = seed;
    return c;
}

Credentials creds(const FileOrData &file)
{
    Credentials c;
    c.kind = Credentials::Kind::Creds;
    c.creds = file;
    return c;
}

Credentials userJwt(const QString &jwt, const QString &seed)
{
    Credentials c;
    c.kind = Credentials::Kind::UserJwt;
    c.userJwt = jwt;
    c.userSeed = seed;
    return c;
}

QString describe(const Credentials &c)
{
    return QStringLiteral("kind=%1 user=%2 pw=%3 token=%4 nkey=%5|%6 creds=%7|%8 jwt=%9 seed=%10")
        .arg(Credentials::kindName(c.kind), c.user, c.password, c.token, c.nkeySeed.path, QString::fromUtf8(c.nkeySeed.data),
             c.creds.path, QString::fromUtf8(c.creds.data), c.userJwt)
        .arg(c.userSeed);
}

} // namespace

class TestProfile final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_base;    ///< a folder with credential files, the baseDir of relative references
    QString m_home;    ///< HOME during the tests
    QByteArray m_savedHome;

    QString base(const QString &rel) const { return QDir(m_base).filePath(rel); }

    /** A profile using every feature, with files that exist. */
    Profile fullProfile() const
    {
        Profile p;
        p.name = QStringLiteral("prod");
        p.description = QStringLiteral("production cluster");
        p.servers = {QStringLiteral("nats://n1.example.com:4222"), QStringLiteral("tls://n2.example.com:4443")};
        p.auth = userPassword(QStringLiteral("admin"), QStringLiteral("s3cr3t-pw"));
        p.tls.ca = fromPath(base(QStringLiteral("ca.pem")));
        p.tls.cert = fromPath(base(QStringLiteral("cert.pem")));
        p.tls.key = fromData("-----BEGIN PRIVATE KEY-----\ninline-key-material\n-----END PRIVATE KEY-----\n");
        p.jsDomain = QStringLiteral("hub");
        p.system = creds(fromPath(base(QStringLiteral("sys.creds"))));
        p.accounts.insert(QStringLiteral("ACME"), creds(fromData(kCredsText)));
        p.accounts.insert(QStringLiteral("TOKENS"), token(QStringLiteral("tok-abc-123")));
        p.accounts.insert(QStringLiteral("KEYS"), nkey(fromPath(base(QStringLiteral("user.nk")))));
        p.accounts.insert(QStringLiteral("INLINEKEY"), nkey(fromData("SUINLINESEEDDATA")));
        p.accounts.insert(QStringLiteral("JWT"), userJwt(kJwt, fakeSeed()));
        p.timeoutMs = 7500;
        p.allowChanges = true;
        return p;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_base = m_dir.filePath(QStringLiteral("profiles"));
        m_home = m_dir.filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(m_home));
        for (const char *name : {"ca.pem", "cert.pem", "key.pem", "sys.creds", "user.creds", "user.nk", "certs/ca.pem"})
            QVERIFY(writeFile(base(QLatin1String(name)), "content of " + QByteArray(name)));
        QVERIFY(writeFile(base(QStringLiteral("jwt.txt")), kJwt.toUtf8() + '\n'));
        QVERIFY(writeFile(base(QStringLiteral("seed.txt")), fakeSeed().toUtf8() + '\n'));
        QVERIFY(writeFile(QDir(m_home).filePath(QStringLiteral("home.creds")), kCredsText));
        QVERIFY(QDir().mkpath(base(QStringLiteral("a-folder"))));
        m_savedHome = qgetenv("HOME");
        qputenv("HOME", QFile::encodeName(m_home));
        qputenv("MQTTDOCTOR_TST_BASE", QFile::encodeName(m_base));
        qunsetenv("MQTTDOCTOR_TST_UNSET");
    }

    void cleanupTestCase()
    {
        qputenv("HOME", m_savedHome);
        qunsetenv("MQTTDOCTOR_TST_BASE");
    }

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
        }
    }

    void auth_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<Credentials>("expected");

        QTest::newRow("empty object") << QByteArray("{}") << Credentials{};
        QTest::newRow("empty strings as natscli writes")
            << QByteArray("{\"user\": \"\", \"password\": \"\", \"token\": \"\", \"creds\": \"\", \"nkey\": \"\", \"user_jwt\": \"\", \"user_seed\": \"\"}")
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
        QTest::newRow("user_jwt file") << ("{\"user_jwt\": \"$MQTTDOCTOR_TST_BASE/jwt.txt\", \"user_seed\": \"" + fakeSeed().toUtf8() + "\"}")
                                       << userJwt(kJwt, fakeSeed());
        QTest::newRow("explicit kind") << QByteArray("{\"kind\": \"token\", \"token\": \"x\"}") << token(QStringLiteral("x"));
        QTest::newRow("explicit kind without secret") << QByteArray("{\"kind\": \"token\"}") << token(QString());
        QTest::newRow("explicit user_password without password") << QByteArray("{\"kind\": \"user_password\", \"user\": \"bob\"}")
                                                                 << userPassword(QStringLiteral("bob"), QString());
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
            const Credentials actual = qstrcmp(where, "auth") == 0     ? p->auth
                                       : qstrcmp(where, "system") == 0 ? p->system
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
        row("nkey and creds", "{\"auth\": {\"nkey\": \"a.nk\", \"creds\": \"a.creds\"}}", {QStringLiteral("\"auth.nkey\" and \"auth.creds\"")});
        row("creds and jwt", "{\"auth\": {\"creds\": \"a.creds\", \"user_jwt\": \"x\"}}", {QStringLiteral("\"auth.creds\" and \"auth.user_jwt\"")});
        row("password without user", "{\"auth\": {\"password\": \"hunter2\"}}", {QStringLiteral("\"auth.password\" needs \"auth.user\"")});
        row("jwt without seed", "{\"auth\": {\"user_jwt\": \"eyJa.eyJb.c2\"}}", {QStringLiteral("\"auth.user_jwt\" needs \"auth.user_seed\"")});
        row("seed without jwt", "{\"auth\": {\"user_seed\": \"SUAAAA\"}}", {QStringLiteral("\"auth.user_seed\" needs \"auth.user_jwt\"")});
        row("unknown auth field", "{\"auth\": {\"user\": \"u\", \"passwd\": \"hunter2\"}}", {QStringLiteral("unknown field \"auth.passwd\"")});
        row("bad kind", "{\"auth\": {\"kind\": \"oauth\"}}", {QStringLiteral("\"auth.kind\" must be one of")});
        row("kind not string", "{\"auth\": {\"kind\": 3}}", {QStringLiteral("\"auth.kind\"")});
        row("kind mismatch", "{\"auth\": {\"kind\": \"token\", \"user\": \"u\", \"password\": \"hunter2\"}}",
            {QStringLiteral("\"auth.user\" cannot be used with \"auth.kind\" \"token\"")});
        row("kind none with token", "{\"auth\": {\"kind\": \"none\", \"token\": \"hunter2\"}}", {QStringLiteral("\"auth.token\""), QStringLiteral("none")});
        row("auth not object", "{\"auth\": \"user:pw\"}", {QStringLiteral("\"auth\" must be an object")});
        row("user not string", "{\"auth\": {\"user\": 5}}", {QStringLiteral("\"auth.user\" must be a string")});
        row("password not string", "{\"auth\": {\"user\": \"u\", \"password\": 1234}}", {QStringLiteral("\"auth.password\" must be a string")});
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
        row("creds other user home", "{\"auth\": {\"creds\": \"~bob/u.creds\"}}", {QStringLiteral("\"auth.creds\""), QStringLiteral("~bob")});
        row("servers not list", "{\"servers\": 4222}", {QStringLiteral("\"servers\" must be an array")});
        row("servers item not string", "{\"servers\": [\"n1\", 5]}", {QStringLiteral("\"servers[1]\" must be a string")});
        row("servers bad url", "{\"servers\": [\"n1\", \"http://n2\"]}", {QStringLiteral("\"servers[1]\""), QStringLiteral("\"http://n2\"")});
        row("servers bad in string", "{\"servers\": \"n1,n2:99999\"}", {QStringLiteral("\"servers\""), QStringLiteral("\"n2:99999\"")});
        row("tls not object", "{\"tls\": \"ca.pem\"}", {QStringLiteral("\"tls\" must be an object")});
        row("tls unknown field", "{\"tls\": {\"crt\": \"c.pem\"}}", {QStringLiteral("unknown field \"tls.crt\"")});
        row("tls ca not string", "{\"tls\": {\"ca\": true}}", {QStringLiteral("\"tls.ca\" must be a string")});
        row("tls key op", "{\"tls\": {\"key\": \"op://vault/key\"}}",
            {QStringLiteral("\"tls.key\""), QStringLiteral("not supported by NATS MQTT Doctor")});
        row("js_domain dotted", "{\"js_domain\": \"a.b\"}", {QStringLiteral("\"js_domain\"")});
        row("js_domain number", "{\"js_domain\": 1}", {QStringLiteral("\"js_domain\" must be a string")});
        row("system conflict", "{\"system\": {\"token\": \"t\", \"creds\": \"c\"}}", {QStringLiteral("\"system.token\" and \"system.creds\"")});
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
            QVERIFY2(p.error().message().contains(part), qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
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
        for (const Credentials &c : {userPassword(QStringLiteral("u"), QString()), token(QStringLiteral("t")),
                                     nkey(fromData("seed-bytes\n")), creds(fromPath(base(QStringLiteral("user.creds")))),
                                     userJwt(QStringLiteral("odd jwt"), QStringLiteral("odd seed"))}) {
            Profile p;
            p.servers = {QStringLiteral("nats://h:4222")};
            p.auth = c;
            QTest::newRow(qPrintable(QStringLiteral("auth ") + Credentials::kindName(c.kind))) << p;
        }
        Profile special;
        special.servers = {QStringLiteral("nats://h:4222")};
        special.tls.ca = fromPath(m_dir.filePath(QStringLiteral("dollar$dir/~ca.pem")));
        special.auth = creds(fromPath(QStringLiteral("/tmp/file:odd.creds")));
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
        const QList<QByteArray> secrets{"s3cr3t-pw", "tok-abc-123", "inline-key-material", "SUINLINESEEDDATA", "END NATS USER JWT",
                                        kJwt.toUtf8(), fakeSeed().toUtf8(), "data:", "\"password\":", "\"token\":", "user_seed",
                                        "user_jwt\":", kCredsText.toBase64().left(20)};
        for (const QByteArray &s : secrets)
            QVERIFY2(!text.contains(s), qPrintable(QLatin1String("found ") + QLatin1String(s) + QLatin1String(" in ") + QLatin1String(text)));
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
        QTest::newRow("bad domain") << ProfileMutator([](Profile &p) { p.jsDomain = QStringLiteral("a b"); })
                                    << Error::Kind::InvalidInput << QStringLiteral("\"js_domain\"");
        QTest::newRow("missing ca") << ProfileMutator([this](Profile &p) { p.tls.ca = fromPath(base(QStringLiteral("nope.pem"))); })
                                    << Error::Kind::Io << QStringLiteral("\"tls.ca\": file \"%1\" does not exist").arg(base(QStringLiteral("nope.pem")));
        QTest::newRow("ca is folder") << ProfileMutator([this](Profile &p) { p.tls.ca = fromPath(base(QStringLiteral("a-folder"))); })
                                      << Error::Kind::Io << QStringLiteral("\"tls.ca\"");
        QTest::newRow("cert without key") << ProfileMutator([](Profile &p) { p.tls.key = {}; }) << Error::Kind::InvalidInput
                                          << QStringLiteral("\"tls.cert\" needs \"tls.key\"");
        QTest::newRow("key without cert") << ProfileMutator([](Profile &p) { p.tls.cert = {}; }) << Error::Kind::InvalidInput
                                          << QStringLiteral("\"tls.key\" needs \"tls.cert\"");
        QTest::newRow("missing system creds")
            << ProfileMutator([](Profile &p) { p.system.creds = fromPath(QStringLiteral("/nonexistent/sys.creds")); })
            << Error::Kind::Io << QStringLiteral("\"system.creds\"");
        QTest::newRow("missing account nkey")
            << ProfileMutator([](Profile &p) { p.accounts[QStringLiteral("KEYS")].nkeySeed = fromPath(QStringLiteral("/nonexistent/u.nk")); })
            << Error::Kind::Io << QStringLiteral("\"accounts.KEYS.nkey\"");
        QTest::newRow("account without credentials")
            << ProfileMutator([](Profile &p) { p.accounts.insert(QStringLiteral("EMPTY"), Credentials{}); })
            << Error::Kind::InvalidInput << QStringLiteral("\"accounts.EMPTY\" gives no credentials");
        QTest::newRow("kind mismatch") << ProfileMutator([](Profile &p) { p.auth.token = QStringLiteral("hunter2"); })
                                       << Error::Kind::InvalidInput << QStringLiteral("\"auth.token\" is set but the kind is \"user_password\"");
        QTest::newRow("user_password without user") << ProfileMutator([](Profile &p) { p.auth.user.clear(); })
                                                     << Error::Kind::InvalidInput << QStringLiteral("\"auth.user\" is empty");
        QTest::newRow("kind none with fields") << ProfileMutator([](Profile &p) { p.system.kind = Credentials::Kind::None; })
                                               << Error::Kind::InvalidInput << QStringLiteral("\"system.creds\" is set but the kind is \"none\"");
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

    void fromFileResolvesRelativeToItsFolder()
    {
        const QString path = base(QStringLiteral("cluster-a.json"));
        QVERIFY(writeFile(path, "{ \"servers\": \"n1:4222\", \"auth\": {\"creds\": \"user.creds\"}, \"tls\": {\"ca\": \"certs/ca.pem\"}, \"timeout\": \"2s\" }"));
        // The working directory must not matter.
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_home));
        const auto p = Profile::fromFile(path);
        QVERIFY(QDir::setCurrent(cwd));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->name, QStringLiteral("cluster-a")); // no "name": the file's base name
        QCOMPARE(p->auth.creds.path, base(QStringLiteral("user.creds")));
        QCOMPARE(p->tls.ca.path, base(QStringLiteral("certs/ca.pem")));
        QCOMPARE(p->timeoutMs, 2000);
    }

    void fromFileKeepsGivenName()
    {
        const QString path = base(QStringLiteral("named.json"));
        QVERIFY(writeFile(path, "{\"name\": \"Production\", \"servers\": [\"n1\"]}"));
        const auto p = Profile::fromFile(path);
        QVERIFY(p.ok());
        QCOMPARE(p->name, QStringLiteral("Production"));
    }

    void fromFileAcceptsGroupReadableSecrets()
    {
        const QString path = base(QStringLiteral("shared.json"));
        QVERIFY(writeFile(path, "{\"auth\": {\"user\": \"u\", \"password\": \"p\"}}"));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const auto p = Profile::fromFile(path);
        QVERIFY(p.ok());
        QCOMPARE(p->auth.password, QStringLiteral("p"));
    }

    void fromFileErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content"); // empty: do not create the file
        QTest::addColumn<Error::Kind>("kind");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("missing") << QStringLiteral("missing.json") << QByteArray() << Error::Kind::Io
                                 << QStringList{QStringLiteral("missing.json\": the file does not exist")};
        QTest::newRow("folder") << QStringLiteral("a-folder") << QByteArray() << Error::Kind::Io
                                << QStringList{QStringLiteral("a-folder\""), QStringLiteral("folder")};
        QTest::newRow("bad json") << QStringLiteral("bad.json") << QByteArray("{\n  \"servers\": [\"n1\",\n}") << Error::Kind::InvalidInput
                                  << QStringList{QStringLiteral("bad.json\": not valid JSON"), QStringLiteral("line 3")};
        QTest::newRow("array") << QStringLiteral("array.json") << QByteArray("[1, 2]") << Error::Kind::InvalidInput
                               << QStringList{QStringLiteral("one JSON object")};
        QTest::newRow("field error") << QStringLiteral("conflict.json") << QByteArray("{\"auth\": {\"token\": \"t\", \"user\": \"u\"}}")
                                     << Error::Kind::InvalidInput
                                     << QStringList{QStringLiteral("conflict.json\": "), QStringLiteral("\"auth.user\" and \"auth.token\"")};
        QTest::newRow("missing creds") << QStringLiteral("nocreds.json") << QByteArray("{\"auth\": {\"creds\": \"gone.creds\"}}")
                                       << Error::Kind::Io
                                       << QStringList{QStringLiteral("nocreds.json\": \"auth.creds\": file"), QStringLiteral("gone.creds")};
        QTest::newRow("missing key") << QStringLiteral("nokey.json") << QByteArray("{\"tls\": {\"cert\": \"cert.pem\", \"key\": \"gone.pem\"}}")
                                     << Error::Kind::Io << QStringList{QStringLiteral("\"tls.key\""), QStringLiteral("gone.pem")};
    }

    void fromFileErrors()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(Error::Kind, kind);
        QFETCH(QStringList, parts);
        const QString path = base(file);
        if (!content.isEmpty())
            QVERIFY(writeFile(path, content));
        const auto p = Profile::fromFile(path);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().kind(), kind);
        QVERIFY2(p.error().message().startsWith(QStringLiteral("profile \"") + path), qPrintable(p.error().message()));
        for (const QString &part : parts)
            QVERIFY2(p.error().message().contains(part), qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
    }

    void fromFileUnreadable()
    {
        const QString path = base(QStringLiteral("locked.json"));
        QVERIFY(writeFile(path, "{}"));
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        QFile probe(path);
        if (probe.open(QIODevice::ReadOnly))
            QSKIP("running with privileges that read any file (root)");
        const auto p = Profile::fromFile(path);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().kind(), Error::Kind::Io);
        QVERIFY(p.error().message().contains(QLatin1String("locked.json")));
    }

    void fileOrDataLoad_data()
    {
        QTest::addColumn<FileOrData>("source");
        QTest::addColumn<QByteArray>("expected");
        QTest::addColumn<Error::Kind>("kind");
        QTest::newRow("inline") << fromData("abc") << QByteArray("abc") << Error::Kind::None;
        QTest::newRow("file") << fromPath(base(QStringLiteral("ca.pem"))) << QByteArray("content of ca.pem") << Error::Kind::None;
        QTest::newRow("missing file") << fromPath(base(QStringLiteral("nope"))) << QByteArray() << Error::Kind::Io;
        QTest::newRow("folder") << fromPath(base(QStringLiteral("a-folder"))) << QByteArray() << Error::Kind::Io;
        QTest::newRow("empty") << FileOrData{} << QByteArray() << Error::Kind::InvalidInput;
    }

    void fileOrDataLoad()
    {
        QFETCH(FileOrData, source);
        QFETCH(QByteArray, expected);
        QFETCH(Error::Kind, kind);
        const auto r = source.load();
        if (kind == Error::Kind::None) {
            QVERIFY(r.ok());
            QCOMPARE(*r, expected);
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().kind(), kind);
            if (!source.path.isEmpty())
                QVERIFY2(r.error().message().contains(source.path), qPrintable(r.error().message()));
        }
    }

    void documentedExampleParses()
    {
        QString source = qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR");
        if (source.isEmpty())
            source = QFileInfo(QStringLiteral(__FILE__)).absoluteDir().filePath(QStringLiteral("../.."));
        QFile doc(QDir(source).filePath(QStringLiteral("docs/profile.md")));
        QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.fileName()));
        const QString text = QString::fromUtf8(doc.readAll());
        // Every ```json block in the document is a complete, valid profile.
        const QRegularExpression block(QStringLiteral("```json\\n(.*?)```"), QRegularExpression::DotMatchesEverythingOption);
        int count = 0;
        for (auto it = block.globalMatch(text); it.hasNext();) {
            const QByteArray json = it.next().captured(1).toUtf8();
            QJsonParseError error;
            const QJsonDocument parsed = QJsonDocument::fromJson(json, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString() + QLatin1Char('\n') + QString::fromUtf8(json)));
            const auto p = Profile::fromJson(parsed.object(), m_base);
            QVERIFY2(p.ok(), qPrintable((p.ok() ? QString() : p.error().toString()) + QLatin1Char('\n') + QString::fromUtf8(json)));
            ++count;
        }
        QVERIFY(count >= 2);
    }
};

QTEST_GUILESS_MAIN(TestProfile)
#include "tst_profile.moc"
