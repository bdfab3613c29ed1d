// Profile files (Profile::fromFile) and file references (FileOrData::load) on disk: paths relative to the
// profile's folder, the file's name, permissions, every error naming the file, and the documented examples.
// Parsing and validating profiles: tst_profile.cpp.
#include <QRegularExpression>

#include "profiletestfiles.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::ProfileTestFiles;

class TestProfileFile final : public QObject, private ProfileFiles
{
    Q_OBJECT

private slots:
    void initTestCase() { setUpFiles(); }
    void cleanupTestCase() { restoreEnvironment(); }

    void fromFileResolvesRelativeToItsFolder()
    {
        const QString path = base(QStringLiteral("cluster-a.json"));
        QVERIFY(writeFile(
            path,
            "{ \"servers\": \"n1:4222\", \"auth\": {\"creds\": \"user.creds\"}, \"tls\": {\"ca\": \"certs/ca.pem\"}, \"timeout\": \"2s\" }"));
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
                                     << QStringList{QStringLiteral("conflict.json\": "),
                                                    QStringLiteral("\"auth.user\" and \"auth.token\"")};
        QTest::newRow("missing creds") << QStringLiteral("nocreds.json") << QByteArray("{\"auth\": {\"creds\": \"gone.creds\"}}")
                                       << Error::Kind::Io
                                       << QStringList{QStringLiteral("nocreds.json\": \"auth.creds\": file"), QStringLiteral("gone.creds")};
        QTest::newRow("missing key") << QStringLiteral("nokey.json")
                                     << QByteArray("{\"tls\": {\"cert\": \"cert.pem\", \"key\": \"gone.pem\"}}") << Error::Kind::Io
                                     << QStringList{QStringLiteral("\"tls.key\""), QStringLiteral("gone.pem")};
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
            QVERIFY2(p.error().message().contains(part),
                     qPrintable(QLatin1String("missing <") + part + QLatin1String("> in: ") + p.error().message()));
    }

    void fromFileUnreadable()
    {
        const QString path = base(QStringLiteral("locked.json"));
        QVERIFY(writeFile(path, "{}"));
        QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
        QFile probe(path);
        const auto p = Profile::fromFile(path);
        if (probe.open(QIODevice::ReadOnly)) {
            // Privileges that read any file (root, as in CI): the profile is read like any other.
            QVERIFY2(p.ok(), qPrintable(p ? QString() : p.error().toString()));
            return;
        }
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
            QVERIFY2(error.error == QJsonParseError::NoError,
                     qPrintable(error.errorString() + QLatin1Char('\n') + QString::fromUtf8(json)));
            const auto p = Profile::fromJson(parsed.object(), m_base);
            QVERIFY2(p.ok(), qPrintable((p.ok() ? QString() : p.error().toString()) + QLatin1Char('\n') + QString::fromUtf8(json)));
            ++count;
        }
        QVERIFY(count >= 2);
    }
};

QTEST_GUILESS_MAIN(TestProfileFile)
#include "tst_profilefile.moc"
