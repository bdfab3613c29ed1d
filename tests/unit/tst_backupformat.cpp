// The backup file format, its reader's validation, the atomic writer and the audit log's redaction:
// pure file work, no server.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "nats/natsheaders.h"
#include "nats/profile.h"
#include "repair/auditlog.h"
#include "repair/backupfile.h"
#include "repair/backupformat.h"

using namespace MqttDoctor;

namespace {

BackupHeader sampleHeader()
{
    BackupHeader h;
    h.stream = QStringLiteral("$MQTT_sess");
    h.account = QStringLiteral("ACME");
    h.created = QStringLiteral("2026-12-02T15:50:37.344798216Z");
    h.toolVersion = QStringLiteral("0.1.0");
    h.config = QJsonObject{{QStringLiteral("name"), h.stream},
                           {QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.>")}},
                           {QStringLiteral("retention"), QStringLiteral("limits")},
                           {QStringLiteral("max_msgs_per_subject"), 1},
                           {QStringLiteral("duplicate_window"), qint64(120000000000)},
                           {QStringLiteral("some_future_field"), QJsonObject{{QStringLiteral("x"), 1}}}};
    h.state = QJsonObject{{QStringLiteral("messages"), 2}};
    h.consumers = {QJsonObject{{QStringLiteral("name"), QStringLiteral("d1")},
                               {QStringLiteral("config"), QJsonObject{{QStringLiteral("durable_name"), QStringLiteral("d1")}}}}};
    return h;
}

BackupMessage message(quint64 seq, const QByteArray &data, const QByteArray &headers = {})
{
    return BackupMessage{QStringLiteral("$MQTT.sess.PNfq787e"), seq, 1764690637344798216LL + qint64(seq), headers, data};
}

QByteArray fileText(const QList<BackupMessage> &messages, bool withTrailer = true)
{
    QByteArray text = BackupFormat::encodeLine(sampleHeader().toJson());
    BackupTrailer t;
    for (const BackupMessage &m : messages) {
        text += BackupFormat::encodeLine(m.toJson());
        ++t.messages;
        t.bytes += quint64(m.size());
    }
    if (withTrailer)
        text += BackupFormat::encodeLine(t.toJson());
    return text;
}

QString writeFile(const QTemporaryDir &dir, const QByteArray &text, const QString &name = QStringLiteral("b.jsonl"))
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(text);
    return path;
}

} // namespace

class TestBackupFormat : public QObject
{
    Q_OBJECT

private slots:
    void timeRoundTrip_data()
    {
        QTest::addColumn<qint64>("ns");
        QTest::newRow("ns") << qint64(1764690637344798216LL);
        QTest::newRow("whole second") << qint64(1764690637000000000LL);
        QTest::newRow("epoch") << qint64(0);
        QTest::newRow("one ns") << qint64(1);
    }
    void timeRoundTrip()
    {
        QFETCH(qint64, ns);
        const QString text = BackupFormat::formatTime(ns);
        QVERIFY2(text.endsWith(QLatin1Char('Z')) && text.size() == 30, qPrintable(text));
        QCOMPARE(BackupFormat::parseTime(text), std::optional<qint64>(ns));
    }

    void timeParsing()
    {
        QCOMPARE(BackupFormat::formatTime(1764690637344798216LL), QStringLiteral("2025-12-02T15:50:37.344798216Z"));
        QCOMPARE(BackupFormat::parseTime(QStringLiteral("2026-12-02T15:50:37.5Z")),
                 std::optional<qint64>(BackupFormat::parseTime(QStringLiteral("2026-12-02T15:50:37Z")).value() + 500000000));
        QVERIFY(!BackupFormat::parseTime(QStringLiteral("yesterday")));
        QVERIFY(!BackupFormat::parseTime(QStringLiteral("2026-12-02T15:50:37.1234567891Z")));
    }

    void headerRoundTripKeepsUnknownFields()
    {
        const BackupHeader h = sampleHeader();
        auto line = BackupFormat::parseLine(BackupFormat::encodeLine(h.toJson()).chopped(1));
        QVERIFY2(line, qPrintable(line ? QString() : line.error().message()));
        QCOMPARE(line->kind, BackupFormat::Line::Kind::Header);
        QCOMPARE(line->header.config, h.config);
        QCOMPARE(line->header.config.value(QLatin1String("duplicate_window")).toInteger(), qint64(120000000000));
        QCOMPARE(line->header.consumers, h.consumers);
        QCOMPARE(line->header.account, QStringLiteral("ACME"));
        QCOMPARE(line->header.maxMsgsPerSubject(), qint64(1));
        QVERIFY(!line->header.isInterestRetention());
    }

