// CONSUMER_STUCK, SESSION_DURABLE_REPLACED, INTEREST_PINNED and JETSTREAM_API_ERRORS against real servers of
// every version, with the state made by real MQTT clients: a raw subscriber that takes its QoS 1 messages and
// never acknowledges them, a session whose durable was replaced by a new one of the same filter, an offline
// session that keeps messages in $MQTT_msgs, clean-session connects that cost session lookups (API errors).
// The repairs of the first two run and the clients see the result.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include "livecheck.h"
#include "mqttclient.h"
#include "persistentsessionfixture.h"
#include "repairrun.h"
#include "silentsubscriber.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqtt/clientidhash.h"
#include "nats/connectionset.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

QString sessSubject(const QString &clientId)
{
    return QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(clientId);
}

QList<QJsonObject> ofClient(const CliRunner::Run &run, const QString &code, const QString &clientId)
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : findingsWith(run, code))
        if (str(f, "client_id") == clientId)
            out.append(f);
    return out;
}

QStringList durablesOf(JetStreamClient &js, const QString &clientId)
{
    QStringList out;
    if (auto list = js.consumerList(QStringLiteral("$MQTT_msgs")))
        for (const QJsonObject &c : *list)
            if (c.value(QLatin1String("name")).toString().startsWith(ClientIdHash::hash(clientId) + QLatin1Char('_')))
                out << c.value(QLatin1String("name")).toString();
    return out;
}

QStringList findingCodes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

} // namespace

