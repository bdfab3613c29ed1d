// `repair` of the retained-message findings against real servers, with real mosquitto clients:
// - RETAINED_LEGACY_LAYOUT: a 2.9.10 store read by 2.10 / the newest server → migrate_retained;
// - RETAINED_ORPHANED: a deadline-hit migration left a message on the literal $MQTT.rmsgs → republish
//   (also with a newer retained message for the same topic, which must be kept);
// - RETAINED_DOWNGRADE → revert_retained. Not on the files a 2.10+ server wrote, served by 2.9.10 after a
//   binary downgrade: 2.9.10 misreads them (the newer server's delete tombstones count as messages, the
//   deleted 2.9 originals come back, records stored after the first tombstone cannot be read by any
//   request, and ranges run up to 2^62 + n), so no complete backup can be taken; revertRefusedOnMisreadStore
//   shows the tool refusing there and reading nothing unbounded. The state is reproduced faithfully instead
//   (revertDowngrade): a 2.10 / newest server migrates real 2.9 retained messages and stores one of its own;
//   its $MQTT_rmsgs (exact config, raw records) is captured through the tool's reader and put in place of
//   the $MQTT_rmsgs of a 2.9.10 server with its own store and a persistent session with a queued QoS1
//   message; after a restart 2.9.10 refuses every MQTT connect with 10093, as in the field. Also: a real downgrade
//   whose $MQTT_rmsgs never had a delete reads consistently and is reverted (revertOnNewerStoreWithoutDeletes), and
//   an interrupted revert is reported and finished (revertInterrupted).
// Each case: a read-only profile and a dry run change nothing; `repair --yes` fixes the finding; a real
// subscriber gets every retained message with its payload and QoS; sessions and queued messages are intact;
// a second run does nothing; the step's backup restores the removed messages.
#include <algorithm>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "livecheck.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "nats/connectionset.h"
#include "repair/repairaction.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"
#include "mqtt/natsheaders.h"
#include "mqtt/retainedrecord.h"
#include "mqtt/storedmessage.h"
#include "mqttclient.h"
#include "natsserverbinary.h"
#include "natsserverfixture.h"
#include "repair/backupfile.h"
#include "repair/jetstreampublisher.h"
#include "repair/streamcontent.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

const QString kRetained = QStringLiteral("$MQTT_rmsgs");

