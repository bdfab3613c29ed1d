#pragma once
// Shared by tst_profile and tst_profilefile: credentials and file references as the profile code sees them, and a
// fixture with a folder of credential files (the baseDir of relative references) and HOME pointed at a temporary
// folder. A test class derives from QObject and ProfileFiles and calls setUpFiles()/restoreEnvironment() from
// initTestCase()/cleanupTestCase().

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include "nats/profile.h"

Q_DECLARE_METATYPE(MqttDoctor::Credentials)
Q_DECLARE_METATYPE(MqttDoctor::FileOrData)
Q_DECLARE_METATYPE(MqttDoctor::Profile)
Q_DECLARE_METATYPE(MqttDoctor::Error::Kind)

namespace MqttDoctor::Test::ProfileTestFiles {

inline const QString kJwt = QStringLiteral("eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJzdWIiOiJVQUJDIn0.c2lnbmF0dXJl");

inline QString fakeSeed()
{
    return QStringLiteral("SUA") + QString(55, QLatin1Char('B'));
}

inline const QByteArray kCredsText = "-----BEGIN NATS USER JWT-----\neyJhbGciOi.eyJzdWIi.c2ln\n------END NATS USER JWT------\n\n"
                                     "-----BEGIN USER NKEY SEED-----\nSUAFAKE\n------END USER NKEY SEED------\n";

inline QJsonObject parse(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s in %s", qPrintable(error.errorString()), json.constData());
    return doc.object();
}

inline bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(content) == content.size();
}

inline FileOrData fromPath(const QString &path)
{
    FileOrData f;
    f.path = path;
    return f;
}

inline FileOrData fromData(const QByteArray &data)
{
    FileOrData f;
    f.data = data;
    return f;
}

inline Credentials userPassword(const QString &user, const QString &password)
{
    Credentials c;
    c.kind = Credentials::Kind::UserPassword;
    c.user = user;
    c.password = password;
    return c;
}

inline Credentials token(const QString &t)
{
    Credentials c;
    c.kind = Credentials::Kind::Token;
    c.token = t;
    return c;
}

inline Credentials nkey(const FileOrData &seed)
{
    Credentials c;
    c.kind = Credentials::Kind::NKey;
    c.nkeySeed = seed;
    return c;
}

inline Credentials creds(const FileOrData &file)
{
    Credentials c;
    c.kind = Credentials::Kind::Creds;
    c.creds = file;
    return c;
}

inline Credentials userJwt(const QString &jwt, const QString &seed)
{
    Credentials c;
    c.kind = Credentials::Kind::UserJwt;
    c.userJwt = jwt;
    c.userSeed = seed;
    return c;
}

inline QString describe(const Credentials &c)
{
    return QStringLiteral("kind=%1 user=%2 pw=%3 token=%4 nkey=%5|%6 creds=%7|%8 jwt=%9 seed=%10")
        .arg(Credentials::kindName(c.kind), c.user, c.password, c.token, c.nkeySeed.path, QString::fromUtf8(c.nkeySeed.data), c.creds.path,
             QString::fromUtf8(c.creds.data), c.userJwt)
        .arg(c.userSeed);
}

class ProfileFiles
{
protected:
    QTemporaryDir m_dir;
    QString m_base; ///< a folder with credential files, the baseDir of relative references
    QString m_home; ///< HOME during the tests
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

    /** Writes the credential files and points HOME at a temporary folder. From initTestCase. */
    void setUpFiles()
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

    /** From cleanupTestCase. */
    void restoreEnvironment()
    {
        qputenv("HOME", m_savedHome);
        qunsetenv("MQTTDOCTOR_TST_BASE");
    }
};

} // namespace MqttDoctor::Test::ProfileTestFiles