class TestDeliveryFindings : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void stuckConsumer_data() { addServerVersionRows(); }

    // A connected subscriber that never sends PUBACK: one sample shows it at max_ack_pending with
    // redeliveries; two samples show deliveries advancing over a still ack floor. The reset repair leaves a
    // clean start for the next CONNECT.
    void stuckConsumer()
    {
        QFETCH(QString, version);
        ServerConfig config = ServerConfig::standard();
        config.addMqttSetting(QStringLiteral("max_ack_pending: 3"));
        config.addMqttSetting(QStringLiteral("ack_wait: \"1s\""));
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version, config), qPrintable(lab.errorString()));
        const QString url = lab.url();
        MqttClient &mqtt = lab.mqtt();

        SilentSubscriber full;
        QCOMPARE(full.start(lab.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"), QStringLiteral("stuck-1"),
                            QStringLiteral("dev/full/m")),
                 QString());
        SilentSubscriber slow;
        QCOMPARE(slow.start(lab.mqttPort(), QStringLiteral("acme"), QStringLiteral("acmepass"), QStringLiteral("stuck-2"),
                            QStringLiteral("dev/slow/m")),
                 QString());
        for (int i = 0; i < 5; ++i)
            QVERIFY(mqtt.publish(QStringLiteral("dev/full/m"), QByteArray::number(i), 1).acknowledged);
        // Three deliveries (its max_ack_pending), then a redelivery once ack_wait passed.
        QVERIFY2(full.take(3, 1), qPrintable(QStringLiteral("%1 delivered, %2 redelivered").arg(full.delivered()).arg(full.redelivered())));

        // One sample: stuck-1 is stuck; stuck-2 has received nothing and is not.
        const auto one = check(lab.cliArgs());
        QVERIFY2(one.jsonValid, qPrintable(describe(one)));
        const QList<QJsonObject> stuck = ofClient(one, QStringLiteral("CONSUMER_STUCK"), QStringLiteral("stuck-1"));
        QCOMPARE(stuck.size(), 1);
        QCOMPARE(str(stuck.first(), "severity"), QStringLiteral("error"));
        QCOMPARE(str(stuck.first(), "repair"), QStringLiteral("delete_session"));
        QCOMPARE(str(stuck.first(), "subject"), sessSubject(QStringLiteral("stuck-1")));
        const QJsonObject evidence = actualOf(stuck.first()).toArray().first().toObject();
        QCOMPARE(evidence.value(QLatin1String("num_ack_pending")).toInteger(), 3);
        QCOMPARE(evidence.value(QLatin1String("max_ack_pending")).toInteger(), 3);
        QVERIFY(evidence.value(QLatin1String("num_redelivered")).toInteger() >= 1);
        QVERIFY(ofClient(one, QStringLiteral("CONSUMER_STUCK"), QStringLiteral("stuck-2")).isEmpty());
        QCOMPARE(one.json.value(QLatin1String("two_sample_checks")).toObject().value(QLatin1String("run")).toBool(true), false);
        QVERIFY(!CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("check")}).out().isEmpty());
        const CliRunner::Run text = CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("check")});
        QVERIFY2(text.out().contains(QStringLiteral("compare two samples")), qPrintable(text.describe()));

        // Two samples (in-process, as check --watch does): stuck-2 received one message before the first and
        // one more before the second, acknowledging neither.
        ConnectionSet connections(acmeWithSystemProfile(url));
        DiagnosisGatherer::Request request;
        request.account = acme();
        QVERIFY(mqtt.publish(QStringLiteral("dev/slow/m"), "1", 1).acknowledged);
        QVERIFY(slow.take(1));
        auto first = DiagnosisGatherer::gather(connections, request);
        QVERIFY2(first, qPrintable(first ? QString() : first.error().toString()));
        QVERIFY(mqtt.publish(QStringLiteral("dev/slow/m"), "2", 1).acknowledged);
        QVERIFY(slow.take(2));
        request.previousSamples = DiagnosisGatherer::samplesOf(*first);
        auto second = DiagnosisGatherer::gather(connections, request);
        QVERIFY2(second, qPrintable(second ? QString() : second.error().toString()));
        bool slowStuck = false;
        for (const Finding &f : Checks::diagnose(*second))
            if (f.code == QLatin1String("CONSUMER_STUCK") && f.clientId == QLatin1String("stuck-2")) {
                slowStuck = true;
                QVERIFY2(f.detail.toString().contains(QStringLiteral("more time(s)")), qPrintable(f.detail.toString()));
                QVERIFY(f.actual.toArray().first().toObject().contains(QLatin1String("delivered_consumer_seq_before")));
            }
        QVERIFY2(slowStuck, qPrintable(findingCodes(Checks::diagnose(*second)).join(QLatin1Char(' '))));
        // Without the earlier sample stuck-2 is below its max_ack_pending: not stuck.
        request.previousSamples.clear();
        auto alone = DiagnosisGatherer::gather(connections, request);
        QVERIFY(alone);
        for (const Finding &f : Checks::diagnose(*alone))
            QVERIFY2(!(f.code == QLatin1String("CONSUMER_STUCK") && f.clientId == QLatin1String("stuck-2")),
                     qPrintable(f.detail.toString()));

        // check --sample-interval takes the two samples itself.
        const auto sampled = check(lab.cliArgs(), {QStringLiteral("--sample-interval"), QStringLiteral("1s")});
        QVERIFY2(sampled.jsonValid, qPrintable(describe(sampled)));
        const QJsonObject two = sampled.json.value(QLatin1String("two_sample_checks")).toObject();
        QCOMPARE(two.value(QLatin1String("run")).toBool(), true);
        QVERIFY(two.value(QLatin1String("seconds")).toDouble() >= 1.0);
        QCOMPARE(ofClient(sampled, QStringLiteral("CONSUMER_STUCK"), QStringLiteral("stuck-1")).size(), 1);
        QCOMPARE(check(lab.cliArgs(), {QStringLiteral("--sample-interval"), QStringLiteral("soon")}).exitCode(), 64);

        // The reset: record and durables gone (backed up), the client still connected, nothing stuck any more.
        QTemporaryDir backups;
        JetStreamClient js(*connections.primary());
        QCOMPARE(durablesOf(js, QStringLiteral("stuck-1")).size(), 1);
        const Outcome repaired = repairOnce(url, backups.path(), backups.filePath(QStringLiteral("audit.jsonl")), {}, true);
        QVERIFY2(repaired.error.isEmpty(), qPrintable(repaired.error));
        QVERIFY2(repaired.report.complete, QJsonDocument(repaired.plan.toJson()).toJson().constData());
        bool said = false;
        for (const RepairStep &s : repaired.plan.steps)
            if (s.action == QLatin1String("delete_session") && s.clientId == QLatin1String("stuck-1"))
                said = s.description.contains(QStringLiteral("loses the 5 queued message(s)"))
                    && s.description.contains(QStringLiteral("subscribe again"));
        QVERIFY2(said, QJsonDocument(repaired.plan.toJson()).toJson().constData());
        QVERIFY(durablesOf(js, QStringLiteral("stuck-1")).isEmpty());
        QVERIFY(!QDir(backups.path()).entryList({QStringLiteral("*.json*")}, QDir::Files).isEmpty());
        const auto after = check(lab.cliArgs());
        QVERIFY(ofClient(after, QStringLiteral("CONSUMER_STUCK"), QStringLiteral("stuck-1")).isEmpty());
        // The next CONNECT starts clean, and a new subscription delivers again.
        full.stop();
        QVERIFY(mqtt.createPersistentSession(QStringLiteral("stuck-1"), {QStringLiteral("dev/full/m")}, 1).subscribed());
        QVERIFY(mqtt.publish(QStringLiteral("dev/full/m"), "after-reset", 1).acknowledged);
        const MqttResult fresh = mqtt.subscribeAndCollect(QStringLiteral("stuck-1"), {QStringLiteral("dev/full/m")}, 1, 1, 10, true);
        QVERIFY2(fresh.receivedPayloads().contains(QStringLiteral("after-reset")), qPrintable(fresh.describe()));
    }

    void replacedDurable_data() { stuckConsumer_data(); }

    // The record names <hash>_A, gone; <hash>_B of the same filter holds the messages. One finding; the
    // repair points the record at _B, and the client gets the messages _B kept.
    void replacedDurable()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        const QString url = lab.url();
        MqttClient &mqtt = lab.mqtt();
        QVERIFY(lab.addSession(QStringLiteral("moved-1"), {QStringLiteral("moved/x")}).subscribed());
        ConnectionSet connections(acmeWithSystemProfile(url));
        JetStreamClient js(*connections.primary());
        const QStringList before = durablesOf(js, QStringLiteral("moved-1"));
        QCOMPARE(before.size(), 1);
        const QString a = before.first();
        auto info = js.call(QStringLiteral("CONSUMER.INFO.$MQTT_msgs.") + a);
        QVERIFY(info);
        QJsonObject config = info->value(QLatin1String("config")).toObject();
        const QString b = ClientIdHash::hash(QStringLiteral("moved-1")) + QStringLiteral("_Replaced1");
        config.insert(QStringLiteral("durable_name"), b);
        config.remove(QStringLiteral("name"));
        config.insert(QStringLiteral("deliver_subject"), QStringLiteral("$MQTT.sub.Replaced1Inbox"));
        QVERIFY(js.call(QStringLiteral("CONSUMER.DURABLE.CREATE.$MQTT_msgs.") + b,
                        QJsonObject{{QStringLiteral("stream_name"), QStringLiteral("$MQTT_msgs")}, {QStringLiteral("config"), config}}));
        QVERIFY(js.call(QStringLiteral("CONSUMER.DELETE.$MQTT_msgs.") + a));
        QVERIFY(mqtt.publish(QStringLiteral("moved/x"), "kept-1", 1).acknowledged);
        QVERIFY(mqtt.publish(QStringLiteral("moved/x"), "kept-2", 1).acknowledged);

        const auto broken = check(lab.cliArgs());
        QVERIFY2(broken.jsonValid, qPrintable(describe(broken)));
        const QList<QJsonObject> replaced = findingsWith(broken, QStringLiteral("SESSION_DURABLE_REPLACED"));
        QCOMPARE(replaced.size(), 1);
        QCOMPARE(str(replaced.first(), "client_id"), QStringLiteral("moved-1"));
        QCOMPARE(str(replaced.first(), "repair"), QStringLiteral("adopt_durable"));
        QCOMPARE(actualOf(replaced.first()).toObject().value(QLatin1String("live")).toString(), b);
        QCOMPARE(actualOf(replaced.first()).toObject().value(QLatin1String("num_pending")).toInteger(), 2);
        QVERIFY(findingsWith(broken, QStringLiteral("SESSION_MISSING_CONSUMER")).isEmpty());
        QVERIFY(findingsWith(broken, QStringLiteral("ORPHAN_CONSUMER")).isEmpty());

        QTemporaryDir backups;
        const Outcome repaired = repairOnce(url, backups.path(), backups.filePath(QStringLiteral("audit.jsonl")));
        QVERIFY2(repaired.error.isEmpty(), qPrintable(repaired.error));
        QVERIFY2(repaired.report.complete, QJsonDocument(repaired.plan.toJson()).toJson().constData());
        QCOMPARE(repaired.plan.steps.size(), 1);
        QCOMPARE(repaired.plan.steps.first().action, QStringLiteral("adopt_durable"));
        const auto after = check(lab.cliArgs());
        QVERIFY2(findingsWith(after, QStringLiteral("SESSION_DURABLE_REPLACED")).isEmpty(), qPrintable(describe(after)));
        QVERIFY(findingsWith(after, QStringLiteral("ORPHAN_CONSUMER")).isEmpty());
        // A rerun finds it done.
        const Outcome again = repairOnce(url, backups.path(), backups.filePath(QStringLiteral("audit.jsonl")));
        QVERIFY(again.plan.steps.isEmpty());
        // The client reconnects and gets what the live durable kept.
        const MqttResult back = mqtt.subscribeAndCollect(QStringLiteral("moved-1"), {QStringLiteral("moved/x")}, 1, 2, 10, true);
        QVERIFY2(back.receivedPayloads().contains(QStringLiteral("kept-1")) && back.receivedPayloads().contains(QStringLiteral("kept-2")),
                 qPrintable(back.describe()));
    }

    void pinnedAndApiErrors_data() { stuckConsumer_data(); }

    // An offline session keeps messages: INTEREST_PINNED above the threshold, `pinned` lists it. Clean-session
    // connects between two samples grow the account's API errors: JETSTREAM_API_ERRORS at a low threshold.
    void pinnedAndApiErrors()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        const QString url = lab.url();
        MqttClient &mqtt = lab.mqtt();
        QVERIFY(lab.addSession(QStringLiteral("away-1"), {QStringLiteral("away/#")}).subscribed());
        for (int i = 0; i < 3; ++i)
            QVERIFY(mqtt.publish(QStringLiteral("away/x"), QByteArray(100, 'p'), 1).acknowledged);

        const auto quiet = check(lab.cliArgs());
        QVERIFY(findingsWith(quiet, QStringLiteral("INTEREST_PINNED")).isEmpty()); // 3 is below the default 10000
        const auto pinned = check(lab.cliArgs(), {QStringLiteral("--pinned-warn-at"), QStringLiteral("2")});
        const QList<QJsonObject> found = ofClient(pinned, QStringLiteral("INTEREST_PINNED"), QStringLiteral("away-1"));
        QCOMPARE(found.size(), 1);
        QCOMPARE(str(found.first(), "severity"), QStringLiteral("warning"));
        QCOMPARE(str(found.first(), "repair"), QStringLiteral("delete_session"));
        QCOMPARE(actualOf(found.first()).toObject().value(QLatin1String("messages")).toInteger(), 3);
        QVERIFY(actualOf(found.first()).toObject().value(QLatin1String("bytes_estimated")).toInteger() >= 300);
        // Without a system connection the offline state is unknown: not claimed.
        QVERIFY(
            findingsWith(check(acmeArgs(url), {QStringLiteral("--pinned-warn-at"), QStringLiteral("2")}), QStringLiteral("INTEREST_PINNED"))
                .isEmpty());

        const CliRunner::Run listed = CliRunner::run(
            lab.cliArgs()
            + QStringList{QStringLiteral("pinned"), QStringLiteral("--json"), QStringLiteral("--pinned-warn-at"), QStringLiteral("2")});
        QCOMPARE(listed.exitCode(), 0);
        QVERIFY2(listed.jsonValid, qPrintable(listed.describe()));
        const QJsonArray holders = listed.json.value(QLatin1String("holders")).toArray();
        QCOMPARE(holders.size(), 1);
        const QJsonObject h = holders.first().toObject();
        QCOMPARE(h.value(QLatin1String("client_id")).toString(), QStringLiteral("away-1"));
        QCOMPARE(h.value(QLatin1String("kind")).toString(), QStringLiteral("session"));
        QCOMPARE(h.value(QLatin1String("connected")).toBool(true), false);
        QCOMPARE(h.value(QLatin1String("messages")).toInteger(), 3);
        QVERIFY(!h.value(QLatin1String("written")).toString().isEmpty());
        QCOMPARE(listed.json.value(QLatin1String("offline")).toObject().value(QLatin1String("above_threshold")).toInteger(), 1);
        const CliRunner::Run text =
            CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("pinned"), QStringLiteral("--pinned-warn-at"), QStringLiteral("2")});
        QVERIFY2(text.out().contains(QStringLiteral("! away-1")) && text.out().contains(QStringLiteral("--finding INTEREST_PINNED")),
                 qPrintable(text.describe()));
        QCOMPARE(
            CliRunner::run(lab.cliArgs() + QStringList{QStringLiteral("pinned"), QStringLiteral("--top"), QStringLiteral("-1")}).exitCode(),
            64);

        // API errors: three clean-session connects between two samples each cost a session lookup that finds nothing.
        ConnectionSet connections(acmeWithSystemProfile(url));
        DiagnosisGatherer::Request request;
        request.account = acme();
        request.options.apiErrorsPerMinute = 1;
        auto first = DiagnosisGatherer::gather(connections, request);
        QVERIFY(first);
        for (int i = 0; i < 3; ++i)
            QVERIFY(mqtt.connectOnce(QStringLiteral("passer-%1").arg(i)).connected());
        request.previousSamples = DiagnosisGatherer::samplesOf(*first);
        auto second = DiagnosisGatherer::gather(connections, request);
        QVERIFY(second);
        std::optional<Finding> errors;
        for (const Finding &f : Checks::diagnose(*second))
            if (f.code == QLatin1String("JETSTREAM_API_ERRORS"))
                errors = f;
        QVERIFY2(errors, qPrintable(findingCodes(Checks::diagnose(*second)).join(QLatin1Char(' '))));
        QVERIFY(errors->actual.toObject().value(QLatin1String("errors")).toInteger() >= 3);
        QVERIFY(errors->detail.toString().contains(QStringLiteral("SP session persist")));
        // At the default threshold three errors are a trickle (unless the samples were less than 3 s apart).
        request.options.apiErrorsPerMinute = 1000000;
        auto third = DiagnosisGatherer::gather(connections, request);
        QVERIFY(third);
        QVERIFY(!findingCodes(Checks::diagnose(*third)).contains(QStringLiteral("JETSTREAM_API_ERRORS")));
    }
};

QTEST_GUILESS_MAIN(TestDeliveryFindings)
#include "tst_deliveryfindings.moc"