    void messageRoundTripIsExact()
    {
        QByteArray binary;
        for (int i = 0; i < 256; ++i)
            binary.append(char(i));
        const QByteArray block("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:1\r\nX-A: b\r\n\r\n");
        const BackupMessage m = message(42, binary, block);
        const QByteArray encoded = BackupFormat::encodeLine(m.toJson());
        QVERIFY(encoded.endsWith('\n') && encoded.count('\n') == 1);
        auto line = BackupFormat::parseLine(encoded.chopped(1));
        QVERIFY(line);
        QCOMPARE(line->kind, BackupFormat::Line::Kind::Message);
        QCOMPARE(line->message.data, binary);
        QCOMPARE(line->message.headers, block);
        QCOMPARE(line->message.seq, quint64(42));
        QCOMPARE(line->message.timeNs, m.timeNs);
        QCOMPARE(line->message.subject, m.subject);
        // No headers: no "hdrs" key, and an empty block reads back empty.
        const QJsonObject plain = message(1, "x").toJson();
        QVERIFY(!plain.contains(QLatin1String("hdrs")));
        QVERIFY(BackupFormat::parseLine(BackupFormat::encodeLine(plain).chopped(1))->message.headers.isEmpty());
    }

    void badLines_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("expected");
        QTest::newRow("garbage") << QByteArray("{\"seq\":1,\"subj") << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1,2]") << QStringLiteral("not a JSON object");
        QTest::newRow("no subject") << QByteArray(R"({"seq":1,"time":"2026-12-02T15:50:37Z","data":""})") << QStringLiteral("subject");
        QTest::newRow("bad seq") << QByteArray(R"({"seq":-3,"subject":"a","time":"2026-12-02T15:50:37Z","data":""})")
                                 << QStringLiteral("sequence");
        QTest::newRow("bad time") << QByteArray(R"({"seq":1,"subject":"a","time":"noon","data":""})") << QStringLiteral("time");
        QTest::newRow("bad base64") << QByteArray(R"({"seq":1,"subject":"a","time":"2026-12-02T15:50:37Z","data":"!!!"})")
                                    << QStringLiteral("base64");
        QTest::newRow("bad header block") << QByteArray(
            R"({"seq":1,"subject":"a","time":"2026-12-02T15:50:37Z","data":"","hdrs":"aGVsbG8="})")
                                          << QStringLiteral("header block");
        QTest::newRow("bad end") << QByteArray(R"({"end":true,"messages":"x"})") << QStringLiteral("end line");
        QTest::newRow("foreign header") << QByteArray(R"({"backup":"something-else","format":1})")
                                        << QStringLiteral("not a nats-mqtt-doctor backup");
        QTest::newRow("future format") << QByteArray(R"({"backup":"nats-mqtt-doctor","format":99})") << QStringLiteral("format 99");
    }
    void badLines()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, expected);
        auto parsed = BackupFormat::parseLine(line);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().message().contains(expected), qPrintable(parsed.error().message()));
    }

    void readerAcceptsAValidFile()
    {
        QTemporaryDir dir;
        const QList<BackupMessage> messages{message(3, "a", "NATS/1.0\r\nNmqtt-Pub:1\r\n\r\n"), message(7, "bb"), message(8, "")};
        const QString path = writeFile(dir, fileText(messages));
        QList<BackupMessage> got;
        QList<qint64> lines;
        auto r = BackupFileReader::read(path, [&](BackupMessage &&m, qint64 n) {
            got.append(m);
            lines.append(n);
            return true;
        });
        QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
        QCOMPARE(r->trailer.messages, quint64(3));
        QCOMPARE(r->trailer.bytes, quint64(messages[0].size() + 2 + 0));
        QCOMPARE(r->header.stream, QStringLiteral("$MQTT_sess"));
        QCOMPARE(got.size(), 3);
        QCOMPARE(got[0].headers, messages[0].headers);
        QCOMPARE(lines, (QList<qint64>{2, 3, 4}));
        QCOMPARE(r->lines, qint64(5));
    }

    void readerRefusesDamagedFiles_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        const QList<BackupMessage> two{message(1, "a"), message(2, "b")};
        const QByteArray good = fileText(two);
        const QList<QByteArray> lines = good.split('\n'); // header, m1, m2, end, ""
        QTest::newRow("no end line") << fileText(two, false) << QStringLiteral("line 4: the end line is missing");
        QTest::newRow("cut mid-line") << good.left(good.size() - 10) << QStringLiteral("line 4: the line is cut off");
        QTest::newRow("garbage line") << (lines[0] + "\n" + lines[1] + "\nthis is not json\n" + lines[3] + "\n")
                                      << QStringLiteral("line 3: not JSON");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("line 1: the file is empty");
        QTest::newRow("no header") << (lines[1] + "\n" + lines[3] + "\n")
                                   << QStringLiteral("line 1: the first line must be the backup header");
        QTest::newRow("sequence goes back") << (lines[0] + "\n" + lines[2] + "\n" + lines[1] + "\n" + lines[3] + "\n")
                                            << QStringLiteral("line 3: sequence 1 does not follow 2");
        QTest::newRow("line dropped") << (lines[0] + "\n" + lines[1] + "\n" + lines[3] + "\n")
                                      << QStringLiteral("line 3: the end line counts 2");
        QTest::newRow("text after end") << (good + lines[1] + "\n") << QStringLiteral("line 5: text after the end line");
        QTest::newRow("second header") << (lines[0] + "\n" + lines[0] + "\n") << QStringLiteral("line 2: a second header");
    }
    void readerRefusesDamagedFiles()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = writeFile(dir, text);
        int handled = 0;
        auto r = BackupFileReader::read(path, [&](BackupMessage &&, qint64) {
            ++handled;
            return true;
        });
        QVERIFY(!r);
        QVERIFY2(r.error().message().contains(expected), qPrintable(r.error().message()));
        QVERIFY2(r.error().message().contains(QStringLiteral("b.jsonl")), qPrintable(r.error().message()));
        QCOMPARE(r.error().kind(), Error::Kind::InvalidInput);
    }

    void readerMissingFile()
    {
        auto r = BackupFileReader::read(QStringLiteral("/nonexistent-folder-for-test/none.jsonl"));
        QVERIFY(!r);
        QCOMPARE(r.error().kind(), Error::Kind::Io);
    }

    void atomicWriterCommitsOrLeavesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.jsonl"));
        {
            AtomicFileWriter w(path);
            QVERIFY(w.open(false));
            QVERIFY(w.write("partial\n"));
            QVERIFY(QFile::exists(w.temporaryPath()));
            QVERIFY(!QFile::exists(path));
        } // destroyed without commit
        QVERIFY(!QFile::exists(path));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 0);

        AtomicFileWriter w(path);
        QVERIFY(w.open(false));
        QVERIFY(w.write("whole\n"));
        QVERIFY(w.commit());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("whole\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);

        AtomicFileWriter again(path);
        auto refused = again.open(false);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message().contains(QStringLiteral("already exists")), qPrintable(refused.error().message()));
        AtomicFileWriter replace(path);
        QVERIFY(replace.open(true));
        QVERIFY(replace.write("new\n"));
        QVERIFY(replace.commit());
        QFile g(path);
        QVERIFY(g.open(QIODevice::ReadOnly));
        QCOMPARE(g.readAll(), QByteArray("new\n"));

        AtomicFileWriter nowhere(dir.filePath(QStringLiteral("missing/sub/out.jsonl")));
        auto bad = nowhere.open(false);
        QVERIFY(!bad);
        QCOMPARE(bad.error().kind(), Error::Kind::Io);
    }

    void strippedHeaders()
    {
        QVERIFY(BackupFormat::isStrippedHeader(QStringLiteral("Nats-Expected-Last-Subject-Sequence")));
        QVERIFY(BackupFormat::isStrippedHeader(QStringLiteral("nats-expected-stream")));
        QVERIFY(BackupFormat::isStrippedHeader(QStringLiteral("Nats-Msg-Id")));
        QVERIFY(BackupFormat::isStrippedHeader(QStringLiteral("Nats-Rollup")));
        QVERIFY(!BackupFormat::isStrippedHeader(QStringLiteral("Nmqtt-Pub")));
        QVERIFY(!BackupFormat::isStrippedHeader(QStringLiteral("Nmqtt-RTopic")));
        auto h = NatsHeaders::parse("NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:4\r\nNmqtt-Pub:1\r\nNats-Msg-Id:x\r\n\r\n");
        QVERIFY(h);
        const NatsHeaders kept = BackupFormat::restorableHeaders(*h);
        QCOMPARE(kept.entries().size(), 1);
        QCOMPARE(kept.value(QStringLiteral("Nmqtt-Pub")), QStringLiteral("1"));
    }

    void fingerprintIgnoresStrippedHeadersAndSpelling()
    {
        const QString s = QStringLiteral("$MQTT.sess.PNfq787e");
        const QByteArray fp = BackupFormat::fingerprint(s, {}, "{}");
        QCOMPARE(BackupFormat::fingerprint(s, "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:1\r\n\r\n", "{}"), fp);
        QCOMPARE(BackupFormat::fingerprint(s, "NATS/1.0\r\n\r\n\r\n", "{}"), fp);
        QVERIFY(BackupFormat::fingerprint(s, {}, "{ }") != fp);
        QVERIFY(BackupFormat::fingerprint(s + QLatin1Char('x'), {}, "{}") != fp);
        const QByteArray a = BackupFormat::fingerprint(s, "NATS/1.0\r\nA:1\r\nB: 2\r\n\r\n", "d");
        QCOMPARE(BackupFormat::fingerprint(s, "NATS/1.0\r\nB:2\r\nA:1\r\n\r\n", "d"), a);
        QVERIFY(BackupFormat::fingerprint(s, "NATS/1.0\r\nA:2\r\n\r\n", "d") != a);
    }

    void auditLogNeverHoldsSecrets()
    {
        QTemporaryDir dir;
        qputenv("XDG_DATA_HOME", dir.path().toUtf8());
        QCOMPARE(AuditLog::defaultPath(), dir.path() + QStringLiteral("/nats-mqtt-doctor/audit.jsonl"));

        const QString password = QStringLiteral("hunter2-very-secret");
        const QString token = QStringLiteral("tok-ABCDEF-123456");
        const QString seed = QStringLiteral("SUAIBDPBAUTWCWBKIO6XHQNINK5FWJW4OHLXC3HQ2KFE4PEJUA44CNHTC4");
        const QString jwt = QStringLiteral("eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJqdGkiOiJBQkMifQ.c2lnbmF0dXJl");
        Profile profile;
        profile.name = QStringLiteral("prod");
        profile.auth.kind = Credentials::Kind::UserPassword;
        profile.auth.user = QStringLiteral("acme");
        profile.auth.password = password;
        profile.system.kind = Credentials::Kind::Token;
        profile.system.token = token;
        Credentials jwtCreds;
        jwtCreds.kind = Credentials::Kind::UserJwt;
        jwtCreds.userJwt = jwt;
        jwtCreds.userSeed = seed;
        profile.accounts.insert(QStringLiteral("ACME"), jwtCreds);
        Credentials inlineCreds;
        inlineCreds.kind = Credentials::Kind::Creds;
        inlineCreds.creds.data = QByteArray("-----BEGIN NATS USER JWT-----\n") + jwt.toUtf8() + "\n------END NATS USER JWT------\n\n"
            + "-----BEGIN USER NKEY SEED-----\n" + seed.toUtf8() + "\n------END USER NKEY SEED------\n";
        profile.accounts.insert(QStringLiteral("OTHER"), inlineCreds);

        AuditEntry entry;
        entry.profile = profile.name;
        entry.account = QStringLiteral("ACME");
        entry.action = QStringLiteral("restore");
        entry.stream = QStringLiteral("$MQTT_sess");
        // Secrets smuggled into every place a request or error could carry them.
        entry.requests.append(AuditLog::request(QStringLiteral("$JS.API.STREAM.CREATE.$MQTT_sess"),
                                                QJsonObject{{QStringLiteral("name"), QStringLiteral("$MQTT_sess")},
                                                            {QStringLiteral("description"), QString(QStringLiteral("pw ") + password)},
                                                            {QStringLiteral("password"), QStringLiteral("short")},
                                                            {QStringLiteral("auth_token"), token}}));
        entry.outcome = QStringLiteral("error");
        entry.error = QStringLiteral("connect failed for %1 with token %2 seed %3").arg(jwt, token, seed);
        entry.details = QJsonObject{{QStringLiteral("note"), QString(seed.left(10) + QStringLiteral("SEEDLIKE") + password)}};

        AuditLog log;
        QVERIFY(log.append(entry, profile));
        QVERIFY(log.append(entry, profile));
        QFile f(log.path());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QCOMPARE(text.count('\n'), 2);
        for (const QString &secret : {password, token, seed, jwt, QStringLiteral("short")})
            QVERIFY2(!text.contains(secret.toUtf8()), qPrintable(QStringLiteral("found %1 in %2").arg(secret, QString::fromUtf8(text))));
        // The rest is intact and each line is one JSON object.
        const QJsonObject first = QJsonDocument::fromJson(text.split('\n').first()).object();
        QCOMPARE(first.value(QLatin1String("profile")).toString(), QStringLiteral("prod"));
        QCOMPARE(first.value(QLatin1String("action")).toString(), QStringLiteral("restore"));
        QCOMPARE(first.value(QLatin1String("outcome")).toString(), QStringLiteral("error"));
        const QJsonObject request = first.value(QLatin1String("requests")).toArray().first().toObject();
        QCOMPARE(request.value(QLatin1String("subject")).toString(), QStringLiteral("$JS.API.STREAM.CREATE.$MQTT_sess"));
        QCOMPARE(request.value(QLatin1String("body")).toObject().value(QLatin1String("name")).toString(), QStringLiteral("$MQTT_sess"));
        QVERIFY(BackupFormat::parseTime(first.value(QLatin1String("time")).toString()));
        qunsetenv("XDG_DATA_HOME");
    }
};

QTEST_GUILESS_MAIN(TestBackupFormat)
#include "tst_backupformat.moc"
