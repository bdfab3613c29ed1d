#pragma once

// Shared by the retained-repair tests (tst_repairretained, tst_repairretained_revert): the acme account's
// connections, stream content and backup readers, the 2.9 MQTT state, and the repair run every case
// goes through (read-only and dry run change nothing, the repair applies, a second run does nothing).

#include <algorithm>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QObject>
#include <QTest>
#include <QThread>

#include "livecheck.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "nats/connectionset.h"
#include "repair/repairaction.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"
#include "nats/natsheaders.h"
#include "mqtt/retainedrecord.h"
#include "mqtt/storedmessage.h"
#include "mqttclient.h"
#include "natsserverbinary.h"
#include "natsserverfixture.h"
#include "repair/backupfile.h"
#include "nats/jetstreampublisher.h"
#include "repair/streamcontent.h"

namespace MqttDoctor::Test::RetainedRepairCase {

using namespace MqttDoctor::Test::LiveCheck;

inline const QString kRetained = QStringLiteral("$MQTT_rmsgs");

inline MqttClient acmeMqtt(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

inline std::shared_ptr<NatsConnection> acmeConnection(const NatsServerFixture &server)
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
inline QString headerText(const QByteArray &block)
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

inline QStringList content(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    QStringList out;
    auto r = StreamContent::read(
        conn, {}, stream, QJsonObject{{QStringLiteral("retention"), QStringLiteral("interest")}}, {}, {},
        [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
            for (const StreamMessage &m : batch)
                out << QStringLiteral("%1 | %2 | %3").arg(m.subject, headerText(m.headers), QString::fromLatin1(m.data.toBase64()));
            return true;
        });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** The record of the persistent session "sensor-sub-1" (readers' clean sessions come and go). */
inline QStringList sensorSession(const std::shared_ptr<NatsConnection> &conn)
{
    QStringList out;
    for (const QString &line : content(conn, QStringLiteral("$MQTT_sess")))
        if (QByteArray::fromBase64(line.section(QStringLiteral(" | "), 2).toLatin1()).contains("sensor-sub-1"))
            out << line;
    return out;
}

/** The retained messages of $MQTT_rmsgs as "topic|qos|payload", sorted (both encodings, markers left out). */
inline QStringList retainedSet(const std::shared_ptr<NatsConnection> &conn)
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
QStringList subscriberSees(const NatsServerFixture &server, const QStringList &filters, int expected, int atLeast, const QString &clientId)
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
        qInfo("subscriber %s saw %lld retained messages of at least %d (%s); asking again", qPrintable(id), qlonglong(out.size()), atLeast,
              qPrintable(got.describe()));
        QThread::msleep(500);
    }
    return out;
}

inline QJsonObject config(const std::shared_ptr<NatsConnection> &conn)
{
    JetStreamClient js(conn);
    auto info = js.streamInfo(kRetained);
    return info ? info->value(QLatin1String("config")).toObject() : QJsonObject();
}

inline QStringList subjectsOf(const QJsonObject &config)
{
    QStringList out;
    for (const QJsonValue &v : config.value(QLatin1String("subjects")).toArray())
        out << v.toString();
    return out;
}

inline CliRunner::Run repair(const NatsServerFixture &server, const QStringList &extra, bool allowChanges = true)
{
    QStringList args = acmeArgs(server.url());
    if (allowChanges)
        args << QStringLiteral("--allow-changes");
    return CliRunner::run(args + QStringList{QStringLiteral("repair")} + extra + QStringList{QStringLiteral("--json")}, 120000);
}

/** The steps of a repair's JSON plan with this action. */
inline QList<QJsonObject> stepsOf(const CliRunner::Run &run, const QString &action)
{
    QList<QJsonObject> out;
    for (const QJsonValue &v : run.json.value(QLatin1String("plan")).toObject().value(QLatin1String("steps")).toArray())
        if (v.toObject().value(QLatin1String("action")).toString() == action)
            out << v.toObject();
    return out;
}

inline QStringList outcomeStates(const CliRunner::Run &run)
{
    QStringList out;
    for (const QJsonValue &v : run.json.value(QLatin1String("applied")).toObject().value(QLatin1String("steps")).toArray())
        out << v.toObject().value(QLatin1String("state")).toString();
    return out;
}

/** Messages of a backup file as "subject | hdrs | data" (the shape of content()). */
inline QStringList backupContent(const QString &path)
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
inline bool storeRaw(const std::shared_ptr<NatsConnection> &conn, const QString &subject, const QByteArray &data)
{
    bool ok = false;
    JetStreamPublisher p(
        conn, kRetained, [&ok](quint64, const Result<quint64> &r) { ok = bool(r); }, 1);
    return p.publish(0, subject, NatsHeaders(), data) && p.finish() && ok;
}

const QStringList kFilters{QStringLiteral("sensors/#"), QStringLiteral("status/#")};

class Base : public QObject
{
protected:
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
        const CliRunner::Run restore =
            CliRunner::run(acmeArgs(server.url())
                           + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("restore"), backup, QStringLiteral("--json")});
        QVERIFY2(restore.exitCode() == 0, qPrintable(restore.describe()));
        QStringList restored = content(acmeConnection(server), kRetained);
        QStringList expected = before;
        for (QStringList *l : {&restored, &expected}) // new sequences; compare subject and bytes
            l->sort();
        QCOMPARE(restored, expected);
    }

    static void versions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("2.10") << QStringLiteral("2.10");
        QTest::newRow("newest") << QStringLiteral("newest");
    }
};

} // namespace MqttDoctor::Test::RetainedRepairCase
