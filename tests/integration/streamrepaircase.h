#pragma once
// The stream-level repairs against real servers (tst_repairstreams, tst_repairstreams_replace): MQTT state made by
// mosquitto clients, a Repairer that gathers, checks, plans and runs as the CLI does, and repairAndCheck, the part
// every case shares: the finding is reported, a dry run and a read-only profile change nothing, the repair
// completes, a fresh check no longer reports it, and rerunning the plan finds every step done.

#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "nats/natsheaders.h"
#include "nats/connectionset.h"
#include "repair/backupfile.h"
#include "repair/backupformat.h"
#include "nats/jetstreampublisher.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"
#include "repair/streamcontent.h"
#include "repair/streamrestore.h"

namespace MqttDoctor::Test::StreamRepair {

using namespace MqttDoctor::Test::LiveCheck;
using State = StepOutcome::State;

inline const QString kSess = QStringLiteral("$MQTT_sess");
inline const QString kMsgs = QStringLiteral("$MQTT_msgs");
inline const QString kOut = QStringLiteral("$MQTT_out");
inline const QString kRmsgs = QStringLiteral("$MQTT_rmsgs");

/** initTestCase of the stream repair tests: restore's own audit entries go to `data` (XDG_DATA_HOME); mosquitto's
 *  clients must be installed. */
inline void prepareRepairTests(const QTemporaryDir &data)
{
    QVERIFY(data.isValid());
    qputenv("XDG_DATA_HOME", QFile::encodeName(data.path()));
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(missing));
}

inline void addVersionRows()
{
    QTest::addColumn<QString>("version");
    for (const QString &label : NatsServerBinary::versionLabels())
        QTest::newRow(qPrintable(label)) << label;
}

