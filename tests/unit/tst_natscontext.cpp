#include <memory>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include "nats/natscontext.h"

using namespace MqttDoctor;

Q_DECLARE_METATYPE(MqttDoctor::Profile)
Q_DECLARE_METATYPE(MqttDoctor::FileOrData)

namespace {

const QString kJwt = QStringLiteral("eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVQUJDIn0.c2lnbmF0dXJl");

QString fakeSeed()
{
    return QStringLiteral("SUA") + QString(55, QLatin1Char('C'));
}

const QByteArray kCredsText = "-----BEGIN NATS USER JWT-----\neyJhbGciOi.eyJzdWIi.c2ln\n------END NATS USER JWT------\n\n"
                              "-----BEGIN USER NKEY SEED-----\nSUAFAKE\n------END USER NKEY SEED------\n";

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(content) == content.size();
}

QJsonObject parse(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s in %s", qPrintable(error.errorString()), json.constData());
    return doc.object();
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

QString dataUri(const QByteArray &content)
{
    return QStringLiteral("data:;base64,") + QString::fromLatin1(content.toBase64());
}

/** A context as `nats context save` writes it: every field present, unused ones empty. */
QJsonObject natscliContext(const QJsonObject &overrides)
{
    QJsonObject o = parse(
        "{ \"description\": \"\", \"url\": \"\", \"socks_proxy\": \"\", \"token\": \"\", \"user\": \"\", \"password\": \"\", \"creds\": \"\", \"nkey\": \"\", \"cert\": \"\", \"key\": \"\", \"ca\": \"\", \"nsc\": \"\", \"jetstream_domain\": \"\", \"jetstream_api_prefix\": \"\", \"jetstream_event_prefix\": \"\", \"inbox_prefix\": \"\", \"user_jwt\": \"\", \"user_seed\": \"\", \"color_scheme\": \"\", \"tls_first\": false, \"windows_cert_store\": \"\", \"windows_cert_match_by\": \"subject\", \"windows_cert_match\": \"\", \"windows_ca_certs_match\": [] }");
    for (auto it = overrides.begin(); it != overrides.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

/** Sets or unsets an environment variable for one test, restoring it afterwards. */
class EnvGuard
{
public:
    explicit EnvGuard(const char *name) : m_name(name), m_wasSet(qEnvironmentVariableIsSet(name)), m_old(qgetenv(name)) {}
    ~EnvGuard()
    {
        if (m_wasSet)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard &) = delete;
    EnvGuard &operator=(const EnvGuard &) = delete;

private:
    const char *m_name;
    bool m_wasSet;
    QByteArray m_old;
};

} // namespace

class TestNatsContext final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_xdg; ///< XDG_CONFIG_HOME, fresh for every test
    QTemporaryDir m_files; ///< credential files and HOME
    std::unique_ptr<EnvGuard> m_xdgGuard, m_homeGuard, m_contextGuard, m_varGuard;

    QString contextDir() const { return m_xdg->filePath(QStringLiteral("nats/context")); }
    QString file(const QString &rel) const { return m_files.filePath(rel); }
    QString home() const { return m_files.filePath(QStringLiteral("home")); }

    void saveContext(const QString &name, const QJsonObject &context)
    {
        QVERIFY(writeFile(contextDir() + QLatin1Char('/') + name + QStringLiteral(".json"), QJsonDocument(context).toJson()));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_files.isValid());
        QVERIFY(QDir().mkpath(home()));
        QVERIFY(writeFile(file(QStringLiteral("user.creds")), kCredsText));
        QVERIFY(writeFile(file(QStringLiteral("jwt.txt")), kJwt.toUtf8() + '\n'));
        QVERIFY(writeFile(file(QStringLiteral("seed.txt")), fakeSeed().toUtf8() + '\n'));
    }

    void init()
    {
        m_xdgGuard = std::make_unique<EnvGuard>("XDG_CONFIG_HOME");
        m_homeGuard = std::make_unique<EnvGuard>("HOME");
        m_contextGuard = std::make_unique<EnvGuard>("NATS_CONTEXT");
        m_varGuard = std::make_unique<EnvGuard>("MQTTDOCTOR_TST_DIR");
        m_xdg = std::make_unique<QTemporaryDir>();
        QVERIFY(m_xdg->isValid());
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_xdg->path()));
        qputenv("HOME", QFile::encodeName(home()));
        qputenv("MQTTDOCTOR_TST_DIR", QFile::encodeName(m_files.path()));
        qunsetenv("NATS_CONTEXT");
        qunsetenv("MQTTDOCTOR_TST_UNSET");
    }

    void cleanup()
    {
        m_xdg.reset();
        m_varGuard.reset();
        m_contextGuard.reset();
        m_homeGuard.reset();
        m_xdgGuard.reset();
    }

    void configDir_data()
    {
        QTest::addColumn<int>("xdg"); // 0 unset, 1 set, 2 set but empty
        QTest::newRow("XDG_CONFIG_HOME set") << 1;
        QTest::newRow("XDG_CONFIG_HOME unset") << 0;
        QTest::newRow("XDG_CONFIG_HOME empty") << 2;
    }

    void configDir()
    {
        QFETCH(int, xdg);
        if (xdg == 0)
            qunsetenv("XDG_CONFIG_HOME");
        else if (xdg == 2)
            qputenv("XDG_CONFIG_HOME", QByteArray());
        const QString expected = xdg == 1 ? m_xdg->path() + QStringLiteral("/nats") : home() + QStringLiteral("/.config/nats");
        QCOMPARE(NatsContext::configDir(), expected);
    }

    void listContexts()
    {
        QCOMPARE(NatsContext::list(), QStringList()); // no folder at all
        saveContext(QStringLiteral("prod"), natscliContext({}));
        saveContext(QStringLiteral("dev"), natscliContext({}));
        saveContext(QStringLiteral("a.b"), natscliContext({}));
        QVERIFY(writeFile(contextDir() + QStringLiteral("/notes.txt"), "x"));
        QVERIFY(QDir().mkpath(contextDir() + QStringLiteral("/folder.json")));
        QCOMPARE(NatsContext::list(), (QStringList{QStringLiteral("a.b"), QStringLiteral("dev"), QStringLiteral("prod")}));
    }

    void listUsesHomeWithoutXdg()
    {
        qunsetenv("XDG_CONFIG_HOME");
        QVERIFY(writeFile(home() + QStringLiteral("/.config/nats/context/homectx.json"), "{\"url\": \"h1\"}"));
        QCOMPARE(NatsContext::list(), QStringList{QStringLiteral("homectx")});
        const auto p = NatsContext::load(QStringLiteral("homectx"));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->servers, QStringList{QStringLiteral("nats://h1:4222")});
    }

    void selected_data()
    {
        QTest::addColumn<QByteArray>("contextTxt"); // null: no file
        QTest::addColumn<QByteArray>("env"); // null: unset
        QTest::addColumn<QString>("expected");
        QTest::newRow("nothing") << QByteArray() << QByteArray() << QString();
        QTest::newRow("context.txt") << QByteArray("prod") << QByteArray() << QStringLiteral("prod");
        QTest::newRow("context.txt newline") << QByteArray("  prod \n") << QByteArray() << QStringLiteral("prod");
        QTest::newRow("context.txt empty") << QByteArray("") << QByteArray() << QString();
        QTest::newRow("env wins") << QByteArray("prod") << QByteArray("dev") << QStringLiteral("dev");
        QTest::newRow("env only") << QByteArray() << QByteArray("dev") << QStringLiteral("dev");
        QTest::newRow("empty env ignored") << QByteArray("prod") << QByteArray("") << QStringLiteral("prod");
    }

    void selected()
    {
        QFETCH(QByteArray, contextTxt);
        QFETCH(QByteArray, env);
        QFETCH(QString, expected);
        if (!contextTxt.isNull())
            QVERIFY(writeFile(m_xdg->filePath(QStringLiteral("nats/context.txt")), contextTxt));
        if (!env.isNull())
            qputenv("NATS_CONTEXT", env);
        QCOMPARE(NatsContext::selected(), expected);
    }

    void loadSelected()
    {
        saveContext(QStringLiteral("prod"), natscliContext({{QStringLiteral("url"), QStringLiteral("nats://p1:4222")}}));
        QVERIFY(writeFile(m_xdg->filePath(QStringLiteral("nats/context.txt")), "prod\n"));
        const auto p = NatsContext::load(NatsContext::selected());
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->name, QStringLiteral("prod"));
        QCOMPARE(p->servers, QStringList{QStringLiteral("nats://p1:4222")});
    }

    void loadByPath()
    {
        const QString path = file(QStringLiteral("elsewhere/staging.json"));
        QVERIFY(writeFile(path, "{\"url\": \"s1:4333\", \"description\": \"staging\", \"name\": \"ignored\"}"));
        for (const QString &given : {path, QDir(QDir::currentPath()).relativeFilePath(path)}) {
            const auto p = NatsContext::load(given);
            QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
            QCOMPARE(p->name, QStringLiteral("staging"));
            QCOMPARE(p->description, QStringLiteral("staging"));
            QCOMPARE(p->servers, QStringList{QStringLiteral("nats://s1:4333")});
        }
    }

    void loadErrors_data()
    {
        QTest::addColumn<QString>("given");
        QTest::addColumn<QByteArray>("content"); // written to the given name's file when not null
        QTest::addColumn<Error::Kind>("kind");
        QTest::addColumn<QStringList>("parts");
        QTest::newRow("empty name") << QString() << QByteArray() << Error::Kind::InvalidInput
                                    << QStringList{QStringLiteral("no natscli context name given")};
        QTest::newRow("unknown name") << QStringLiteral("nope") << QByteArray() << Error::Kind::NotFound
                                      << QStringList{QStringLiteral("\"nope\" not found in")};
        QTest::newRow("missing path") << QStringLiteral("/nonexistent/ctx.json") << QByteArray() << Error::Kind::Io
                                      << QStringList{QStringLiteral("/nonexistent/ctx.json"), QStringLiteral("does not exist")};
        QTest::newRow("bad json") << QStringLiteral("broken") << QByteArray("{\"url\": ") << Error::Kind::InvalidInput
                                  << QStringList{QStringLiteral("broken.json"), QStringLiteral("not valid JSON")};
        QTest::newRow("not object") << QStringLiteral("list") << QByteArray("[]") << Error::Kind::InvalidInput
                                    << QStringList{QStringLiteral("one JSON object")};
        QTest::newRow("nsc context") << QStringLiteral("ngs")
                                     << QByteArray("{\"url\": \"connect.ngs.global\", \"nsc\": \"nsc://synadia/acct/user\"}")
                                     << Error::Kind::InvalidInput
                                     << QStringList{QStringLiteral("context \"ngs\""), QStringLiteral("field \"nsc\""),
                                                    QStringLiteral("is not supported by NATS MQTT Doctor;"),
                                                    QStringLiteral("nsc generate creds")};
        QTest::newRow("nsc creds") << QStringLiteral("ngs2") << QByteArray("{\"creds\": \"nsc://synadia/acct/user\"}")
                                   << Error::Kind::InvalidInput
                                   << QStringList{QStringLiteral("context \"ngs2\""), QStringLiteral("field \"creds\""),
                                                  QStringLiteral("is not supported by NATS MQTT Doctor;")};
    }

    void loadErrors()
    {
        QFETCH(QString, given);
        QFETCH(QByteArray, content);
        QFETCH(Error::Kind, kind);
        QFETCH(QStringList, parts);
        saveContext(QStringLiteral("other"), natscliContext({}));
        if (!content.isNull())
            QVERIFY(writeFile(contextDir() + QLatin1Char('/') + given + QStringLiteral(".json"), content));
        const auto p = NatsContext::load(given);
        QVERIFY(!p.ok());
        QCOMPARE(p.error().kind(), kind);
        for (const QString &part : parts)
            QVERIFY2(p.error().message().contains(part),
                     qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
        if (kind == Error::Kind::NotFound)
            QVERIFY2(p.error().hint().contains(QLatin1String("other")), qPrintable(p.error().hint()));
    }

    void fields_data()
    {
        QTest::addColumn<QJsonObject>("context");
        QTest::addColumn<Profile>("expected");

        auto base = [] {
            Profile p;
            p.name = QStringLiteral("ctx");
            p.servers = {QStringLiteral("nats://127.0.0.1:4222")};
            return p;
        };
        QTest::newRow("natscli defaults") << natscliContext({}) << base();
        QTest::newRow("minimal") << parse("{\"url\": \"demo.nats.io\"}") << [&] {
            Profile p = base();
            p.servers = {QStringLiteral("nats://demo.nats.io:4222")};
            return p;
        }();
        QTest::newRow("url list") << natscliContext({{QStringLiteral("url"), QStringLiteral("nats://n1:4222, tls://n2:4443,n3")}}) << [&] {
            Profile p = base();
            p.servers = {QStringLiteral("nats://n1:4222"), QStringLiteral("tls://n2:4443"), QStringLiteral("nats://n3:4222")};
            return p;
        }();
        QTest::newRow("description and domain") << natscliContext(
            {{QStringLiteral("description"), QStringLiteral("Hub")}, {QStringLiteral("jetstream_domain"), QStringLiteral("hub")}})
                                                << [&] {
                                                       Profile p = base();
                                                       p.description = QStringLiteral("Hub");
                                                       p.jsDomain = QStringLiteral("hub");
                                                       return p;
                                                   }();
        QTest::newRow("user password") << natscliContext(
            {{QStringLiteral("user"), QStringLiteral("alice")}, {QStringLiteral("password"), QStringLiteral("pw")}})
                                       << [&] {
                                              Profile p = base();
                                              p.auth.kind = Credentials::Kind::UserPassword;
                                              p.auth.user = QStringLiteral("alice");
                                              p.auth.password = QStringLiteral("pw");
                                              return p;
                                          }();
        QTest::newRow("token") << natscliContext({{QStringLiteral("token"), QStringLiteral("t0k")}}) << [&] {
            Profile p = base();
            p.auth.kind = Credentials::Kind::Token;
            p.auth.token = QStringLiteral("t0k");
            return p;
        }();
        QTest::newRow("creds tilde") << natscliContext({{QStringLiteral("creds"), QStringLiteral("~/keys/u.creds")}}) << [&] {
            Profile p = base();
            p.auth.kind = Credentials::Kind::Creds;
            p.auth.creds = fromPath(home() + QStringLiteral("/keys/u.creds"));
            return p;
        }();
        QTest::newRow("creds relative stays relative")
            << natscliContext({{QStringLiteral("creds"), QStringLiteral("keys/u.creds")}}) << [&] {
                   Profile p = base();
                   p.auth.kind = Credentials::Kind::Creds;
                   p.auth.creds = fromPath(QStringLiteral("keys/u.creds"));
                   return p;
               }();
        QTest::newRow("creds data uri") << natscliContext({{QStringLiteral("creds"), dataUri(kCredsText)}}) << [&] {
            Profile p = base();
            p.auth.kind = Credentials::Kind::Creds;
            p.auth.creds = fromData(kCredsText);
            return p;
        }();
        QTest::newRow("nkey var") << natscliContext({{QStringLiteral("nkey"), QStringLiteral("$MQTTDOCTOR_TST_DIR/u.nk")}}) << [&] {
            Profile p = base();
            p.auth.kind = Credentials::Kind::NKey;
            p.auth.nkeySeed = fromPath(file(QStringLiteral("u.nk")));
            return p;
        }();
        QTest::newRow("tls files") << natscliContext(
            {{QStringLiteral("cert"), QUrl::fromLocalFile(file(QStringLiteral("c.pem"))).toString()},
             {QStringLiteral("key"), QStringLiteral("${MQTTDOCTOR_TST_DIR}/k.pem")},
             {QStringLiteral("ca"), QStringLiteral("/etc/ssl/ca.pem")}})
                                   << [&] {
                                          Profile p = base();
                                          p.tls.cert = fromPath(file(QStringLiteral("c.pem")));
                                          p.tls.key = fromPath(file(QStringLiteral("k.pem")));
                                          p.tls.ca = fromPath(QStringLiteral("/etc/ssl/ca.pem"));
                                          return p;
                                      }();
        QTest::newRow("tls inline ca") << natscliContext({{QStringLiteral("ca"), QStringLiteral("data:,-----BEGIN%20CERTIFICATE-----")}})
                                       << [&] {
                                              Profile p = base();
                                              p.tls.ca = fromData("-----BEGIN CERTIFICATE-----");
                                              return p;
                                          }();
        QTest::newRow("user_jwt inline") << natscliContext({{QStringLiteral("user_jwt"), kJwt}, {QStringLiteral("user_seed"), fakeSeed()}})
                                         << [&] {
                                                Profile p = base();
                                                p.auth.kind = Credentials::Kind::UserJwt;
                                                p.auth.userJwt = kJwt;
                                                p.auth.userSeed = fakeSeed();
                                                return p;
                                            }();
        QTest::newRow("user_jwt embedded") // nats context save --embed
            << natscliContext(
                   {{QStringLiteral("user_jwt"), dataUri(kJwt.toUtf8())}, {QStringLiteral("user_seed"), dataUri(fakeSeed().toUtf8())}})
            << [&] {
                   Profile p = base();
                   p.auth.kind = Credentials::Kind::UserJwt;
                   p.auth.userJwt = kJwt;
                   p.auth.userSeed = fakeSeed();
                   return p;
               }();
        QTest::newRow("user_jwt files") << natscliContext({{QStringLiteral("user_jwt"), file(QStringLiteral("jwt.txt"))},
                                                           {QStringLiteral("user_seed"), QStringLiteral("$MQTTDOCTOR_TST_DIR/seed.txt")}})
                                        << [&] {
                                               Profile p = base();
                                               p.auth.kind = Credentials::Kind::UserJwt;
                                               p.auth.userJwt = kJwt;
                                               p.auth.userSeed = fakeSeed();
                                               return p;
                                           }();
        QTest::newRow("ignored fields") << natscliContext({{QStringLiteral("color_scheme"), QStringLiteral("dark")},
                                                           {QStringLiteral("inbox_prefix"), QStringLiteral("_INBOX_me")},
                                                           {QStringLiteral("jetstream_event_prefix"), QStringLiteral("x")},
                                                           {QStringLiteral("name"), QStringLiteral("other")},
                                                           {QStringLiteral("some_future_field"), 42}})
                                        << base();
    }

    void fields()
    {
        QFETCH(QJsonObject, context);
        QFETCH(Profile, expected);
        const auto p = NatsContext::fromJson(context, QStringLiteral("ctx"));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->name, expected.name);
        QCOMPARE(p->description, expected.description);
        QCOMPARE(p->servers, expected.servers);
        QCOMPARE(Credentials::kindName(p->auth.kind), Credentials::kindName(expected.auth.kind));
        QCOMPARE(p->auth.user, expected.auth.user);
        QCOMPARE(p->auth.password, expected.auth.password);
        QCOMPARE(p->auth.token, expected.auth.token);
        QCOMPARE(p->auth.creds.path, expected.auth.creds.path);
        QCOMPARE(p->auth.creds.data, expected.auth.creds.data);
        QCOMPARE(p->auth.nkeySeed.path, expected.auth.nkeySeed.path);
        QCOMPARE(p->auth.userJwt, expected.auth.userJwt);
        QCOMPARE(p->auth.userSeed, expected.auth.userSeed);
        QCOMPARE(p->tls.ca.path, expected.tls.ca.path);
        QCOMPARE(p->tls.ca.data, expected.tls.ca.data);
        QCOMPARE(p->tls.cert.path, expected.tls.cert.path);
        QCOMPARE(p->tls.key.path, expected.tls.key.path);
        QCOMPARE(p->jsDomain, expected.jsDomain);
        QVERIFY(*p == expected);
        // An imported context is read-only with the default timeout.
        QVERIFY(!p->allowChanges);
        QCOMPARE(p->timeoutMs, 5000);
        QVERIFY(!p->hasSystem());
    }

    void credsViaDataUriFile()
    {
        const QString uri = dataUri(kCredsText);
        saveContext(QStringLiteral("embedded"),
                    natscliContext({{QStringLiteral("url"), QStringLiteral("nats://e1:4222")}, {QStringLiteral("creds"), uri}}));
        const auto p = NatsContext::load(QStringLiteral("embedded"));
        QVERIFY2(p.ok(), qPrintable(p.ok() ? QString() : p.error().toString()));
        QCOMPARE(p->auth.kind, Credentials::Kind::Creds);
        QVERIFY(p->auth.creds.isInline());
        const auto content = p->auth.creds.load();
        QVERIFY(content.ok());
        QCOMPARE(*content, kCredsText);
        // And the profile keeps it out of its secret-free form.
        QVERIFY(!QJsonDocument(p->toJson(false)).toJson().contains("data:"));
    }

    void errors_data()
    {
        QTest::addColumn<QJsonObject>("context");
        QTest::addColumn<QStringList>("parts");
        auto row = [](const char *tag, const QJsonObject &overrides, QStringList parts) {
            QTest::newRow(tag) << natscliContext(overrides) << parts;
        };
        const QString notSupported = QStringLiteral("is not supported by NATS MQTT Doctor;");
        row("nsc field", {{QStringLiteral("nsc"), QStringLiteral("nsc://op/acc/user")}}, {QStringLiteral("field \"nsc\""), notSupported});
        row("nsc creds", {{QStringLiteral("creds"), QStringLiteral("nsc://op/acc/user")}},
            {QStringLiteral("field \"creds\" uses an nsc:// reference"), QStringLiteral("not supported by NATS MQTT Doctor;")});
        row("op nkey", {{QStringLiteral("nkey"), QStringLiteral("op://vault/nats/seed")}},
            {QStringLiteral("field \"nkey\""), QStringLiteral("1Password"), QStringLiteral("not supported by NATS MQTT Doctor;")});
        row("op password",
            {{QStringLiteral("user"), QStringLiteral("u")}, {QStringLiteral("password"), QStringLiteral("op://vault/nats/pw")}},
            {QStringLiteral("field \"password\""), QStringLiteral("not supported by NATS MQTT Doctor;")});
        row("env token", {{QStringLiteral("token"), QStringLiteral("env://NATS_TOKEN")}},
            {QStringLiteral("field \"token\""), QStringLiteral("env://"), QStringLiteral("not supported by NATS MQTT Doctor;")});
        row("env seed", {{QStringLiteral("user_jwt"), kJwt}, {QStringLiteral("user_seed"), QStringLiteral("env://SEED")}},
            {QStringLiteral("field \"user_seed\""), QStringLiteral("not supported by NATS MQTT Doctor;")});
        row("op ca", {{QStringLiteral("ca"), QStringLiteral("op://vault/ca")}}, {QStringLiteral("field \"ca\"")});
        row("api prefix", {{QStringLiteral("jetstream_api_prefix"), QStringLiteral("$JS.hub.API")}},
            {QStringLiteral("field \"jetstream_api_prefix\""), notSupported, QStringLiteral("jetstream_domain")});
        row("socks proxy", {{QStringLiteral("socks_proxy"), QStringLiteral("socks5://proxy:1080")}},
            {QStringLiteral("field \"socks_proxy\""), notSupported});
        row("tls first", {{QStringLiteral("tls_first"), true}}, {QStringLiteral("field \"tls_first\""), notSupported});
        row("windows store", {{QStringLiteral("windows_cert_store"), QStringLiteral("windowscurrentuser")}},
            {QStringLiteral("field \"windows_cert_store\""), notSupported});
        row("bad url", {{QStringLiteral("url"), QStringLiteral("nats://a:4222,http://b")}},
            {QStringLiteral("field \"url\""), QStringLiteral("\"http://b\""), QStringLiteral("unsupported scheme")});
        row("url with space", {{QStringLiteral("url"), QStringLiteral("nats://a b:4222")}},
            {QStringLiteral("field \"url\""), QStringLiteral("space")});
        row("url not string", {{QStringLiteral("url"), 4222}}, {QStringLiteral("field \"url\" must be a string")});
        row("user and token", {{QStringLiteral("user"), QStringLiteral("u")}, {QStringLiteral("token"), QStringLiteral("t")}},
            {QStringLiteral("\"user\" and \"token\" cannot be used together")});
        row("creds and nkey", {{QStringLiteral("creds"), QStringLiteral("a.creds")}, {QStringLiteral("nkey"), QStringLiteral("a.nk")}},
            {QStringLiteral("\"nkey\" and \"creds\" cannot be used together")});
        row("password without user", {{QStringLiteral("password"), QStringLiteral("pw")}}, {QStringLiteral("\"password\" needs \"user\"")});
        row("jwt without seed", {{QStringLiteral("user_jwt"), kJwt}}, {QStringLiteral("\"user_jwt\" needs \"user_seed\"")});
        row("https ca", {{QStringLiteral("ca"), QStringLiteral("https://example.com/ca.pem")}},
            {QStringLiteral("field \"ca\""), QStringLiteral("\"https\"")});
        row("unset var cert", {{QStringLiteral("cert"), QStringLiteral("$MQTTDOCTOR_TST_UNSET/c.pem")}},
            {QStringLiteral("field \"cert\""), QStringLiteral("$MQTTDOCTOR_TST_UNSET")});
        row("bad data key", {{QStringLiteral("key"), QStringLiteral("data:;base64,%%%")}},
            {QStringLiteral("field \"key\""), QStringLiteral("base64")});
        row("user not string", {{QStringLiteral("user"), 7}}, {QStringLiteral("\"user\" must be a string")});
        row("jwt missing file",
            {{QStringLiteral("user_jwt"), QStringLiteral("/nonexistent/u.jwt")}, {QStringLiteral("user_seed"), fakeSeed()}},
            {QStringLiteral("\"user_jwt\" is neither a user JWT nor a file")});
    }

    void errors()
    {
        QFETCH(QJsonObject, context);
        QFETCH(QStringList, parts);
        const auto p = NatsContext::fromJson(context, QStringLiteral("acme"));
        QVERIFY(!p.ok());
        QCOMPARE(p.error().kind(), Error::Kind::InvalidInput);
        QVERIFY2(p.error().message().startsWith(QLatin1String("context \"acme\": ")), qPrintable(p.error().message()));
        for (const QString &part : parts)
            QVERIFY2(p.error().message().contains(part),
                     qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
        QVERIFY(!p.error().toString().contains(fakeSeed()));
    }

    void resolveReference_data()
    {
        QTest::addColumn<QString>("reference");
        QTest::addColumn<FileOrData>("expected");
        QTest::addColumn<QString>("errorPart"); // empty: must succeed

        auto good = [](const char *tag, const QString &ref, const FileOrData &out) { QTest::newRow(tag) << ref << out << QString(); };
        auto bad = [](const char *tag, const QString &ref, const QString &part) { QTest::newRow(tag) << ref << FileOrData{} << part; };

        good("empty", QString(), FileOrData{});
        good("blank", QStringLiteral("  "), FileOrData{});
        good("absolute", QStringLiteral("/etc/nats/u.creds"), fromPath(QStringLiteral("/etc/nats/u.creds")));
        good("relative", QStringLiteral("keys/u.creds"), fromPath(QStringLiteral("keys/u.creds")));
        good("trimmed", QStringLiteral(" /a/b.creds\n"), fromPath(QStringLiteral("/a/b.creds")));
        good("tilde", QStringLiteral("~"), fromPath(home()));
        good("tilde slash", QStringLiteral("~/u.creds"), fromPath(home() + QStringLiteral("/u.creds")));
        good("tilde deep", QStringLiteral("~/.nkeys/creds/O/A/u.creds"), fromPath(home() + QStringLiteral("/.nkeys/creds/O/A/u.creds")));
        good("var", QStringLiteral("$MQTTDOCTOR_TST_DIR/u.creds"), fromPath(m_files.path() + QStringLiteral("/u.creds")));
        good("braced var", QStringLiteral("${MQTTDOCTOR_TST_DIR}/u.creds"), fromPath(m_files.path() + QStringLiteral("/u.creds")));
        good("var in middle", QStringLiteral("/x/${MQTTDOCTOR_TST_DIR}y"),
             fromPath(QStringLiteral("/x/") + m_files.path() + QStringLiteral("y")));
        good("home var", QStringLiteral("$HOME/u.creds"), fromPath(home() + QStringLiteral("/u.creds")));
        good("lone dollar", QStringLiteral("/a/cost$"), fromPath(QStringLiteral("/a/cost$")));
        good("dollar digit", QStringLiteral("/a/$1.creds"), fromPath(QStringLiteral("/a/$1.creds")));
        good("file uri", QStringLiteral("file:///etc/nats/u.creds"), fromPath(QStringLiteral("/etc/nats/u.creds")));
        good("file uri localhost", QStringLiteral("file://localhost/etc/u.creds"), fromPath(QStringLiteral("/etc/u.creds")));
        good("file uri encoded", QStringLiteral("file:///etc/my%20keys/u.creds"), fromPath(QStringLiteral("/etc/my keys/u.creds")));
        good("file uri no expansion", QStringLiteral("file:///a/$HOME"), fromPath(QStringLiteral("/a/$HOME")));
        good("data base64", QStringLiteral("data:;base64,SGVsbG8sIE5BVFM="), fromData("Hello, NATS"));
        good("data text/plain base64", QStringLiteral("data:text/plain;base64,SGVsbG8sIE5BVFM="), fromData("Hello, NATS"));
        good("data base64 wrapped", QStringLiteral("data:;base64,SGVs\nbG8s IE5B\nVFM="), fromData("Hello, NATS"));
        good("data base64 no padding", QStringLiteral("data:;base64,SGVsbG8"), fromData("Hello"));
        good("data plain", QStringLiteral("data:,Hello"), fromData("Hello"));
        good("data plain escaped", QStringLiteral("data:,Hello%2C%20NATS%0A"), fromData("Hello, NATS\n"));
        good("data text/plain", QStringLiteral("data:text/plain;charset=utf-8,Hi"), fromData("Hi"));
        good("data upper case", QStringLiteral("DATA:;BASE64,SGk="), fromData("Hi"));
        good("data creds", dataUri(kCredsText), fromData(kCredsText));

        bad("nsc", QStringLiteral("nsc://op/acc/user"), QStringLiteral("nsc:// reference, which is not supported by NATS MQTT Doctor;"));
        bad("op", QStringLiteral("op://vault/item/field"),
            QStringLiteral("1Password (op://) reference, which is not supported by NATS MQTT Doctor;"));
        bad("env", QStringLiteral("env://NATS_CREDS"), QStringLiteral("env:// reference, which is not supported by NATS MQTT Doctor;"));
        bad("https", QStringLiteral("https://example.com/u.creds"), QStringLiteral("uses the scheme \"https\", which is not supported"));
        bad("s3", QStringLiteral("s3://bucket/u.creds"), QStringLiteral("\"s3\""));
        bad("bad base64", QStringLiteral("data:;base64,@@@@"), QStringLiteral("not valid base64"));
        bad("non-ascii base64", QStringLiteral("data:;base64,\u00e9t\u00e9"), QStringLiteral("not valid base64"));
        bad("data no comma", QStringLiteral("data:;base64"), QStringLiteral("needs a ','"));
        bad("data empty", QStringLiteral("data:,"), QStringLiteral("holds no content"));
        bad("data base64 empty", QStringLiteral("data:;base64,"), QStringLiteral("holds no content"));
        bad("file other host", QStringLiteral("file://server/share/u.creds"), QStringLiteral("another host (server)"));
        bad("file no path", QStringLiteral("file://"), QStringLiteral("file: URI"));
        bad("unset var", QStringLiteral("$MQTTDOCTOR_TST_UNSET/u.creds"), QStringLiteral("$MQTTDOCTOR_TST_UNSET, which is not set"));
        bad("unset braced var", QStringLiteral("${MQTTDOCTOR_TST_UNSET}"), QStringLiteral("$MQTTDOCTOR_TST_UNSET, which is not set"));
        bad("unclosed brace", QStringLiteral("${MQTTDOCTOR_TST_DIR/u.creds"), QStringLiteral("without its closing"));
        bad("bad var name", QStringLiteral("${1x}/u.creds"), QStringLiteral("invalid variable name"));
        bad("other user home", QStringLiteral("~bob/u.creds"), QStringLiteral("~bob"));
    }

    void resolveReference()
    {
        QFETCH(QString, reference);
        QFETCH(FileOrData, expected);
        QFETCH(QString, errorPart);
        const auto r = NatsContext::resolveReference(reference, QStringLiteral("creds"));
        if (errorPart.isEmpty()) {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().toString()));
            QCOMPARE(r->path, expected.path);
            QCOMPARE(r->data, expected.data);
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
            QVERIFY2(r.error().message().contains(QLatin1String("field \"creds\"")), qPrintable(r.error().message()));
            QVERIFY2(r.error().message().contains(errorPart), qPrintable(r.error().message()));
        }
    }
};

QTEST_GUILESS_MAIN(TestNatsContext)
#include "tst_natscontext.moc"
