// Stream backup and restore against real servers: MQTT state made by real MQTT clients is backed up,
// its streams deleted and restored, and the clients find their sessions, queued and retained messages
// again. Failure paths change nothing; the CLI commands as an operator runs them.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "mqtt/clientidhash.h"
#include "nats/natsheaders.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "repair/backupfile.h"
#include "nats/jetstreampublisher.h"
#include "repair/repairtarget.h"
#include "repair/streambackup.h"
#include "repair/streamcontent.h"
#include "repair/streamrestore.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

Profile acmeProfile(const QString &url, bool allowChanges)
{
    Profile p;
    p.name = QStringLiteral("backup-test");
    p.servers = {url};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = QStringLiteral("acme");
    p.auth.password = QStringLiteral("acmepass");
    p.allowChanges = allowChanges;
    return p;
}

// A stream's message count, last sequence and consumer names: what a backup or a refused restore must not change.
QString snapshot(JetStreamClient &js, const QString &stream)
{
    auto info = js.streamInfo(stream);
    if (!info)
        return QStringLiteral("absent: ") + QString::number(info.error().jsErrCode());
    QStringList consumers;
    if (auto list = js.consumerList(stream))
        for (const QJsonObject &c : *list)
            consumers << c.value(QLatin1String("name")).toString();
    consumers.sort();
    const QJsonObject state = info->value(QLatin1String("state")).toObject();
    return QStringLiteral("%1 msgs, last %2; consumers %3")
        .arg(state.value(QLatin1String("messages")).toInteger())
        .arg(state.value(QLatin1String("last_seq")).toInteger())
        .arg(consumers.join(QLatin1Char(',')));
}

// Every message as "subject | restorable headers | data", oldest first (interest streams without a consumer).
QStringList contentOf(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    JetStreamClient js(conn);
    auto info = js.streamInfo(stream);
    if (!info)
        return {QStringLiteral("error: ") + info.error().toString()};
    QStringList out;
    auto r = StreamContent::read(conn, {}, stream, info->value(QLatin1String("config")).toObject(), {}, {},
                                 [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                     for (const StreamMessage &m : batch) {
                                         QStringList headers;
                                         if (auto h = NatsHeaders::parse(m.headers))
                                             for (const auto &[k, v] : BackupFormat::restorableHeaders(*h).entries())
                                                 headers << k + QLatin1Char(':') + v;
                                         headers.sort();
                                         out << QStringLiteral("%1 | %2 | %3")
                                                    .arg(m.subject, headers.join(QLatin1Char(',')), QString::fromLatin1(m.data.toBase64()));
                                     }
                                     return true;
                                 });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

QStringList consumerNames(JetStreamClient &js, const QString &stream)
{
    QStringList names;
    if (auto list = js.consumerList(stream))
        for (const QJsonObject &c : *list)
            names << c.value(QLatin1String("name")).toString();
    names.sort();
    return names;
}

bool deleteStream(JetStreamClient &js, const QString &stream)
{
    return bool(js.call(QStringLiteral("STREAM.DELETE.") + stream));
}

// Publishes `count` messages with a header (and a Nats-Msg-Id) on subjects `<prefix>.<i % 3>`.
quint64 fill(const std::shared_ptr<NatsConnection> &conn, const QString &stream, const QString &prefix, int count)
{
    quint64 acked = 0;
    JetStreamPublisher publisher(conn, stream, [&acked](quint64, const Result<quint64> &r) { acked += r ? 1 : 0; });
    for (int i = 0; i < count; ++i) {
        NatsHeaders h;
        h.append(QStringLiteral("X-Index"), QString::number(i));
        h.append(QStringLiteral("Nats-Msg-Id"), QStringLiteral("%1-%2").arg(prefix).arg(i));
        if (!publisher.publish(quint64(i), QStringLiteral("%1.%2").arg(prefix).arg(i % 3), h, QByteArray::number(i) + " payload"))
            return acked;
    }
    (void)publisher.finish();
    return acked;
}

// A raw MQTT 3.1.1 CONNECT with clean session 0; the CONNACK's session-present flag (or -1: no CONNACK).
int sessionPresent(quint16 port, const QString &clientId)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    timeval tv{10, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(port);
    int present = -1;
    if (::connect(fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0) {
        const auto str = [](const QByteArray &s) -> QByteArray { return QByteArray(1, char(s.size() >> 8)) + char(s.size() & 0xff) + s; };
        const QByteArray body =
            str("MQTT") + char(4) + char(0xC0) + char(0) + char(30) + str(clientId.toUtf8()) + str("acme") + str("acmepass");
        const QByteArray packet = QByteArray(1, char(0x10)) + char(body.size()) + body;
        char ack[4] = {};
        if (::send(fd, packet.constData(), size_t(packet.size()), MSG_NOSIGNAL) == packet.size() && ::recv(fd, ack, 4, MSG_WAITALL) == 4
            && ack[0] == 0x20 && ack[3] == 0)
            present = ack[2] & 1;
        const char disconnect[2] = {char(0xE0), 0};
        (void)!::send(fd, disconnect, 2, MSG_NOSIGNAL);
    }
    ::close(fd);
    return present;
}

RestoreOptions dryRunOptions()
{
    RestoreOptions o;
    o.dryRun = true;
    return o;
}

RestoreOptions mergeOptions()
{
    RestoreOptions o;
    o.merge = true;
    return o;
}

QJsonObject jsonFile(const QString &path, int line)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll().split('\n').value(line)).object();
}

} // namespace