inline MqttClient acmeMqtt(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

// A persistent QoS1 session with a QoS1 message queued for it while offline, and a retained message.
inline void makeMqttState(const NatsServerFixture &server)
{
    const MqttClient acme = acmeMqtt(server);
    const MqttResult session = acme.createPersistentSession(QStringLiteral("sensor-sub-1"), {QStringLiteral("alerts/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    const MqttResult retained = acme.publish(QStringLiteral("sensors/kitchen/temp"), "21.5", 1, true, QStringLiteral("pub-1"));
    QVERIFY2(retained.acknowledged, qPrintable(retained.describe()));
    const MqttResult queued = acme.publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-2"));
    QVERIFY2(queued.acknowledged, qPrintable(queued.describe()));
}

// The persistent session resumes (subscribing to nothing new) and gets the message queued while it was offline.
// `attempts` 2: a server that still holds the session in memory expects its record at the old sequence; after
// the record was restored at a new one, its first save fails once and it re-reads the record.
inline void verifySessionResumes(const NatsServerFixture &server, int attempts = 1)
{
    MqttResult resumed;
    for (int i = 0; i < attempts && !resumed.receivedPayloads().contains(QStringLiteral("smoke!")); ++i)
        resumed = acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/topic")}, 1, 1, 8, true);
    QVERIFY2(resumed.connected() && resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
}

inline void verifyMqttWorks(const NatsServerFixture &server)
{
    const MqttClient acme = acmeMqtt(server);
    const MqttResult fresh = acme.connectOnce(QStringLiteral("fresh-after-repair"), false);
    QVERIFY2(fresh.connected(), qPrintable(fresh.describe()));
    const MqttResult session = acme.createPersistentSession(QStringLiteral("after-1"), {QStringLiteral("after/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    QVERIFY2(acme.publish(QStringLiteral("after/x"), "queued-after", 1).acknowledged, "QoS1 publish after the repair");
    const MqttResult resumed = acme.subscribeAndCollect(QStringLiteral("after-1"), {QStringLiteral("unrelated/topic")}, 1, 1, 8, true);
    QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("queued-after")), qPrintable(resumed.describe()));
    // What the product's own probe sees, retained delivery to a new subscriber included (a repair that only
    // brings the streams back can leave that dead: RETAINED_CONSUMER_MISSING).
    const MqttProbeResult seen = probeAcme(server);
    QVERIFY2(seen.verified(), qPrintable(seen.summary()));
}

/** A stream's consumer names, sorted, each as "consumer: NAME". */
inline QStringList consumerNamesOf(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    QStringList out;
    auto list = JetStreamClient(conn).consumerList(stream);
    if (!list)
        return {QStringLiteral("consumers: ") + list.error().toString()};
    for (const QJsonObject &c : *list)
        out << QStringLiteral("consumer: ") + c.value(QLatin1String("name")).toString();
    out.sort();
    return out;
}

/** One message as "subject | its restorable headers, sorted | data in base64", alike for streams and backups. */
inline QString messageLine(const QString &subject, const QByteArray &headerBlock, const QByteArray &data)
{
    QStringList headers;
    if (auto h = NatsHeaders::parse(headerBlock))
        for (const auto &[k, v] : BackupFormat::restorableHeaders(*h).entries())
            headers << k + QLatin1Char(':') + v;
    headers.sort();
    return QStringLiteral("%1 | %2 | %3").arg(subject, headers.join(u','), QString::fromLatin1(data.toBase64()));
}

/** Every message of a stream as "subject | restorable headers | base64 data", oldest first (no consumer). */
inline QStringList contentOf(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    JetStreamClient js(conn);
    auto info = js.streamInfo(stream);
    if (!info)
        return {QStringLiteral("absent: %1").arg(info.error().jsErrCode())};
    QStringList out;
    auto r = StreamContent::read(conn, {}, stream, info->value(QLatin1String("config")).toObject(), {}, {},
                                 [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                     for (const StreamMessage &m : batch)
                                         out << messageLine(m.subject, m.headers, m.data);
                                     return true;
                                 });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** Every message of a backup file, in the same shape. */
inline QStringList backupContent(const QString &path)
{
    QStringList out;
    auto r = BackupFileReader::read(path, [&out](BackupMessage &&m, qint64) {
        out << messageLine(m.subject, m.headers, m.data);
        return true;
    });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** Everything a repair could change: each stream's config, message count, consumers and content. */
inline QString accountState(const std::shared_ptr<NatsConnection> &conn)
{
    JetStreamClient js(conn);
    QStringList lines;
    auto names = js.streamNames();
    if (!names)
        return QStringLiteral("error: ") + names.error().toString();
    QStringList sorted = *names;
    sorted.sort();
    for (const QString &name : sorted) {
        auto info = js.streamInfo(name);
        if (!info)
            return QStringLiteral("error: ") + info.error().toString();
        const QJsonObject config = info->value(QLatin1String("config")).toObject();
        QStringList consumers;
        if (auto list = js.consumerList(name)) // durables only: reading limits streams makes short-lived ordered consumers
            for (const QJsonObject &c : *list)
                if (!c.value(QLatin1String("config")).toObject().value(QLatin1String("durable_name")).toString().isEmpty())
                    consumers << c.value(QLatin1String("name")).toString();
        consumers.sort();
        lines << QStringLiteral("%1 %2 msgs=%3 consumers=%4")
                     .arg(name, compact(config))
                     .arg(info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger())
                     .arg(consumers.join(u','));
        lines += contentOf(conn, name);
    }
    return lines.join(u'\n');
}

inline bool has(const QList<Finding> &findings, const QString &code, const QString &stream = {})
{
    for (const Finding &f : findings)
        if (f.code == code && (stream.isEmpty() || f.stream == stream))
            return true;
    return false;
}

inline QString describe(const QList<Finding> &findings)
{
    QStringList lines;
    for (const Finding &f : findings)
        lines << QStringLiteral("  %1 %2 %3: %4").arg(Finding::severityName(f.severity), f.code, f.stream, f.title);
    return lines.join(u'\n');
}

inline QString describe(const RepairPlan &plan)
{
    QStringList lines;
    for (const RepairStep &s : plan.steps)
        lines << QStringLiteral("  %1 %2 %3: %4 | backups %5 | diff %6")
                     .arg(s.id, s.action, s.stream, s.description)
                     .arg(s.backups.size())
                     .arg(s.diff);
    lines << plan.notes;
    return lines.join(u'\n');
}

inline QString describe(const RepairExecutor::Report &report)
{
    QStringList lines;
    for (const StepOutcome &o : report.outcomes)
        lines << QStringLiteral("  step %1: %2 %3").arg(o.stepId, StepOutcome::stateName(o.state), o.message);
    lines << QStringLiteral("  stopped: ") + report.stoppedBecause;
    return lines.join(u'\n');
}

/** One repair session as the CLI runs it: gather and check, plan for ACME, run. */
class Repairer
{
public:
    Repairer(const NatsServerFixture &server, const QString &backupDir, const QString &auditPath)
        : m_url(server.url()), m_backupDir(backupDir), m_auditPath(auditPath)
    {}

    QList<Finding> check()
    {
        ConnectionSet connections(acmeProfile(m_url, true));
        DiagnosisGatherer::Request req;
        req.account = acme();
        auto input = DiagnosisGatherer::gather(connections, req);
        if (!input) {
            qWarning().noquote() << "gather failed:" << input.error().toString();
            return {};
        }
        m_input = *input;
        return Checks::diagnose(m_input);
    }

    RepairPlan plan(const QList<Finding> &findings, const QStringList &codes)
    {
        RepairPlanner::Options o;
        o.account = acme();
        o.onlyCodes = codes;
        return RepairPlanner::plan(m_input, findings, o);
    }

    Result<RepairExecutor::Report> run(const RepairPlan &plan, bool allowChanges, bool dryRun)
    {
        ConnectionSet connections(acmeProfile(m_url, allowChanges));
        auto target = RepairTarget::resolve(connections, acme());
        if (!target)
            return target.error();
        RepairExecutor::Options o;
        o.backupDir = m_backupDir;
        o.dryRun = dryRun;
        o.auditPath = m_auditPath;
        return RepairExecutor::run(*target, plan, o);
    }

    std::shared_ptr<NatsConnection> connection()
    {
        if (!m_connections)
            m_connections = std::make_unique<ConnectionSet>(acmeProfile(m_url, false));
        auto c = m_connections->primary();
        return c ? *c : nullptr;
    }

private:
    QString m_url;
    QString m_backupDir;
    QString m_auditPath;
    DiagnosisInput m_input;
    std::unique_ptr<ConnectionSet> m_connections;
};

inline bool allIn(const RepairExecutor::Report &report, State state)
{
    for (const StepOutcome &o : report.outcomes)
        if (o.state != state)
            return false;
    return !report.outcomes.isEmpty();
}

/**
 * The common part of every case: the finding is reported; a dry run and a read-only run change nothing; the
 * repair completes; a fresh check no longer reports it; rerunning the plan finds every step already done.
 * Returns the report of the real run.
 */
inline RepairExecutor::Report repairAndCheck(Repairer &r, const QString &code, const QString &stream, const QStringList &codes,
                                             RepairPlan *planOut = nullptr)
{
    const QList<Finding> before = r.check();
    [&] { QVERIFY2(has(before, code, stream), qPrintable(describe(before))); }();
    const RepairPlan plan = r.plan(before, codes);
    if (planOut)
        *planOut = plan;
    [&] { QVERIFY2(!plan.isEmpty(), qPrintable(describe(plan))); }();
    for (const RepairStep &s : plan.steps) {
        [&] {
            QVERIFY2(!s.description.isEmpty() && !s.requests.isEmpty() && !s.precondition.isEmpty() && !s.undo.isEmpty()
                         && !s.verification.isEmpty(),
                     qPrintable(describe(plan)));
        }();
        [&] {
            QVERIFY2(!s.destructive || !s.backups.isEmpty() || s.action == QStringLiteral("recreate_stream"), qPrintable(describe(plan)));
        }();
    }
    const QString state0 = accountState(r.connection());

    auto dry = r.run(plan, true, true);
    [&] { QVERIFY2(dry && allIn(*dry, State::NotRun), dry ? qPrintable(describe(*dry)) : qPrintable(dry.error().toString())); }();
    [&] { QCOMPARE(accountState(r.connection()), state0); }();

    auto readOnly = r.run(plan, false, false);
    [&] { QVERIFY2(!readOnly && readOnly.error().kind() == Error::Kind::ReadOnly, "a read-only profile must be refused"); }();
    [&] { QCOMPARE(accountState(r.connection()), state0); }();

    auto real = r.run(plan, true, false);
    RepairExecutor::Report report = real ? *real : RepairExecutor::Report{};
    [&] {
        QVERIFY2(real && real->complete, real ? qPrintable(describe(plan) + u'\n' + describe(*real)) : qPrintable(real.error().toString()));
    }();

    const QList<Finding> after = r.check();
    [&] { QVERIFY2(!has(after, code, stream), qPrintable(describe(after))); }();
    for (const QString &c : codes)
        [&] { QVERIFY2(!has(after, c), qPrintable(describe(after))); }();

    const QString state1 = accountState(r.connection());
    auto again = r.run(plan, true, false);
    [&] {
        QVERIFY2(again && again->complete && allIn(*again, State::AlreadyDone),
                 again ? qPrintable(describe(*again)) : qPrintable(again.error().toString()));
    }();
    [&] { QCOMPARE(accountState(r.connection()), state1); }();
    return report;
}

} // namespace MqttDoctor::Test::StreamRepair
