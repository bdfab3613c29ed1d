// The stream-level repairs against real servers of every version: real MQTT state made by mosquitto
// clients, the streams broken the way operators break them, then gather → check → RepairPlanner::plan →
// RepairExecutor::run. Each case asserts: a dry run and a read-only profile change nothing, the repair
// completes, a fresh check no longer reports the finding, MQTT clients connect again (a persistent session
// gets the QoS1 message queued for it while offline, where the state survived), every other message of the
// account is intact, the backups hold what was removed, and rerunning the same plan finds everything done.
#include <QDir>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqtt/natsheaders.h"
#include "nats/connectionset.h"
#include "repair/backupfile.h"
#include "repair/backupformat.h"
#include "repair/jetstreampublisher.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"
#include "repair/streamcontent.h"
#include "repair/streamrestore.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;
using State = StepOutcome::State;

namespace {

const QString kSess = QStringLiteral("$MQTT_sess");
const QString kMsgs = QStringLiteral("$MQTT_msgs");
const QString kOut = QStringLiteral("$MQTT_out");
const QString kRmsgs = QStringLiteral("$MQTT_rmsgs");

void addVersionRows()
{
    QTest::addColumn<QString>("version");
    for (const QString &label : NatsServerBinary::versionLabels())
        QTest::newRow(qPrintable(label)) << label;
}

MqttClient acmeMqtt(const NatsServerFixture &server)
{
    return MqttClient(server.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"));
}

// A persistent QoS1 session with a QoS1 message queued for it while offline, and a retained message.
void makeMqttState(const NatsServerFixture &server)
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
// the record was restored at a new one, its first save fails once and it re-reads the record (internals §8.5).
void verifySessionResumes(const NatsServerFixture &server, int attempts = 1)
{
    MqttResult resumed;
    for (int i = 0; i < attempts && !resumed.receivedPayloads().contains(QStringLiteral("smoke!")); ++i)
        resumed = acmeMqtt(server).subscribeAndCollect(QStringLiteral("sensor-sub-1"), {QStringLiteral("unrelated/topic")}, 1, 1, 8, true);
    QVERIFY2(resumed.connected() && resumed.receivedPayloads().contains(QStringLiteral("smoke!")), qPrintable(resumed.describe()));
}

void verifyMqttWorks(const NatsServerFixture &server)
{
    const MqttClient acme = acmeMqtt(server);
    const MqttResult fresh = acme.connectOnce(QStringLiteral("fresh-after-repair"), false);
    QVERIFY2(fresh.connected(), qPrintable(fresh.describe()));
    const MqttResult session = acme.createPersistentSession(QStringLiteral("after-1"), {QStringLiteral("after/#")}, 1);
    QVERIFY2(session.subscribed(), qPrintable(session.describe()));
    QVERIFY2(acme.publish(QStringLiteral("after/x"), "queued-after", 1).acknowledged, "QoS1 publish after the repair");
    const MqttResult resumed = acme.subscribeAndCollect(QStringLiteral("after-1"), {QStringLiteral("unrelated/topic")}, 1, 1, 8, true);
    QVERIFY2(resumed.receivedPayloads().contains(QStringLiteral("queued-after")), qPrintable(resumed.describe()));
}

/** A stream's consumer names, sorted, each as "consumer: NAME". */
QStringList consumerNamesOf(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
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

/** Every message of a stream as "subject | restorable headers | base64 data", oldest first (no consumer). */
QStringList contentOf(const std::shared_ptr<NatsConnection> &conn, const QString &stream)
{
    JetStreamClient js(conn);
    auto info = js.streamInfo(stream);
    if (!info)
        return {QStringLiteral("absent: %1").arg(info.error().jsErrCode())};
    QStringList out;
    auto r = StreamContent::read(conn, {}, stream, info->value(QLatin1String("config")).toObject(), {}, {},
                                 [&out](QList<StreamMessage> &&batch, const ReadProgress &) {
                                     for (const StreamMessage &m : batch) {
                                         QStringList headers;
                                         if (auto h = NatsHeaders::parse(m.headers))
                                             for (const auto &[k, v] : BackupFormat::restorableHeaders(*h).entries())
                                                 headers << k + QLatin1Char(':') + v;
                                         headers.sort();
                                         out << QStringLiteral("%1 | %2 | %3").arg(m.subject, headers.join(u','), QString::fromLatin1(m.data.toBase64()));
                                     }
                                     return true;
                                 });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** Every message of a backup file, in the same shape. */
QStringList backupContent(const QString &path)
{
    QStringList out;
    auto r = BackupFileReader::read(path, [&out](BackupMessage &&m, qint64) {
        QStringList headers;
        if (auto h = NatsHeaders::parse(m.headers))
            for (const auto &[k, v] : BackupFormat::restorableHeaders(*h).entries())
                headers << k + QLatin1Char(':') + v;
        headers.sort();
        out << QStringLiteral("%1 | %2 | %3").arg(m.subject, headers.join(u','), QString::fromLatin1(m.data.toBase64()));
        return true;
    });
    if (!r)
        out << QStringLiteral("error: ") + r.error().toString();
    return out;
}

/** Everything a repair could change: each stream's config, message count, consumers and content. */
QString accountState(const std::shared_ptr<NatsConnection> &conn)
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
        if (auto list = js.consumerList(name))  // durables only: reading limits streams makes short-lived ordered consumers
            for (const QJsonObject &c : *list)
                if (!c.value(QLatin1String("config")).toObject().value(QLatin1String("durable_name")).toString().isEmpty())
                    consumers << c.value(QLatin1String("name")).toString();
        consumers.sort();
        lines << QStringLiteral("%1 %2 msgs=%3 consumers=%4").arg(name, compact(config))
                     .arg(info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger())
                     .arg(consumers.join(u','));
        lines += contentOf(conn, name);
    }
    return lines.join(u'\n');
}

bool has(const QList<Finding> &findings, const QString &code, const QString &stream = {})
{
    for (const Finding &f : findings)
        if (f.code == code && (stream.isEmpty() || f.stream == stream))
            return true;
    return false;
}

QString describe(const QList<Finding> &findings)
{
    QStringList lines;
    for (const Finding &f : findings)
        lines << QStringLiteral("  %1 %2 %3: %4").arg(Finding::severityName(f.severity), f.code, f.stream, f.title);
    return lines.join(u'\n');
}

QString describe(const RepairPlan &plan)
{
    QStringList lines;
    for (const RepairStep &s : plan.steps)
        lines << QStringLiteral("  %1 %2 %3: %4 | backups %5 | diff %6").arg(s.id, s.action, s.stream, s.description).arg(s.backups.size()).arg(s.diff);
    lines << plan.notes;
    return lines.join(u'\n');
}

QString describe(const RepairExecutor::Report &report)
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
    {
    }

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

bool allIn(const RepairExecutor::Report &report, State state)
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
RepairExecutor::Report repairAndCheck(Repairer &r, const QString &code, const QString &stream, const QStringList &codes,
                                      RepairPlan *planOut = nullptr)
{
    const QList<Finding> before = r.check();
    [&] { QVERIFY2(has(before, code, stream), qPrintable(describe(before))); }();
    const RepairPlan plan = r.plan(before, codes);
    if (planOut)
        *planOut = plan;
    [&] { QVERIFY2(!plan.isEmpty(), qPrintable(describe(plan))); }();
    for (const RepairStep &s : plan.steps) {
        [&] { QVERIFY2(!s.description.isEmpty() && !s.requests.isEmpty() && !s.precondition.isEmpty() && !s.undo.isEmpty()
                           && !s.verification.isEmpty(), qPrintable(describe(plan))); }();
        [&] { QVERIFY2(!s.destructive || !s.backups.isEmpty() || s.action == QStringLiteral("recreate_stream"), qPrintable(describe(plan))); }();
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
    [&] { QVERIFY2(real && real->complete, real ? qPrintable(describe(plan) + u'\n' + describe(*real)) : qPrintable(real.error().toString())); }();

    const QList<Finding> after = r.check();
    [&] { QVERIFY2(!has(after, code, stream), qPrintable(describe(after))); }();
    for (const QString &c : codes)
        [&] { QVERIFY2(!has(after, c), qPrintable(describe(after))); }();

    const QString state1 = accountState(r.connection());
    auto again = r.run(plan, true, false);
    [&] { QVERIFY2(again && again->complete && allIn(*again, State::AlreadyDone), again ? qPrintable(describe(*again)) : qPrintable(again.error().toString())); }();
    [&] { QCOMPARE(accountState(r.connection()), state1); }();
    return report;
}

} // namespace

class TestRepairStreams : public QObject
{
    Q_OBJECT

    QTemporaryDir m_data;

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path()));  // restore's own audit entries
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QSKIP(qPrintable(missing));
    }

    // $MQTT_sess deleted while the server runs: create_stream with the exact config; MQTT connects again and
    // the queued and retained messages of the other streams are untouched.
    void createMissingSessions_data() { addVersionRows(); }
    void createMissingSessions()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.deleteStream(kSess), qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("fresh-before")).connected(), "connect must fail while $MQTT_sess is missing");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const QStringList others0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        RepairPlan plan;
        repairAndCheck(r, QStringLiteral("STREAM_MISSING"), kSess, {QStringLiteral("STREAM_MISSING")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        QCOMPARE(plan.steps.first().action, QStringLiteral("create_stream"));
        QCOMPARE(plan.steps.first().description, QStringLiteral("Create $MQTT_sess (subjects $MQTT.sess.>, limits, file, max_msgs_per_subject 1, R1)"));
        QCOMPARE(plan.steps.first().requests.first().subject, QStringLiteral("$JS.API.STREAM.CREATE.$MQTT_sess"));
        QVERIFY(!plan.steps.first().destructive);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), others0);
        verifyMqttWorks(server);
    }

    // $MQTT_sess "tuned" to max_msgs_per_subject -1, a session saved again: STREAM_CONFIG_WRONG and
    // DUPLICATE_SESSION_RECORDS. update_stream sets 1 (purging the older records, backed up first).
    void perSubjectLimit_data() { addVersionRows(); }
    void perSubjectLimit()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kSess, {{QStringLiteral("max_msgs_per_subject"), -1}}), qPrintable(admin.error()));
        const MqttResult again = acmeMqtt(server).createPersistentSession(QStringLiteral("sensor-sub-2"), {QStringLiteral("doors/#")}, 1);
        QVERIFY2(again.subscribed(), qPrintable(again.describe()));
        const MqttResult third = acmeMqtt(server).createPersistentSession(QStringLiteral("sensor-sub-2"), {QStringLiteral("windows/#")}, 1);
        QVERIFY2(third.subscribed(), qPrintable(third.describe()));
        QVERIFY2(acmeMqtt(server).publish(QStringLiteral("alerts/smoke"), "smoke!", 1, false, QStringLiteral("pub-3")).acknowledged, "queued");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const QStringList sess0 = contentOf(r.connection(), kSess);
        const QStringList others0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        QVERIFY2(has(r.check(), QStringLiteral("DUPLICATE_SESSION_RECORDS"), kSess), "duplicates expected");
        RepairPlan plan;
        const RepairExecutor::Report report = repairAndCheck(r, QStringLiteral("STREAM_CONFIG_WRONG"), kSess,
                                                             {QStringLiteral("STREAM_CONFIG_WRONG"), QStringLiteral("DUPLICATE_SESSION_RECORDS")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        const RepairStep &step = plan.steps.first();
        QCOMPARE(step.action, QStringLiteral("update_stream"));
        QVERIFY(step.destructive);
        QCOMPARE(step.diff, QStringLiteral("-max_msgs_per_subject: -1\n+max_msgs_per_subject: 1"));
        QCOMPARE(step.requests.first().body.value(QLatin1String("max_msgs_per_subject")).toInt(), 1);
        QCOMPARE(step.requests.first().body.value(QLatin1String("duplicate_window")).toInteger(), qint64(120000000000));

        // Only the newest record per subject is left; the backup holds every record the update purged.
        const QStringList sess1 = contentOf(r.connection(), kSess);
        QVERIFY2(sess1.size() < sess0.size(), qPrintable(sess1.join(u'\n')));
        for (const QString &m : sess1)
            QVERIFY2(sess0.contains(m), qPrintable(m));
        QCOMPARE(report.backups.size(), 1);
        QCOMPARE(backupContent(report.backups.first()), sess0);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), others0);
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }

    // $MQTT_sess narrowed to a wrong subject after set-up: every save times out. update_stream puts the
    // subjects back; the records stayed in the stream, so the session resumes with its queued message.
    void subjectsWrong_data() { addVersionRows(); }
    void subjectsWrong()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        QVERIFY2(admin.updateStream(kSess, {{QStringLiteral("subjects"), QJsonArray{QStringLiteral("$MQTT.sess.foo.>")}}}), qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("c1"), false).connected(), "saving a session must fail");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        // (A consumer does not see the records outside the narrowed subjects: compare the record count instead.)
        const auto sessMessages = [&admin] {
            QJsonObject info;
            return admin.call(QStringLiteral("STREAM.INFO.$MQTT_sess"), {}, &info)
                       ? info.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger() : -1;
        };
        const qint64 records0 = sessMessages();
        QVERIFY(records0 > 0);
        const QStringList content0 = contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
        RepairPlan plan;
        repairAndCheck(r, QStringLiteral("STREAM_SUBJECTS_WRONG"), kSess, {QStringLiteral("STREAM_SUBJECTS_WRONG")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.first().diff, QStringLiteral("-subjects: [$MQTT.sess.foo.>]\n+subjects: [$MQTT.sess.>]"));
        QVERIFY(!plan.steps.first().destructive);
        QCOMPARE(contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs), content0);
        QCOMPARE(sessMessages(), records0);
        QCOMPARE(contentOf(r.connection(), kSess).size(), records0);
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }

    // An MQTT stream created by hand with memory storage before the first MQTT client: the servers use it
    // as is and lose the state on restart. recreate_stream backs it up, recreates it on file and restores
    // consumers then messages; the session resumes with its queued message.
    void recreateStorage_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("stream");
        for (const QString &label : NatsServerBinary::versionLabels()) {
            QTest::addRow("%s sess", qPrintable(label)) << label << kSess;
            QTest::addRow("%s msgs", qPrintable(label)) << label << kMsgs;
            if (label != QLatin1String("2.9")) // $MQTT_out (PUBREL records) exists from 2.10
                QTest::addRow("%s out", qPrintable(label)) << label << kOut;
        }
    }
    void recreateStorage()
    {
        QFETCH(QString, version);
        QFETCH(QString, stream);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const bool sess = stream == kSess;
        const QString subjects = sess ? QStringLiteral("$MQTT.sess.>") : stream == kOut ? QStringLiteral("$MQTT.out.>") : QStringLiteral("$MQTT.msgs.>");
        QJsonObject config{{QStringLiteral("name"), stream},
                           {QStringLiteral("subjects"), QJsonArray{subjects}},
                           {QStringLiteral("retention"), sess ? QStringLiteral("limits") : QStringLiteral("interest")},
                           {QStringLiteral("storage"), QStringLiteral("memory")}};
        if (sess)
            config.insert(QStringLiteral("max_msgs_per_subject"), 1);
        QVERIFY2(admin.createStream(config), qPrintable(admin.error()));
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        const auto allContent = [&r, &stream] {
            QStringList c = contentOf(r.connection(), kSess) + contentOf(r.connection(), kMsgs) + contentOf(r.connection(), kRmsgs);
            if (stream == kOut) // PUBREL records are rare and short-lived: the stream's consumers are what must survive
                c += consumerNamesOf(r.connection(), kOut);
            return c;
        };
        if (stream == kOut) { // a QoS 2 session owns a PUBREL durable on $MQTT_out
            const MqttResult qos2 = acmeMqtt(server).createPersistentSession(QStringLiteral("qos2-sub-3"), {QStringLiteral("cmd/#")}, 2);
            QVERIFY2(qos2.subscribed(), qPrintable(qos2.describe()));
            QVERIFY2(consumerNamesOf(r.connection(), kOut).size() == 1, qPrintable(consumerNamesOf(r.connection(), kOut).join(u',')));
        } else {
            QVERIFY2(!contentOf(r.connection(), stream).isEmpty(), "the stream must hold MQTT state");
        }
        const QStringList content0 = allContent();
        RepairPlan plan;
        const RepairExecutor::Report report =
            repairAndCheck(r, QStringLiteral("STREAM_CONFIG_WRONG"), stream, {QStringLiteral("STREAM_CONFIG_WRONG")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.size(), 1);
        QCOMPARE(plan.steps.first().action, QStringLiteral("recreate_stream"));
        QVERIFY(plan.steps.first().destructive);
        QCOMPARE(plan.steps.first().diff, QStringLiteral("-storage: memory\n+storage: file"));
        QCOMPARE(admin.streamConfig(stream)->value(QLatin1String("storage")).toString(), QStringLiteral("file"));
        // Everything is back, and the working backup (named in the step's replies) holds it too.
        QCOMPARE(allContent(), content0);
        QString backup;
        for (const QJsonValue &v : report.outcomes.first().responses)
            if (v.toObject().contains(QLatin1String("backup")))
                backup = v.toObject().value(QLatin1String("backup")).toString();
        QVERIFY2(!backup.isEmpty(), qPrintable(compact(report.outcomes.first().responses)));
        QCOMPARE(backupContent(backup), contentOf(r.connection(), stream));
        verifySessionResumes(server, stream == kSess ? 2 : 1);
        verifyMqttWorks(server);
    }

    // A stream capturing MQTT subjects made before the first MQTT client (10065): resolve_overlap backs it up
    // and deletes it (all its subjects are MQTT ones) or narrows it (it has others), then the MQTT streams
    // are created with the exact configs and MQTT works.
    void overlap_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<bool>("narrow");
        for (const QString &label : NatsServerBinary::versionLabels()) {
            QTest::addRow("%s delete", qPrintable(label)) << label << false;
            QTest::addRow("%s narrow", qPrintable(label)) << label << true;
        }
    }
    void overlap()
    {
        QFETCH(QString, version);
        QFETCH(bool, narrow);
        NatsServerFixture server;
        QVERIFY2(server.start(version), qPrintable(server.errorString()));
        JetStreamAdmin admin;
        QVERIFY2(admin.connect({server.url()}, QStringLiteral("acme"), QStringLiteral("acmepass")), qPrintable(admin.error()));
        const QString other = narrow ? QStringLiteral("OPS") : QStringLiteral("CATCHALL");
        const QJsonArray subjects = narrow ? QJsonArray{QStringLiteral("ops.>"), QStringLiteral("$MQTT.msgs.foo.*")} : QJsonArray{QStringLiteral("$MQTT.>")};
        QVERIFY2(admin.createStream({{QStringLiteral("name"), other}, {QStringLiteral("subjects"), subjects}, {QStringLiteral("storage"), QStringLiteral("file")}}),
                 qPrintable(admin.error()));
        QVERIFY2(!acmeMqtt(server).connectOnce(QStringLiteral("c1")).connected(), "connect must fail (10065)");

        QTemporaryDir dir;
        Repairer r(server, dir.filePath(QStringLiteral("backups")), dir.filePath(QStringLiteral("audit.jsonl")));
        {   // The operator's own messages in the other stream.
            quint64 acked = 0;
            JetStreamPublisher publisher(r.connection(), other, [&acked](quint64, const Result<quint64> &res) { acked += res ? 1 : 0; });
            for (int i = 0; i < 4; ++i)
                QVERIFY(publisher.publish(quint64(i), narrow ? QStringLiteral("ops.%1").arg(i) : QStringLiteral("$MQTT.ops.%1").arg(i), {},
                                          QByteArray("operator message ") + QByteArray::number(i)));
            (void)publisher.finish();
            QCOMPARE(acked, quint64(4));
        }
        const QStringList other0 = contentOf(r.connection(), other);
        RepairPlan plan;
        const RepairExecutor::Report report = repairAndCheck(r, QStringLiteral("SUBJECTS_OVERLAP"), other,
                                                             {QStringLiteral("SUBJECTS_OVERLAP"), QStringLiteral("STREAM_MISSING")}, &plan);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(plan.steps.first().action, QStringLiteral("resolve_overlap"));
        QVERIFY(plan.steps.first().destructive);
        for (int i = 1; i < plan.steps.size(); ++i)
            QCOMPARE(plan.steps.at(i).action, QStringLiteral("create_stream"));
        QCOMPARE(plan.steps.size(), 1 + (version == QStringLiteral("2.9") ? 3 : 5) - (narrow ? 1 : 0));  // narrow: $MQTT_sess was created
        QCOMPARE(report.backups.size(), 1);
        QCOMPARE(backupContent(report.backups.first()), other0);
        if (narrow) {
            QCOMPARE(admin.streamConfig(other)->value(QLatin1String("subjects")).toArray(), QJsonArray{QStringLiteral("ops.>")});
            QCOMPARE(contentOf(r.connection(), other), other0);
        } else {
            QVERIFY(!admin.streamConfig(other));
            // The backup restores it (checked without changing anything: the MQTT streams now hold its subjects).
            RestoreOptions ro;
            ro.dryRun = true;
            ConnectionSet connections(acmeProfile(server.url(), true));
            auto target = RepairTarget::resolve(connections, acme());
            QVERIFY(target);
            auto restored = StreamRestore::run(*target, report.backups.first(), ro);
            QVERIFY2(restored && restored->streamCreated && restored->restored == quint64(other0.size()),
                     restored ? "restore dry run" : qPrintable(restored.error().toString()));
        }
        makeMqttState(server);
        if (QTest::currentTestFailed())
            return;
        verifySessionResumes(server);
        verifyMqttWorks(server);
    }
};

QTEST_GUILESS_MAIN(TestRepairStreams)
#include "tst_repairstreams.moc"