class TestBackup : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_data; // XDG_DATA_HOME: the audit log of this test (and of the CLI it runs)

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", m_data.path().toUtf8());
    }

    void mqttState_data() { addServerVersionRows(); }

    // Sessions, queued QoS 1 and retained messages from real clients: back up, delete, restore, compare, reconnect.
    void mqttState()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        mqtt.setTimeoutMs(30000);
        MqttResult sub;
        for (int attempt = 0; attempt < 3 && !sub.subscribed(); ++attempt)
            sub = mqtt.createPersistentSession(QStringLiteral("backup-sub-1"), {QStringLiteral("alerts/#")}, 1);
        QVERIFY2(sub.subscribed(), qPrintable(sub.describe()));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("backup-sub-2"), {QStringLiteral("sensors/+/temp")}, 1).subscribed());
        QVERIFY(mqtt.publish(QStringLiteral("alerts/smoke"), "smoke!", 1).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("alerts/water"), "water!", 1).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("status/door"), "open", 1, true).acknowledged);

        ConnectionSet connections(acmeProfile(server.url(), true));
        auto target = RepairTarget::resolve(connections, {});
        QVERIFY2(target, qPrintable(target ? QString() : target.error().toString()));
        QCOMPARE(target->account, QStringLiteral("ACME"));
        JetStreamClient js(target->connection);
        // alerts/smoke, alerts/water (backup-sub-1) and sensors/kitchen/temp (backup-sub-2) are queued.
        QTRY_COMPARE_WITH_TIMEOUT(contentOf(target->connection, QStringLiteral("$MQTT_msgs")).size(), 3, 10000);
        QTemporaryDir dir;
        const QStringList streams{QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs")};
        QMap<QString, QStringList> before;
        QMap<QString, QStringList> consumersBefore;
        QMap<QString, QString> files;
        for (const QString &stream : streams) {
            before[stream] = contentOf(target->connection, stream);
            consumersBefore[stream] = consumerNames(js, stream);
            const QString snap = snapshot(js, stream);
            BackupRequest request;
            request.stream = stream;
            request.outputPath = dir.filePath(stream + QStringLiteral(".jsonl"));
            auto backup = StreamBackup::run(*target, request);
            QVERIFY2(backup, qPrintable(backup ? QString() : backup.error().toString()));
            files[stream] = backup->path;
            QCOMPARE(backup->messages, quint64(before[stream].size()));
            QCOMPARE(backup->interestRetention, stream == QStringLiteral("$MQTT_msgs"));
            QStringList backedUpConsumers = backup->consumers;
            backedUpConsumers.sort();
            QCOMPARE(backedUpConsumers, consumersBefore[stream]);
            const QJsonObject header = jsonFile(backup->path, 0);
            QCOMPARE(header.value(QLatin1String("config")).toObject(), js.streamInfo(stream)->value(QLatin1String("config")).toObject());
            QCOMPARE(header.value(QLatin1String("account")).toString(), QStringLiteral("ACME"));
            if (stream == QStringLiteral("$MQTT_msgs")) // interest: read without any consumer, nothing changed
                QCOMPARE(snapshot(js, stream), snap);
        }
        QCOMPARE(before[QStringLiteral("$MQTT_sess")].size(), 2);
        QCOMPARE(before[QStringLiteral("$MQTT_rmsgs")].size(), 2);
        QVERIFY2(before[QStringLiteral("$MQTT_msgs")].first().contains(QStringLiteral("Nmqtt-Pub:1")),
                 qPrintable(before[QStringLiteral("$MQTT_msgs")].join(QLatin1Char('\n'))));

        // Delete all three and restore: same messages in the same order, consumers back.
        for (const QString &stream : streams)
            QVERIFY(deleteStream(js, stream));
        for (const QString &stream : streams) {
            auto restored = StreamRestore::run(*target, files[stream]);
            QVERIFY2(restored, qPrintable(restored ? QString() : restored.error().toString()));
            QVERIFY2(restored->complete(), qPrintable(restored->failures.join(QLatin1Char('\n'))));
            QVERIFY(restored->streamCreated);
            QCOMPARE(restored->restored, quint64(before[stream].size()));
            QCOMPARE(contentOf(target->connection, stream), before[stream]);
            if (stream != QStringLiteral("$MQTT_rmsgs") || version == QStringLiteral("2.9")) // newer: an ephemeral retained consumer
                QCOMPARE(consumerNames(js, stream), consumersBefore[stream]);
            if (stream == QStringLiteral("$MQTT_sess")) // the records' Nats-Expected-Last-Subject-Sequence
                QVERIFY2(restored->headersStripped >= 1, qPrintable(before[stream].join(QLatin1Char('\n'))));
        }
        // A rerun changes nothing.
        for (const QString &stream : streams) {
            const QString snap = snapshot(js, stream);
            auto again = StreamRestore::run(*target, files[stream]);
            QVERIFY2(again, qPrintable(again ? QString() : again.error().toString()));
            QCOMPARE(again->restored, quint64(0));
            QCOMPARE(again->alreadyPresent, quint64(before[stream].size()));
            QVERIFY(!again->streamCreated);
            QVERIFY(again->consumersCreated.isEmpty());
            QCOMPARE(snapshot(js, stream), snap);
        }

        // The server forgets its cached sessions on restart: what the clients get now comes from the restored streams.
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        const MqttResult queued = mqtt.subscribeAndCollect(QStringLiteral("backup-sub-1"), {QStringLiteral("alerts/#")}, 1, 2, 10, true);
        QVERIFY2(queued.receivedPayloads().contains(QStringLiteral("smoke!"))
                     && queued.receivedPayloads().contains(QStringLiteral("water!")),
                 qPrintable(queued.describe()));
        QCOMPARE(sessionPresent(server.mqttPort(), QStringLiteral("backup-sub-2")), 1);
        QCOMPARE(sessionPresent(server.mqttPort(), QStringLiteral("never-seen-client")), 0);
        const MqttResult retained = mqtt.subscribeAndCollect(QStringLiteral("backup-reader"), {QStringLiteral("#")}, 1, 2, 10);
        QVERIFY2(retained.receivedPayloads().contains(QStringLiteral("21.5"))
                     && retained.receivedPayloads().contains(QStringLiteral("open")),
                 qPrintable(retained.describe()));

        // The audit log has one entry per applied restore, and no password.
        QFile audit(m_data.filePath(QStringLiteral("nats-mqtt-doctor/audit.jsonl")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray log = audit.readAll();
        QVERIFY(log.count("\"action\":\"restore\"") >= 6);
        QVERIFY(log.contains("CONSUMER.DURABLE.CREATE.$MQTT_msgs."));
        QVERIFY(!log.contains("acmepass"));
    }

    // One session subject and named consumers only: what "purge one session" needs.
    void subsetBackup()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("subset-1"), {QStringLiteral("a/#")}, 1).subscribed());
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("subset-2"), {QStringLiteral("b/c")}, 1).subscribed());
        ConnectionSet connections(acmeProfile(server.url(), true));
        auto target = RepairTarget::resolve(connections, {});
        QVERIFY(target);
        JetStreamClient js(target->connection);
        const QString hash = ClientIdHash::hash(QStringLiteral("subset-1"));
        QStringList own;
        for (const QString &name : consumerNames(js, QStringLiteral("$MQTT_msgs")))
            if (name.startsWith(hash + QLatin1Char('_')))
                own << name;
        QCOMPARE(own.size(), 2); // a.> and "a fwc"
        QTemporaryDir dir;
        BackupRequest request;
        request.stream = QStringLiteral("$MQTT_sess");
        request.subject = QStringLiteral("$MQTT.sess.") + hash;
        request.outputPath = dir.filePath(QStringLiteral("one.jsonl"));
        request.allConsumers = false;
        auto one = StreamBackup::run(*target, request);
        QVERIFY2(one, qPrintable(one ? QString() : one.error().toString()));
        QCOMPARE(one->messages, quint64(1));
        QVERIFY(one->consumers.isEmpty());
        QCOMPARE(jsonFile(one->path, 1).value(QLatin1String("subject")).toString(), request.subject);

        BackupRequest cons;
        cons.stream = QStringLiteral("$MQTT_msgs");
        cons.outputPath = dir.filePath(QStringLiteral("cons.jsonl"));
        cons.includeMessages = false;
        cons.allConsumers = false;
        cons.consumers = own;
        auto configs = StreamBackup::run(*target, cons);
        QVERIFY2(configs, qPrintable(configs ? QString() : configs.error().toString()));
        QCOMPARE(configs->messages, quint64(0));
        QCOMPARE(configs->consumers.size(), 2);
        cons.consumers << QStringLiteral("no-such-consumer");
        cons.outputPath = dir.filePath(QStringLiteral("bad.jsonl"));
        auto missing = StreamBackup::run(*target, cons);
        QVERIFY(!missing);
        QVERIFY(!QFile::exists(cons.outputPath));

        // Purge that one subject and delete its consumers, then restore both: only they come back.
        QVERIFY(js.call(QStringLiteral("STREAM.PURGE.$MQTT_sess"), QJsonObject{{QStringLiteral("filter"), request.subject}}));
        for (const QString &name : own)
            QVERIFY(js.call(QStringLiteral("CONSUMER.DELETE.$MQTT_msgs.") + name));
        auto r1 = StreamRestore::run(*target, one->path);
        QVERIFY2(r1 && r1->restored == 1 && !r1->streamCreated, qPrintable(r1 ? r1->failures.join(u',') : r1.error().toString()));
        auto r2 = StreamRestore::run(*target, configs->path);
        QVERIFY2(r2, qPrintable(r2 ? QString() : r2.error().toString()));
        QStringList created = r2->consumersCreated;
        created.sort();
        own.sort();
        QCOMPARE(created, own);
        QCOMPARE(contentOf(target->connection, QStringLiteral("$MQTT_sess")).size(), 2);
    }

    // Read-only, damaged files, bad output paths, missing streams, cancel, foreign data, crash and rerun, Nats-Msg-Id.
    void failurePaths()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("newest"), ServerConfig::standard()), qPrintable(server.errorString()));
        ConnectionSet connections(acmeProfile(server.url(), true));
        auto target = RepairTarget::resolve(connections, {});
        QVERIFY(target);
        JetStreamClient js(target->connection);
        const QJsonObject limits{{QStringLiteral("name"), QStringLiteral("BK")},
                                 {QStringLiteral("subjects"), QJsonArray{QStringLiteral("bk.>")}},
                                 {QStringLiteral("storage"), QStringLiteral("file")}};
        QVERIFY(js.call(QStringLiteral("STREAM.CREATE.BK"), limits));
        QCOMPARE(fill(target->connection, QStringLiteral("BK"), QStringLiteral("bk"), 3000), quint64(3000));
        QJsonObject interest = limits;
        interest[QStringLiteral("name")] = QStringLiteral("BKI");
        interest[QStringLiteral("subjects")] = QJsonArray{QStringLiteral("bki.>")};
        interest[QStringLiteral("retention")] = QStringLiteral("interest");
        QVERIFY(js.call(QStringLiteral("STREAM.CREATE.BKI"), interest));
        QVERIFY(js.call(QStringLiteral("CONSUMER.DURABLE.CREATE.BKI.keep"),
                        QJsonObject{{QStringLiteral("stream_name"), QStringLiteral("BKI")},
                                    {QStringLiteral("config"),
                                     QJsonObject{{QStringLiteral("durable_name"), QStringLiteral("keep")},
                                                 {QStringLiteral("ack_policy"), QStringLiteral("explicit")}}}}));
        QCOMPARE(fill(target->connection, QStringLiteral("BKI"), QStringLiteral("bki"), 3000), quint64(3000));
        QTemporaryDir dir;

        // Output paths that cannot be written, a stream that does not exist: errors, no file.
        BackupRequest request;
        request.stream = QStringLiteral("BK");
        for (const QString &bad : {dir.filePath(QStringLiteral("no/such/folder/b.jsonl")), dir.path()}) {
            request.outputPath = bad;
            auto r = StreamBackup::run(*target, request);
            QVERIFY(!r);
            QCOMPARE(r.error().kind(), Error::Kind::Io);
        }
        request.stream = QStringLiteral("NOPE");
        request.outputPath = dir.filePath(QStringLiteral("nope.jsonl"));
        auto nope = StreamBackup::run(*target, request);
        QVERIFY(!nope);
        QCOMPARE(nope.error().kind(), Error::Kind::NotFound);
        QVERIFY(!QFile::exists(request.outputPath));

        // Cancel mid-backup (ordered consumer and direct gets): no final file, no temporary file left.
        for (const QString &stream : {QStringLiteral("BK"), QStringLiteral("BKI")}) {
            std::atomic<bool> cancel{false};
            quint64 seen = 0;
            BackupOptions options;
            options.batchSize = 100;
            options.cancel = &cancel;
            options.progress = [&](const RepairProgress &p) {
                seen = p.done;
                if (p.done >= 200)
                    cancel = true;
            };
            request.stream = stream;
            request.outputPath = dir.filePath(stream + QStringLiteral("-cancelled.jsonl"));
            auto r = StreamBackup::run(*target, request, options);
            QVERIFY(!r);
            QVERIFY2(StreamBackup::isCancelled(r.error()), qPrintable(r.error().toString()));
            QVERIFY(seen >= 200 && seen < 3000);
            QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList());
        }
        QCOMPARE(snapshot(js, QStringLiteral("BKI")), QStringLiteral("3000 msgs, last 3000; consumers keep"));

        // Whole backups of both.
        QMap<QString, QString> files;
        QMap<QString, QStringList> content;
        for (const QString &stream : {QStringLiteral("BK"), QStringLiteral("BKI")}) {
            request.stream = stream;
            request.outputPath = dir.filePath(stream + QStringLiteral(".jsonl"));
            auto r = StreamBackup::run(*target, request);
            QVERIFY2(r && r->messages == 3000, qPrintable(r ? QString::number(r->messages) : r.error().toString()));
            files[stream] = r->path;
            content[stream] = contentOf(target->connection, stream);
        }

        // Read-only profile: refused in the core, nothing changes.
        QVERIFY(deleteStream(js, QStringLiteral("BK")));
        const RepairTarget readOnly =
            RepairTarget::fromConnection(acmeProfile(server.url(), false), target->connection, QStringLiteral("ACME"));
        auto refused = StreamRestore::run(readOnly, files[QStringLiteral("BK")]);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind(), Error::Kind::ReadOnly);
        QVERIFY(snapshot(js, QStringLiteral("BK")).startsWith(QStringLiteral("absent")));
        auto dry = StreamRestore::run(readOnly, files[QStringLiteral("BK")], dryRunOptions());
        QVERIFY2(dry && dry->restored == 3000 && dry->streamCreated, qPrintable(dry ? QString() : dry.error().toString()));
        QVERIFY(snapshot(js, QStringLiteral("BK")).startsWith(QStringLiteral("absent")));

        // Damaged files: a clear error with the line number, nothing changes.
        QFile good(files[QStringLiteral("BK")]);
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = good.readAll().split('\n');
        const QString truncated = dir.filePath(QStringLiteral("truncated.jsonl"));
        const QString garbage = dir.filePath(QStringLiteral("garbage.jsonl"));
        QFile t(truncated), g(garbage);
        QVERIFY(t.open(QIODevice::WriteOnly) && g.open(QIODevice::WriteOnly));
        t.write(lines.mid(0, 1500).join('\n') + '\n');
        g.write(lines.mid(0, 10).join('\n') + "\n{\"seq\":11,\"subject\":\"bk.1\",\"da\n" + lines.mid(11).join('\n'));
        t.close();
        g.close();
        for (const auto &[path, expected] :
             {std::pair{truncated, QStringLiteral("line 1501")}, std::pair{garbage, QStringLiteral("line 11")}}) {
            auto r = StreamRestore::run(*target, path);
            QVERIFY(!r);
            QVERIFY2(r.error().message().contains(expected), qPrintable(r.error().toString()));
            QVERIFY(snapshot(js, QStringLiteral("BK")).startsWith(QStringLiteral("absent")));
        }

        // Crash mid-restore (cancel after ~1000 publishes), then rerun: everything exactly once.
        std::atomic<bool> stop{false};
        RestoreOptions interrupted;
        interrupted.cancel = &stop;
        interrupted.progress = [&stop](const RepairProgress &p) {
            if (p.phase == QStringLiteral("publishing") && p.done >= 1000)
                stop = true;
        };
        auto partial = StreamRestore::run(*target, files[QStringLiteral("BK")], interrupted);
        QVERIFY2(partial && partial->cancelled && partial->restored >= 1000 && partial->restored < 3000,
                 qPrintable(partial ? QString::number(partial->restored) : partial.error().toString()));
        auto rest = StreamRestore::run(*target, files[QStringLiteral("BK")]);
        QVERIFY2(rest && rest->complete(), qPrintable(rest ? rest->failures.join(u',') : rest.error().toString()));
        QCOMPARE(rest->alreadyPresent, partial->restored);
        QCOMPARE(rest->restored + rest->alreadyPresent, quint64(3000));
        QCOMPARE(contentOf(target->connection, QStringLiteral("BK")), content[QStringLiteral("BK")]);

        // Interest stream purged in place (the duplicate window still knows every Nats-Msg-Id): all restored.
        QVERIFY(js.call(QStringLiteral("STREAM.PURGE.BKI")));
        auto bki = StreamRestore::run(*target, files[QStringLiteral("BKI")]);
        QVERIFY2(bki && bki->complete() && bki->restored == 3000 && bki->headersStripped == 3000,
                 qPrintable(bki ? bki->failures.join(u',') : bki.error().toString()));
        QCOMPARE(bki->consumersExisting, QStringList{QStringLiteral("keep")});
        QCOMPARE(contentOf(target->connection, QStringLiteral("BKI")), content[QStringLiteral("BKI")]);

        // A message the backup does not have: refused without merge; with merge it stays and the rest is skipped.
        QCOMPARE(fill(target->connection, QStringLiteral("BK"), QStringLiteral("bk.extra"), 1), quint64(1));
        const QString before = snapshot(js, QStringLiteral("BK"));
        auto foreign = StreamRestore::run(*target, files[QStringLiteral("BK")]);
        QVERIFY(!foreign);
        QVERIFY2(foreign.error().message().contains(QStringLiteral("1 message that the backup does not have")),
                 qPrintable(foreign.error().toString()));
        QCOMPARE(snapshot(js, QStringLiteral("BK")), before);
        auto merged = StreamRestore::run(*target, files[QStringLiteral("BK")], mergeOptions());
        QVERIFY2(merged && merged->complete() && merged->restored == 0 && merged->alreadyPresent == 3000,
                 qPrintable(merged ? QString() : merged.error().toString()));
        QCOMPARE(snapshot(js, QStringLiteral("BK")), before);
    }

    // backup and restore through the CLI: exit codes, JSON keys, read-only refusal, the audit path in --help.
    void cli()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        MqttClient mqtt(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("cli-sub"), {QStringLiteral("x/#")}, 1).subscribed());
        const QStringList conn{QStringLiteral("--server"),   server.url(),
                               QStringLiteral("--user"),     QStringLiteral("acme"),
                               QStringLiteral("--password"), QStringLiteral("acmepass")};
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("sess.jsonl"));

        const auto help = CliRunner::run({QStringLiteral("--help")});
        QVERIFY2(help.out().contains(m_data.path() + QStringLiteral("/nats-mqtt-doctor/audit.jsonl")), qPrintable(help.describe()));

        const auto backup = CliRunner::run(conn
                                           + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), QStringLiteral("$MQTT_sess"),
                                                         QStringLiteral("--out"), file, QStringLiteral("--json")});
        QVERIFY2(backup.exitCode() == 0 && backup.jsonValid, qPrintable(backup.describe()));
        QCOMPARE(backup.json.value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_sess"));
        QCOMPARE(backup.json.value(QLatin1String("messages")).toInt(), 1);
        QCOMPARE(backup.json.value(QLatin1String("file")).toString(), file);
        QCOMPARE(backup.json.value(QLatin1String("account")).toString(), QStringLiteral("ACME"));
        const auto again = CliRunner::run(conn
                                          + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), QStringLiteral("$MQTT_sess"),
                                                        QStringLiteral("--out"), file});
        QVERIFY2(again.exitCode() == 3 && again.err().contains(QStringLiteral("already exists")), qPrintable(again.describe()));
        const auto text = CliRunner::run(conn
                                         + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), QStringLiteral("$MQTT_msgs"),
                                                       QStringLiteral("--out"), dir.filePath(QStringLiteral("msgs.jsonl"))});
        QVERIFY2(text.exitCode() == 0 && text.out().contains(QStringLiteral("Backed up 0 messages")), qPrintable(text.describe()));
        const auto missing =
            CliRunner::run(conn
                           + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), QStringLiteral("NOPE"),
                                         QStringLiteral("--out"), dir.filePath(QStringLiteral("n.jsonl")), QStringLiteral("--json")});
        QVERIFY2(missing.exitCode() == 3 && missing.jsonValid && missing.json.contains(QLatin1String("error")),
                 qPrintable(missing.describe()));

        const auto readOnly = CliRunner::run(conn + QStringList{QStringLiteral("restore"), file, QStringLiteral("--json")});
        QVERIFY2(readOnly.exitCode() == 3 && readOnly.out().contains(QStringLiteral("read-only")), qPrintable(readOnly.describe()));
        // The core names the setting; the CLI says how to change it.
        const QString readOnlyHint = readOnly.json.value(QLatin1String("error")).toObject().value(QLatin1String("hint")).toString();
        QVERIFY2(readOnlyHint.startsWith(QStringLiteral("allow changes")) && readOnlyHint.contains(QStringLiteral("--allow-changes")),
                 qPrintable(readOnly.describe()));
        const auto dry =
            CliRunner::run(conn + QStringList{QStringLiteral("restore"), file, QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QVERIFY2(dry.exitCode() == 0 && dry.json.value(QLatin1String("already_present")).toInt() == 1, qPrintable(dry.describe()));
        const auto restore = CliRunner::run(
            conn + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("restore"), file, QStringLiteral("--json")});
        QVERIFY2(restore.exitCode() == 0 && restore.jsonValid, qPrintable(restore.describe()));
        for (const char *key : {"stream", "messages", "restored", "already_present", "conflicts", "failed", "stream_created", "audit_log"})
            QVERIFY2(restore.json.contains(QLatin1String(key)), key);
        QCOMPARE(restore.json.value(QLatin1String("messages")).toInt(), 1);
        QCOMPARE(restore.json.value(QLatin1String("already_present")).toInt(), 1);
        const auto human = CliRunner::run(conn + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("restore"), file});
        QVERIFY2(human.exitCode() == 0 && human.out().contains(QStringLiteral("already present (skipped): 1")),
                 qPrintable(human.describe()));

        QFile damaged(dir.filePath(QStringLiteral("damaged.jsonl")));
        QVERIFY(damaged.open(QIODevice::WriteOnly));
        damaged.write("{\"backup\":\"nats-mqtt-doctor\",\"format\":1}\n");
        damaged.close();
        const auto bad =
            CliRunner::run(conn + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("restore"), damaged.fileName()});
        QVERIFY2(bad.exitCode() == 3 && bad.err().contains(QStringLiteral("line 1")), qPrintable(bad.describe()));
    }
};

QTEST_GUILESS_MAIN(TestBackup)
#include "tst_backup.moc"