MqttClient acmeMqtt(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

std::shared_ptr<NatsConnection> acmeConnection(const NatsServerFixture &server)
{
    ConnectionSettings settings;
    settings.servers = {server.url()};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = QStringLiteral("acme");
    settings.credentials.password = QStringLiteral("acmepass");
    settings.timeoutMs = 5000;
    settings.role = QStringLiteral("tst_repairretained");
    auto c = NatsConnection::connect(settings);
    return c ? *c : nullptr;
}

/** Every message of a stream ("subject | hdrs | data", base64), read without a consumer (safe on a downgraded 2.9.10). */
/** The headers as sorted "Key:Value" pairs: a republish keeps keys and values, not the block's order or spacing. */
QString headerText(const QByteArray &block)
{
    if (block.isEmpty())
        return {};
    auto parsed = NatsHeaders::parse(block);
    if (!parsed)
        return QStringLiteral("unparsable:") + QString::fromLatin1(block.toBase64());
    QStringList pairs;
    for (const auto &e : parsed->entries())
        pairs << e.first + u':' + e.second;
    pairs.sort();
    return pairs.join(u';');
}

QStringList content(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    QStringList out;
    auto r = StreamContent::read(conn, {}, stream, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                                 [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                     for (const StreamMessage &m : batch)
                                         out << QStringLiteral("%1 | %2 | %3").arg(m.subject, headerText(m.headers),
                                                                                  QString::fromLatin1(m.data.toBase64()));
                                     return true;
                                 });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** The record of the persistent session "sensor-sub-1" (readers' clean sessions come and go). */
QStringList sensorSession(const std::shared_ptr<NatsConnection> &conn)
{
    QStringList out;
    for (const QString &line : content(conn, QStringLiteral("$MQTT_sess")))
        if (QByteArray::fromBase64(line.section(QStringLiteral(" | "), 2).toLatin1()).contains("sensor-sub-1"))
            out << line;
    return out;
}

/** The retained messages of $MQTT_rmsgs as "topic|qos|payload", sorted (both encodings, markers left out). */
QStringList retainedSet(const std::shared_ptr<NatsConnection> &conn)
{
    QStringList out;
    (void)StreamContent::read(conn, {}, kRetained, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                        [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                            for (const StreamMessage &m : batch) {
                                StoredMessage s;
                                s.subject = m.subject;
                                s.seq = m.sequence;
                                s.headers = m.headers;
                                s.data = m.data;
                                if (auto r = RetainedRecord::decode(s); r && !r->isDeleteMarker)
                                    out << QStringLiteral("%1|%2|%3").arg(r->topic).arg(r->qos()).arg(QString::fromUtf8(r->payload));
                            }
                            return true;
                        });
    out.sort();
    return out;
}

/**
 * What a fresh MQTT subscriber (QoS 1) receives as retained: "topic|qos|payload", sorted.
 * Servers load an account's retained messages asynchronously (on its first MQTT connection, and a message stored
 * through JetStream reaches their map through a consumer), so a subscriber can come too early and see fewer. This asks
 * again with a new client ID (at most four times) until at least @p atLeast arrive, and returns the last answer: the
 * caller still compares it exactly, so an extra or a wrong message fails.
 */
QStringList subscriberSees(const NatsServerFixture &server, const QStringList &filters, int expected, int atLeast,
                           const QString &clientId)
{
    QStringList out;
    for (int attempt = 1; attempt <= 4; ++attempt) {
        const QString id = attempt == 1 ? clientId : QStringLiteral("%1-try%2").arg(clientId).arg(attempt);
        const MqttResult got = acmeMqtt(server).subscribeAndCollect(id, filters, 1, expected, attempt == 1 ? 8 : 15);
        out.clear();
        for (const MqttResult::Message &m : got.messages)
            if (m.retained)
                out << QStringLiteral("%1|%2|%3").arg(m.topic).arg(m.qos).arg(QString::fromUtf8(m.payload));
        out.sort();
        if (out.size() >= atLeast)
            break;
        qInfo("subscriber %s saw %lld retained messages of at least %d (%s); asking again", qPrintable(id),
              qlonglong(out.size()), atLeast, qPrintable(got.describe()));
        QThread::msleep(500);
    }
    return out;
}

QJsonObject config(const std::shared_ptr<NatsConnection> &conn)
{
    JetStreamClient js(conn);
    auto info = js.streamInfo(kRetained);
    return info ? info->value(QLatin1String("config")).toObject() : QJsonObject();
}

QStringList subjectsOf(const QJsonObject &config)
{
    QStringList out;
    for (const QJsonValue &v : config.value(QLatin1String("subjects")).toArray())
        out << v.toString();
    return out;
}

CliRunner::Run repair(const NatsServerFixture &server, const QStringList &extra, bool allowChanges = true)
{
    QStringList args = acmeArgs(server.url());
    if (allowChanges)
        args << QStringLiteral("--allow-changes");
    return CliRunner::run(args + QStringList{QStringLiteral("repair")} + extra + QStringList{QStringLiteral("--json")}, 120000);
}

/** The steps of a repair's JSON plan with this action. */
QList<QJsonObject> stepsOf(const CliRunner::Run &run, const QString &action)
{
    QList<QJsonObject> out;
    for (const QJsonValue &v : run.json.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray())
        if (v.toObject().value(QLatin1String("action")).toString() == action)
            out << v.toObject();
    return out;
}

QStringList outcomeStates(const CliRunner::Run &run)
{
    QStringList out;
    for (const QJsonValue &v : run.json.value(QLatin1String("applied")).toObject().value(QLatin1String("steps")).toArray())
        out << v.toObject().value(QLatin1String("state")).toString();
    return out;
}

/** Messages of a backup file as "subject | hdrs | data" (the shape of content()). */
QStringList backupContent(const QString &path)
{
    QStringList out;
    auto r = BackupFileReader::read(path, [&out](BackupMessage &&m, qint64) {
        out << QStringLiteral("%1 | %2 | %3").arg(m.subject, headerText(m.headers), QString::fromLatin1(m.data.toBase64()));
        return true;
    });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** Publishes raw bytes into $MQTT_rmsgs (to fake a half-done server migration). */
bool storeRaw(const std::shared_ptr<NatsConnection> &conn, const QString &subject, const QByteArray &data)
{
    bool ok = false;
    JetStreamPublisher p(conn, kRetained, [&ok](quint64, const Result<quint64> &r) { ok = bool(r); }, 1);
    return p.publish(0, subject, NatsHeaders(), data) && p.finish() && ok;
}

const QStringList kFilters{QStringLiteral("sensors/#"), QStringLiteral("status/#")};

} // namespace

class TestRepairRetained : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // The 2.9 MQTT state: persistent session with a queued QoS1 message, retained messages (QoS1 and QoS0).
    void makeState(const NatsServerFixture &server)
    {
        const MqttClient acme = acmeMqtt(server);
        QVERIFY(acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("alerts/#")}, 1).subscribed());
        QVERIFY(acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true, QStringLiteral("pub-1")).acknowledged);
        QVERIFY(acme.publish(QStringLiteral("sensors/garage/temp"), "9.0", 0, true, QStringLiteral("pub-2")).exitCode == 0);
        QVERIFY(acme.publish(QStringLiteral("status/door"), "open", 1, true, QStringLiteral("pub-3")).acknowledged);
        QVERIFY(acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-4")).acknowledged);
    }

    // Read-only and dry run change nothing; the repair applies `action`; a second run does nothing. The backups.
    QStringList runRepair(const NatsServerFixture &server, const QString &action)
    {
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        const CliRunner::Run readOnly = repair(server, {QStringLiteral("--yes")}, false);
        if (readOnly.exitCode() == 0 || content(conn, kRetained) != before) {
            QTest::qFail(qPrintable(QStringLiteral("read-only repair: ") + readOnly.describe()), __FILE__, __LINE__);
            return {};
        }
        const CliRunner::Run dry = repair(server, {QStringLiteral("--dry-run")});
        if (dry.exitCode() != 1 || stepsOf(dry, action).size() != 1 || content(conn, kRetained) != before) {
            QTest::qFail(qPrintable(QStringLiteral("dry run: ") + dry.describe()), __FILE__, __LINE__);
            return {};
        }
        const QString backupDir = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()) + u'-' + action);
        const CliRunner::Run run = repair(server, {QStringLiteral("--yes"), QStringLiteral("--backup-dir"), backupDir});
        const QList<QJsonObject> steps = stepsOf(run, action);
        if (!run.jsonValid || steps.size() != 1 || !outcomeStates(run).contains(QStringLiteral("applied")) || run.exitCode() != 0) {
            QTest::qFail(qPrintable(QStringLiteral("repair: ") + run.describe()), __FILE__, __LINE__);
            return {};
        }
        const QJsonObject step = steps.first();
        if (!step.value(QLatin1String("destructive")).toBool() || step.value(QLatin1String("requests")).toArray().isEmpty()) {
            QTest::qFail(qPrintable(QStringLiteral("step shape: ") + run.out()), __FILE__, __LINE__);
            return {};
        }
        const CliRunner::Run again = repair(server, {QStringLiteral("--yes"), QStringLiteral("--backup-dir"), backupDir});
        const QStringList states = outcomeStates(again);
        if (again.exitCode() != 0 || states.contains(QStringLiteral("applied")) || states.contains(QStringLiteral("failed"))) {
            QTest::qFail(qPrintable(QStringLiteral("second run: ") + again.describe()), __FILE__, __LINE__);
            return {};
        }
        QStringList backups;
        for (const QJsonValue &v : run.json.value(QLatin1String("backups")).toArray())
            backups << v.toString();
        return backups;
    }

    // The faithful reproduction (file comment): `version`'s own $MQTT_rmsgs put into the store of a 2.9.10 server
    // (`server`, started here, with MQTT state of its own), which then refuses MQTT connects with 10093. The retained
    // messages ("topic|qos|payload", sorted).
    void reproduceDowngrade(const QString &version, NatsServerFixture &server, QStringList &retained)
    {
        // 1. The newer server's own $MQTT_rmsgs: it migrates three 2.9 retained messages, then stores one in its own
        //    encoding (2.10: JSON on $MQTT.rmsgs.<subject>; newest: the 2.11+ header encoding).
        QJsonObject writtenConfig;
        QList<StreamMessage> written;
        {
            NatsServerFixture writer;
            QVERIFY2(writer.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(writer.errorString()));
            makeState(writer);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(switchBinary(writer, version), qPrintable(writer.errorString()));
            QCOMPARE(subscriberSees(writer, kFilters, 3, 3, QStringLiteral("reader-0")).size(), 3);
            QVERIFY(acmeMqtt(writer).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
            const auto conn = acmeConnection(writer);
            writtenConfig = config(conn);
            QCOMPARE(subjectsOf(writtenConfig), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
            QVERIFY(StreamContent::read(conn, {}, kRetained, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                                        [&written](QList<StreamMessage> &&batch, const ReadProgress &) {
                                            written.append(batch);
                                            return true;
                                        }));
            retained = retainedSet(conn);
            QCOMPARE(retained, (QStringList{QStringLiteral("sensors/garage/temp|0|9.0"), QStringLiteral("sensors/kitchen/temp|1|21.5"),
                                            QStringLiteral("status/door|1|open"), QStringLiteral("status/window|1|ajar")}));
            QCOMPARE(written.size(), 4);
            if (version == QLatin1String("newest"))  // the window record is in the newer server's header encoding
                QVERIFY2(written.last().headers.contains("Nmqtt-RTopic"), written.last().headers.constData());
        }

        // 2. A 2.9.10 server with its own store and MQTT state; its $MQTT_rmsgs replaced by exactly what the newer
        //    server wrote (same config, same subjects, headers and bodies), then restarted.
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        {
            JetStreamAdmin admin;
            QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
            QVERIFY2(admin.deleteStream(kRetained), qPrintable(admin.error()));
            QVERIFY2(admin.createStream(writtenConfig), qPrintable(admin.error()));
            const auto conn = acmeConnection(server);
            quint64 stored = 0;
            JetStreamPublisher p(conn, kRetained, [&stored](quint64, const Result<quint64> &r) { stored += r ? 1 : 0; }, 1);
            for (qsizetype i = 0; i < written.size(); ++i) {
                const StreamMessage &m = written.at(i);
                auto headers = m.headers.isEmpty() ? Result<NatsHeaders>(NatsHeaders()) : NatsHeaders::parse(m.headers);
                QVERIFY(headers);
                QVERIFY(p.publish(quint64(i), m.subject, *headers, m.data));
            }
            QVERIFY(p.finish());
            QCOMPARE(stored, quint64(written.size()));
        }
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        const qsizetype logFrom = server.logLinesMatching(QStringLiteral("")).size();
        const MqttResult refused = acmeMqtt(server).connectOnce(QStringLiteral("c1"));
        QVERIFY2(!refused.connected(), qPrintable(refused.describe()));
        QTRY_VERIFY_WITH_TIMEOUT(!server.logLinesMatching(QStringLiteral("not a valid subset of the interest subjects (10093)"), logFrom).isEmpty(), 5000);
        QVERIFY2(server.logLinesMatching(QStringLiteral("create retained messages consumer for account \"ACME\""), logFrom).size() >= 1,
                 qPrintable(server.logTail()));

    }

    void verifyGone(const NatsServerFixture &server, const QString &code)
    {
        const CliRunner::Run after = check(acmeArgs(server.url()));
        QVERIFY2(after.jsonValid, qPrintable(after.describe()));
        QVERIFY2(findingsWith(after, code).isEmpty(), qPrintable(describe(after)));
        QVERIFY2(findingsAbove(after, QStringLiteral("info")).isEmpty(), qPrintable(describe(after)));
    }

    // Deleting the stream and restoring the backup brings back exactly what was there before the repair.
    void verifyRestore(const NatsServerFixture &server, const QString &backup, const QStringList &before)
    {
        QCOMPARE(backupContent(backup), before);
        JetStreamClient js(acmeConnection(server));
        QVERIFY(js.call(QStringLiteral("STREAM.DELETE.") + kRetained));
        const CliRunner::Run restore = CliRunner::run(acmeArgs(server.url())
                                                      + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("restore"), backup,
                                                                    QStringLiteral("--json")});
        QVERIFY2(restore.exitCode() == 0, qPrintable(restore.describe()));
        QStringList restored = content(acmeConnection(server), kRetained);
        QStringList expected = before;
        for (QStringList *l : {&restored, &expected})  // new sequences; compare subject and bytes
            l->sort();
        QCOMPARE(restored, expected);
    }

private slots:
    void initTestCase()
    {
        if (!MqttClient::missingTools().isEmpty())
            QSKIP(qPrintable(MqttClient::missingTools()));
        QVERIFY(m_dir.isValid());
    }

    void versions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2.10") << QStringLiteral("2.10");
        QTest::newRow("newest") << QStringLiteral("newest");
    }

    // revert_retained on the faithful reproduction (file comment): the finding fires, read-only and dry runs change
    // nothing, `repair --yes` reverts, check is clean, 2.9.10 clients connect again and get every retained message
    // with its payload and QoS, the persistent session resumes with its queued QoS1 message, the backup holds every
    // original record.
    void revertDowngrade_data() { versions_data(); }
    void revertDowngrade()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QStringList retained;
        reproduceDowngrade(version, server, retained);
        if (QTest::currentTestFailed())
            return;
        const QJsonObject finding = findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_DOWNGRADE"));
        QVERIFY(!finding.isEmpty());
        QCOMPARE(str(finding, "repair"), QStringLiteral("revert_retained"));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 4);
        QCOMPARE(retainedSet(conn), retained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);
        const QStringList msgs = content(conn, QStringLiteral("$MQTT_msgs"));

        // In-process, on the same gathered state: the core refuses the step on a read-only target (safety rule 1),
        // and nothing is planned while a 2.10+ server also serves the account (its per-subject store would break).
        {
            ConnectionSet connections(acmeProfile(server.url(), false));
            DiagnosisGatherer::Request request;
            request.account = QStringLiteral("ACME");
            auto input = DiagnosisGatherer::gather(connections, request);
            QVERIFY2(input, qPrintable(input ? QString() : input.error().toString()));
            RepairPlanner::Options po;
            po.account = QStringLiteral("ACME");
            const RepairPlan plan = RepairPlanner::plan(*input, Checks::diagnose(*input), po);
            QCOMPARE(plan.steps.size(), 1);
            QCOMPARE(plan.steps.first().action, QStringLiteral("revert_retained"));
            auto readOnly = RepairTarget::resolve(connections, QStringLiteral("ACME"));
            QVERIFY(readOnly);
            ExecContext roCtx;
            roCtx.target = *readOnly;
            auto applied = RepairActionRegistry::find(QStringLiteral("revert_retained"))->apply(plan.steps.first(), roCtx);
            QVERIFY(!applied && applied.error().kind() == Error::Kind::ReadOnly);

            DiagnosisInput mixed = *input;
            QVERIFY(!mixed.servers.isEmpty());
            ServerInfo newer = mixed.servers.first();
            newer.name = QStringLiteral("upgraded-node");
            newer.id = QStringLiteral("NUPGRADED");
            newer.version = QStringLiteral("2.10.27");
            mixed.servers.append(newer);
            const QList<Finding> findings = Checks::diagnose(mixed);
            QVERIFY(std::any_of(findings.begin(), findings.end(), [](const Finding &f) { return f.code == QLatin1String("RETAINED_DOWNGRADE"); }));
            const RepairPlan mixedPlan = RepairPlanner::plan(mixed, findings, po);
            QVERIFY(std::none_of(mixedPlan.steps.begin(), mixedPlan.steps.end(),
                                 [](const RepairStep &st) { return st.action == QLatin1String("revert_retained"); }));
            QVERIFY2(mixedPlan.notes.join(u'\n').contains(QLatin1String("2.10+ servers also serve account \"ACME\"")),
                     qPrintable(mixedPlan.notes.join(u'\n')));
        }
        QCOMPARE(content(conn, kRetained), before);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        const QJsonObject cfg = config(conn);
        QCOMPARE(subjectsOf(cfg), QStringList{QStringLiteral("$MQTT.rmsgs")});
        QCOMPARE(cfg.value(QLatin1String("max_msgs_per_subject")).toInteger(), -1);
        const QStringList after = content(conn, kRetained);
        QCOMPARE(after.size(), 4);
        for (const QString &line : after)
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs | ")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        QCOMPARE(content(conn, QStringLiteral("$MQTT_msgs")), msgs);

        // MQTT works again on 2.9.10 without a restart: connect, every retained message, the queued QoS1 message.
        const MqttResult c2 = acmeMqtt(server).connectOnce(QStringLiteral("c2"));
        QVERIFY2(c2.connected(), qPrintable(c2.describe() + u'\n' + server.logTail()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-1")), retained);
        const MqttResult resumed = acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
        // And after a restart (the retained messages are read from the stream, not from the server's memory).
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-2")), retained);

        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
    }

    // A revert that stopped right after its STREAM.UPDATE (a crash, a lost connection): the 2.9 shape is back, MQTT
    // connects work, but the records are still on $MQTT.rmsgs.<subject> where 2.9 does not read them. check reports
    // it, and a rerun of repair finishes the revert.
    void revertInterrupted()
    {
        NatsServerFixture server;
        QStringList retained;
        reproduceDowngrade(QStringLiteral("newest"), server, retained);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kRetained, {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs")}},
                                                {QStringLiteral("max_msgs_per_subject"), -1}}),
                 qPrintable(admin.error()));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 4);
        const MqttResult c1 = acmeMqtt(server).connectOnce(QStringLiteral("c1"));
        QVERIFY2(c1.connected(), qPrintable(c1.describe()));
        QCOMPARE(subscriberSees(server, kFilters, 4, 0, QStringLiteral("reader-0")), QStringList());

        const CliRunner::Run checked = check(acmeArgs(server.url()));
        const QJsonObject f = findingWith(checked, QStringLiteral("RETAINED_DOWNGRADE"));
        QVERIFY2(!f.isEmpty(), qPrintable(describe(checked)));
        QCOMPARE(str(f, "severity"), QStringLiteral("error"));
        QCOMPARE(str(f, "repair"), QStringLiteral("revert_retained"));
        QCOMPARE(actualOf(f).toObject().value(QLatin1String("messages_outside_subjects")).toInteger(), 4);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs | ")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QVERIFY2(server.restart(), qPrintable(server.errorString()));  // 2.9.10 loads retained messages when it sets MQTT up
        QCOMPARE(subscriberSees(server, kFilters, 4, 4, QStringLiteral("reader-1")), retained);
        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
    }

    // The real binary downgrade (2.9 → 2.10 → 2.9.10 on the same files): 2.9.10 misreads the store. check reports the
    // finding at once; repair plans nothing and says why; the backup command refuses the contradictory stream states
    // instead of reading them (one of them spans 2^62 sequences); nothing is changed and the JetStream API still answers.
    void revertRefusedOnMisreadStore()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(switchBinary(server, QStringLiteral("2.10")), qPrintable(server.errorString()));
        QCOMPARE(subscriberSees(server, kFilters, 3, 3, QStringLiteral("reader-0")).size(), 3);
        QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
        QVERIFY2(switchBinary(server, QStringLiteral("2.9")), qPrintable(server.errorString()));

        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QJsonObject info;
        QVERIFY2(admin.call(QStringLiteral("STREAM.INFO.") + kRetained, {}, &info), qPrintable(admin.error()));
        const QJsonObject state = info.value(QLatin1String("state")).toObject();
        // What 2.9.10 reports here (lab): 10 messages in sequences 1 to 7 for 4 retained messages.
        QVERIFY2(state.value(QLatin1String("messages")).toInteger()
                     > state.value(QLatin1String("last_seq")).toInteger() - state.value(QLatin1String("first_seq")).toInteger() + 1,
                 qPrintable(QString::fromUtf8(QJsonDocument(state).toJson(QJsonDocument::Compact))));

        QElapsedTimer timer;
        timer.start();
        const CliRunner::Run checked = check(acmeArgs(server.url()));
        QVERIFY(!findingWith(checked, QStringLiteral("RETAINED_DOWNGRADE")).isEmpty());
        QCOMPARE(checked.exitCode(), 2);
        const CliRunner::Run run = repair(server, {QStringLiteral("--yes"), QStringLiteral("--backup-dir"), m_dir.filePath(QStringLiteral("misread"))});
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(stepsOf(run, QStringLiteral("revert_retained")).isEmpty(), qPrintable(run.out()));
        const QString notes = QString::fromUtf8(QJsonDocument(run.json.value(QLatin1String("plan")).toObject().value(QLatin1String("notes")).toArray()).toJson());
        QVERIFY2(notes.contains(QLatin1String("misreads $MQTT_rmsgs")), qPrintable(run.out()));
        QVERIFY2(notes.contains(QLatin1String("Nothing was changed")), qPrintable(run.out()));
        QStringList remaining;
        for (const QJsonValue &v : run.json.value(QLatin1String("remaining")).toArray())
            remaining << v.toObject().value(QLatin1String("code")).toString();
        QVERIFY2(remaining.contains(QStringLiteral("RETAINED_DOWNGRADE")), qPrintable(run.out()));
        QCOMPARE(run.exitCode(), 2);  // nothing applied, and the error still stands

        // The backup command refuses both contradictory states rather than reading them: $MQTT_rmsgs (more messages
        // than sequences; a read by sequence would have returned the resurrected originals and missed the rest) and
        // $MQTT_sess (its last record is a tombstone: a range of 2^62 sequences).
        const QList<std::pair<QString, QString>> refusals{{kRetained, QStringLiteral("inconsistent")},
                                                          {QStringLiteral("$MQTT_sess"), QStringLiteral("too sparse")}};
        for (const auto &[stream, why] : refusals) {
            const CliRunner::Run backup = CliRunner::run(acmeArgs(server.url())
                                                         + QStringList{QStringLiteral("backup"), QStringLiteral("--stream"), stream,
                                                                       QStringLiteral("--out"), m_dir.filePath(QStringLiteral("misread-") + stream),
                                                                       QStringLiteral("--json")});
            QVERIFY2(backup.exitCode() == 3 && backup.describe().contains(why), qPrintable(backup.describe()));
        }
        QVERIFY2(timer.elapsed() < 60000, qPrintable(QString::number(timer.elapsed())));

        QJsonObject again;
        QVERIFY2(admin.call(QStringLiteral("STREAM.INFO.") + kRetained, {}, &again), qPrintable(admin.error()));
        QCOMPARE(again.value(QLatin1String("config")).toObject(), info.value(QLatin1String("config")).toObject());
        QCOMPARE(again.value(QLatin1String("state")).toObject().value(QLatin1String("messages")), state.value(QLatin1String("messages")));
        QCOMPARE(again.value(QLatin1String("state")).toObject().value(QLatin1String("last_seq")), state.value(QLatin1String("last_seq")));
        QVERIFY(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected());
    }

    // The real binary downgrade of an account a 2.10+ server set up from scratch: its $MQTT_rmsgs never had a delete
    // (no 2.9 message to migrate, none replaced), so 2.9.10 reads it consistently even though the store's other
    // streams carry the newer server's tombstones. The revert is planned and works; the retained message is delivered.
    void revertOnNewerStoreWithoutDeletes()
    {
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.10"), ServerConfig::standard()), qPrintable(server.errorString()));
        QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/window"), "ajar", 1, true, QStringLiteral("pub-6")).acknowledged);
        QVERIFY2(switchBinary(server, QStringLiteral("2.9")), qPrintable(server.errorString()));
        QVERIFY(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected());
        QVERIFY(!findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_DOWNGRADE")).isEmpty());
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        QCOMPARE(before.size(), 1);

        const QStringList backups = runRepair(server, QStringLiteral("revert_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_DOWNGRADE"));
        QCOMPARE(retainedSet(conn), QStringList{QStringLiteral("status/window|1|ajar")});
        const MqttResult c2 = acmeMqtt(server).connectOnce(QStringLiteral("c2"));
        QVERIFY2(c2.connected(), qPrintable(c2.describe() + u'\n' + server.logTail()));
        QCOMPARE(subscriberSees(server, kFilters, 1, 1, QStringLiteral("reader-1")), QStringList{QStringLiteral("status/window|1|ajar")});
        QCOMPARE(backups.size(), 1);
        QCOMPARE(backupContent(backups.first()), before);
    }

    void migrateLegacyLayout_data() { versions_data(); }
    void migrateLegacyLayout()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        const QStringList retained = retainedSet(acmeConnection(server));
        QCOMPARE(retained.size(), 3);
        QVERIFY2(switchBinary(server, version), qPrintable(server.errorString()));
        const auto conn = acmeConnection(server);
        const QStringList before = content(conn, kRetained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);
        const QStringList msgs = content(conn, QStringLiteral("$MQTT_msgs"));
        QVERIFY(!findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_LEGACY_LAYOUT")).isEmpty());

        const QStringList backups = runRepair(server, QStringLiteral("migrate_retained"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_LEGACY_LAYOUT"));
        const QJsonObject cfg = config(conn);
        QCOMPARE(subjectsOf(cfg), QStringList{QStringLiteral("$MQTT.rmsgs.>")});
        QCOMPARE(cfg.value(QLatin1String("max_msgs_per_subject")).toInteger(), 1);
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs.")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        QCOMPARE(content(conn, QStringLiteral("$MQTT_msgs")), msgs);

        QCOMPARE(subscriberSees(server, kFilters, 3, int(retained.size()), QStringLiteral("reader-1")), retained);
        const MqttResult resumed = acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));

        QCOMPARE(backups.size(), 1);
        verifyRestore(server, backups.first(), before);
    }

    void republishOrphan_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("newer");
        QTest::newRow("2.10") << QStringLiteral("2.10") << false;
        QTest::newRow("2.10-newer") << QStringLiteral("2.10") << true;
        QTest::newRow("newest") << QStringLiteral("newest") << false;
        QTest::newRow("newest-newer") << QStringLiteral("newest") << true;
    }
    void republishOrphan()
    {
        QFETCH(QString, version);
        QFETCH(bool, newer);
        NatsServerFixture server;
        QVERIFY2(server.start(QStringLiteral("2.9"), ServerConfig::standard()), qPrintable(server.errorString()));
        makeState(server);
        if (QTest::currentTestFailed())
            return;
        QStringList retained = retainedSet(acmeConnection(server));
        QVERIFY2(switchBinary(server, version), qPrintable(server.errorString()));
        auto conn = acmeConnection(server);

        // A migration that hit its deadline: subjects changed, two of three moved, max_msgs_per_subject 1;
        // status/door (published last) stays on $MQTT.rmsgs.
        JetStreamAdmin admin;
        QVERIFY(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")));
        QVERIFY2(admin.updateStream(kRetained, {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.rmsgs.>")}}}), qPrintable(admin.error()));
        QList<StreamMessage> stored;
        QVERIFY(StreamContent::read(conn, {}, kRetained, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
                                    [&stored](QList<StreamMessage> &&batch, const ReadProgress &) {
                                        stored.append(batch);
                                        return true;
                                    }));
        for (const StreamMessage &m : std::as_const(stored)) {
            auto r = RetainedRecord::decodeJson(m.data);
            if (!r || r->topic == QLatin1String("status/door"))
                continue;
            QVERIFY(storeRaw(conn, QStringLiteral("$MQTT.rmsgs.") + r->subject, m.data));
            QVERIFY(admin.call(QStringLiteral("STREAM.MSG.DELETE.") + kRetained, {{QStringLiteral("seq"), qint64(m.sequence)}}));
        }
        QVERIFY2(admin.updateStream(kRetained, {{QStringLiteral("max_msgs_per_subject"), 1}}), qPrintable(admin.error()));
        const QJsonObject orphan = findingWith(check(acmeArgs(server.url())), QStringLiteral("RETAINED_ORPHANED"));
        QVERIFY(!orphan.isEmpty());
        // A subscriber now misses status/door (and sets the account up on this server).
        QCOMPARE(subscriberSees(server, kFilters, 3, 2, QStringLiteral("reader-0")).size(), 2);
        if (newer) {  // a client stores a newer retained message for the orphan's topic: it must win
            QVERIFY(acmeMqtt(server).publish(QStringLiteral("status/door"), "closed", 1, true, QStringLiteral("pub-5")).acknowledged);
            retained.replace(retained.indexOf(QStringLiteral("status/door|1|open")), QStringLiteral("status/door|1|closed"));
        }
        const QStringList before = content(conn, kRetained);
        const QStringList sess = sensorSession(conn);
        QCOMPARE(sess.size(), 1);

        const QStringList backups = runRepair(server, QStringLiteral("republish"));
        if (QTest::currentTestFailed())
            return;
        verifyGone(server, QStringLiteral("RETAINED_ORPHANED"));
        for (const QString &line : content(conn, kRetained))
            QVERIFY2(line.startsWith(QLatin1String("$MQTT.rmsgs.")), qPrintable(line));
        QCOMPARE(retainedSet(conn), retained);
        QCOMPARE(sensorSession(conn), sess);
        // The running server applies the republished message live (no restart).
        QCOMPARE(subscriberSees(server, kFilters, 3, int(retained.size()), QStringLiteral("reader-1")), retained);
        const MqttResult resumed = acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/x")}, 1, 1, 8, true);
        QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
        QCOMPARE(backups.size(), 1);
        verifyRestore(server, backups.first(), before);
    }
};

QTEST_GUILESS_MAIN(TestRepairRetained)
#include "tst_repairretained.moc"
