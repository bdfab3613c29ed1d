// The checks of delivery progress, replaced durables, interest pinning and JetStream API errors on
// hand-made inputs: the edges a live server reaches only slowly (thresholds, incomparable counters, two
// candidate durables, unknown connections).
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/accountsample.h"
#include "diagnosis/apierrorchecks.h"
#include "diagnosis/checks.h"
#include "diagnosis/consumerowner.h"
#include "diagnosis/deliverychecks.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/interestholder.h"
#include "diagnosis/sessionchecks.h"
#include "mqtt/clientidhash.h"

using namespace MqttDoctor;

namespace {

const QDateTime written = QDateTime(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC);

QString hashOf(const QString &clientId)
{
    return ClientIdHash::hash(clientId);
}

// A record of `clientId` subscribing to each filter with the given durable (filter "t.<n>").
SessionEntry record(const QString &clientId, const QList<std::pair<QString, QString>> &durableAndFilter, quint64 seq = 1)
{
    QJsonObject cons;
    QJsonObject subs;
    for (const auto &[durable, filter] : durableAndFilter) {
        cons.insert(filter,
                    QJsonObject{{QStringLiteral("durable_name"), durable},
                                {QStringLiteral("filter_subject"), QString(QStringLiteral("$MQTT.msgs.") + filter)}});
        subs.insert(filter, 1);
    }
    const QJsonObject rec{{QStringLiteral("id"), clientId}, {QStringLiteral("subs"), subs}, {QStringLiteral("cons"), cons}};
    StreamMessage m;
    m.subject = QStringLiteral("$MQTT.sess.") + hashOf(clientId);
    m.sequence = seq;
    m.timeNs = written.toMSecsSinceEpoch() * 1000000;
    m.data = QJsonDocument(rec).toJson(QJsonDocument::Compact);
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

struct Progress
{
    qint64 delivered = 0;
    qint64 ackFloor = 0;
    qint64 ackPending = 0;
    qint64 redelivered = 0;
    qint64 maxAckPending = 1024;
    qint64 pending = 0;
};

QJsonObject durable(const QString &name, const QString &filter, const Progress &p = {})
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("num_pending"), p.pending},
                       {QStringLiteral("num_ack_pending"), p.ackPending},
                       {QStringLiteral("num_redelivered"), p.redelivered},
                       {QStringLiteral("delivered"),
                        QJsonObject{{QStringLiteral("consumer_seq"), p.delivered}, {QStringLiteral("stream_seq"), p.delivered}}},
                       {QStringLiteral("ack_floor"),
                        QJsonObject{{QStringLiteral("consumer_seq"), p.ackFloor}, {QStringLiteral("stream_seq"), p.ackFloor}}},
                       {QStringLiteral("config"),
                        QJsonObject{{QStringLiteral("durable_name"), name},
                                    {QStringLiteral("filter_subject"), QString(QStringLiteral("$MQTT.msgs.") + filter)},
                                    {QStringLiteral("max_ack_pending"), p.maxAckPending}}}};
}

SessionCheckInput inputOf(const QList<SessionEntry> &sessions, const QList<QJsonObject> &msgs)
{
    SessionCheckInput in;
    in.account = QStringLiteral("ACME");
    in.consumersKnown = true;
    SessionLoader::indexConsumers(in.consumers, QStringLiteral("$MQTT_msgs"), msgs);
    for (SessionEntry e : sessions) {
        SessionLoader::joinConsumers(e, in.consumers, true);
        in.sessions.append(e);
    }
    in.now = written.addSecs(3600);
    return in;
}

AccountInfo accountWith(const QList<QJsonObject> &msgs, qint64 messages = 100, qint64 bytes = 100 * 250)
{
    AccountInfo a;
    a.name = QStringLiteral("ACME");
    a.jetstream = true;
    a.streamsKnown = true;
    a.source = QStringLiteral("api");
    StreamInfo s;
    s.name = QStringLiteral("$MQTT_msgs");
    s.state = QJsonObject{{QStringLiteral("messages"), messages}, {QStringLiteral("bytes"), bytes}};
    s.consumers = msgs;
    s.consumersKnown = true;
    a.streams = {s};
    return a;
}

QStringList codesOf(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

} // namespace

class TestDeliveryChecks : public QObject
{
    Q_OBJECT

private slots:
    void replacedDurableIsOneFinding()
    {
        const QString h = hashOf(QStringLiteral("dev-1"));
        const SessionEntry rec = record(QStringLiteral("dev-1"), {{h + QStringLiteral("_A"), QStringLiteral("t.a")}});
        SessionCheckInput in = inputOf({rec}, {durable(h + QStringLiteral("_B"), QStringLiteral("t.a"), {.pending = 5})});
        in.connected = SessionLoader::ConnectedClients{};
        const QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(codesOf(f), QStringList{FindingCodes::sessionDurableReplaced()});
        QCOMPARE(f.first().clientId, QStringLiteral("dev-1"));
        QCOMPARE(f.first().repair, QStringLiteral("adopt_durable"));
        QCOMPARE(f.first().actual.toObject().value(QLatin1String("live")).toString(), h + QStringLiteral("_B"));
        QCOMPARE(f.first().actual.toObject().value(QLatin1String("num_pending")).toInteger(), 5);
        QCOMPARE(f.first().expected.toObject().value(QLatin1String("consumer")).toString(), h + QStringLiteral("_A"));
        QVERIFY(f.first().title.toString().contains(h + QStringLiteral("_B")));
        // The consumers view's rule agrees: _B is the session's, standing in for _A, not an orphan; it holds dev-1's messages.
        const QList<ConsumerOwner> owners = ConsumerOwner::ofAccount(in);
        QCOMPARE(owners.size(), 1);
        QVERIFY(!owners.first().isOrphan());
        QCOMPARE(owners.first().replacing, h + QStringLiteral("_A"));
        QCOMPARE(owners.first().clientId, QStringLiteral("dev-1"));
        const QList<InterestHolder> holders = InterestHolder::ofAccount(in, accountWith({}));
        QCOMPARE(holders.size(), 1);
        QCOMPARE(holders.first().clientId, QStringLiteral("dev-1"));
        QCOMPARE(holders.first().kind, InterestHolder::Kind::Session);
    }

    void replacementNeedsOneDurableWithTheSameFilter()
    {
        const QString h = hashOf(QStringLiteral("dev-1"));
        const SessionEntry rec = record(QStringLiteral("dev-1"), {{h + QStringLiteral("_A"), QStringLiteral("t.a")}});
        // Another filter: a missing durable and an orphan, as before.
        SessionCheckInput other = inputOf({rec}, {durable(h + QStringLiteral("_B"), QStringLiteral("t.other"))});
        other.connected = SessionLoader::ConnectedClients{};
        QCOMPARE(codesOf(Checks::checkSessions(other)),
                 (QStringList{FindingCodes::sessionMissingConsumer(), FindingCodes::orphanConsumer()}));
        // Two candidates: which one the server meant cannot be told.
        SessionCheckInput two = inputOf(
            {rec}, {durable(h + QStringLiteral("_B"), QStringLiteral("t.a")), durable(h + QStringLiteral("_C"), QStringLiteral("t.a"))});
        two.connected = SessionLoader::ConnectedClients{};
        QCOMPARE(codesOf(Checks::checkSessions(two)),
                 (QStringList{FindingCodes::sessionMissingConsumer(), FindingCodes::orphanConsumer(), FindingCodes::orphanConsumer()}));
        // Another hash: not this session's.
        const QString g = hashOf(QStringLiteral("dev-2"));
        SessionCheckInput foreign = inputOf({rec}, {durable(g + QStringLiteral("_B"), QStringLiteral("t.a"))});
        foreign.connected = SessionLoader::ConnectedClients{};
        QCOMPARE(codesOf(Checks::checkSessions(foreign)),
                 (QStringList{FindingCodes::sessionMissingConsumer(), FindingCodes::orphanConsumer()}));
    }

    void stuckAcrossTwoSamples()
    {
        const QString h = hashOf(QStringLiteral("dev-1"));
        const QString name = h + QStringLiteral("_A");
        const SessionEntry rec = record(QStringLiteral("dev-1"), {{name, QStringLiteral("t.a")}});
        const QJsonObject before = durable(name, QStringLiteral("t.a"), {.delivered = 10, .ackFloor = 0, .ackPending = 10});
        const QJsonObject after = durable(name, QStringLiteral("t.a"), {.delivered = 15, .ackFloor = 0, .ackPending = 15, .pending = 2});
        SessionCheckInput in = inputOf({rec}, {after});
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("dev-1"), QStringLiteral("n1")}};
        const AccountSample previous = AccountSample::of(accountWith({before}), in.now.addSecs(-5));
        QVERIFY(previous.consumersKnown);
        QCOMPARE(previous.consumers.value(name).deliveredConsumerSeq, 10);

        const QList<Finding> f = Checks::checkStuckConsumers(in, &previous);
        QCOMPARE(codesOf(f), QStringList{FindingCodes::consumerStuck()});
        QCOMPARE(f.first().repair, QStringLiteral("delete_session"));
        QVERIFY2(f.first().detail.toString().contains(QStringLiteral("delivered 5 more time(s) in 5s")),
                 qPrintable(f.first().detail.toString()));
        QVERIFY(f.first().detail.toString().contains(QStringLiteral("17 queued message(s)")));
        QCOMPARE(f.first().actual.toArray().first().toObject().value(QLatin1String("delivered_consumer_seq_before")).toInteger(), 10);

        // One sample only: not stuck by that rule (far from max_ack_pending).
        QVERIFY(Checks::checkStuckConsumers(in, nullptr).isEmpty());
        // The ack floor moved: it is acknowledging.
        const AccountSample acking = AccountSample::of(
            accountWith({durable(name, QStringLiteral("t.a"), {.delivered = 10, .ackFloor = 0, .ackPending = 10})}), in.now.addSecs(-5));
        SessionCheckInput moved =
            inputOf({rec}, {durable(name, QStringLiteral("t.a"), {.delivered = 15, .ackFloor = 12, .ackPending = 3})});
        moved.connected = in.connected;
        QVERIFY(Checks::checkStuckConsumers(moved, &acking).isEmpty());
        // Not connected: an offline session's durable does not deliver; nothing to say here.
        in.connected = SessionLoader::ConnectedClients{};
        QVERIFY(Checks::checkStuckConsumers(in, &previous).isEmpty());
        in.connected.reset();
        QVERIFY(Checks::checkStuckConsumers(in, &previous).isEmpty());
    }

    void stuckAtMaxAckPendingInOneSample()
    {
        const QString h = hashOf(QStringLiteral("dev-1"));
        const QString name = h + QStringLiteral("_A");
        const SessionEntry rec = record(QStringLiteral("dev-1"), {{name, QStringLiteral("t.a")}});
        SessionCheckInput in =
            inputOf({rec}, {durable(name, QStringLiteral("t.a"), {.delivered = 3, .ackPending = 3, .redelivered = 2, .maxAckPending = 3})});
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("dev-1"), QStringLiteral("n1")}};
        const QList<Finding> f = Checks::checkStuckConsumers(in, nullptr);
        QCOMPARE(codesOf(f), QStringList{FindingCodes::consumerStuck()});
        QVERIFY(f.first().detail.toString().contains(QStringLiteral("its max_ack_pending")));
        // No redelivery yet: waiting for acks within ack_wait is normal.
        SessionCheckInput fresh =
            inputOf({rec}, {durable(name, QStringLiteral("t.a"), {.delivered = 3, .ackPending = 3, .maxAckPending = 3})});
        fresh.connected = in.connected;
        QVERIFY(Checks::checkStuckConsumers(fresh, nullptr).isEmpty());
    }

    void pinnedByOfflineSessions()
    {
        const QString a = hashOf(QStringLiteral("gone")) + QStringLiteral("_A");
        const QString b = hashOf(QStringLiteral("here")) + QStringLiteral("_B");
        const SessionEntry gone = record(QStringLiteral("gone"), {{a, QStringLiteral("t.a")}});
        const SessionEntry here = record(QStringLiteral("here"), {{b, QStringLiteral("t.a")}});
        const QList<QJsonObject> msgs{durable(a, QStringLiteral("t.a"), {.pending = 20}),
                                      durable(b, QStringLiteral("t.a"), {.pending = 50})};
        SessionCheckInput in = inputOf({gone, here}, msgs);
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("here"), QStringLiteral("n1")}};
        const AccountInfo account = accountWith(msgs);
        CheckOptions options;
        options.pinnedWarnAt = 10;
        const QList<Finding> f = Checks::checkInterestPinned(in, account, options);
        QCOMPARE(codesOf(f), QStringList{FindingCodes::interestPinned()});
        QCOMPARE(f.first().clientId, QStringLiteral("gone"));
        QCOMPARE(f.first().actual.toObject().value(QLatin1String("messages")).toInteger(), 20);
        QCOMPARE(f.first().actual.toObject().value(QLatin1String("bytes_estimated")).toInteger(), 20 * 250);
        QCOMPARE(f.first().repair, QStringLiteral("delete_session"));
        // At the threshold: not above it.
        options.pinnedWarnAt = 20;
        QVERIFY(Checks::checkInterestPinned(in, account, options).isEmpty());
        // Connected clients unknown: offline cannot be told.
        options.pinnedWarnAt = 10;
        in.connected.reset();
        QVERIFY(Checks::checkInterestPinned(in, account, options).isEmpty());
    }

    void holdersMostBytesFirst()
    {
        const QString a = hashOf(QStringLiteral("gone")) + QStringLiteral("_A");
        const QString b = hashOf(QStringLiteral("here")) + QStringLiteral("_B");
        const QString orphan = hashOf(QStringLiteral("nobody")) + QStringLiteral("_X");
        const SessionEntry gone = record(QStringLiteral("gone"), {{a, QStringLiteral("t.a")}});
        const SessionEntry here = record(QStringLiteral("here"), {{b, QStringLiteral("t.a")}});
        const QList<QJsonObject> msgs{
            durable(a, QStringLiteral("t.a"), {.pending = 20}), durable(b, QStringLiteral("t.a"), {.ackPending = 4, .pending = 46}),
            durable(orphan, QStringLiteral("t.z"), {.pending = 7}), durable(QStringLiteral("idle"), QStringLiteral("t.z"))};
        SessionCheckInput in = inputOf({gone, here}, msgs);
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("here"), QStringLiteral("n1")}};
        const QList<InterestHolder> holders = InterestHolder::ofAccount(in, accountWith(msgs));
        QCOMPARE(holders.size(), 3); // the idle durable holds nothing
        QCOMPARE(holders.at(0).clientId, QStringLiteral("here"));
        QCOMPARE(holders.at(0).messages, 50);
        QCOMPARE(holders.at(0).unacknowledged, 4);
        QCOMPARE(holders.at(0).connected, std::optional<bool>(true));
        QCOMPARE(holders.at(0).server, QStringLiteral("n1"));
        QCOMPARE(holders.at(1).clientId, QStringLiteral("gone"));
        QCOMPARE(holders.at(1).connected, std::optional<bool>(false));
        QCOMPARE(holders.at(1).written, written);
        QCOMPARE(holders.at(1).bytes, 20 * 250);
        QCOMPARE(holders.at(2).kind, InterestHolder::Kind::Orphan);
        QCOMPARE(holders.at(2).hash, hashOf(QStringLiteral("nobody")));
        QCOMPARE(holders.at(2).toJson().value(QLatin1String("kind")).toString(), QStringLiteral("orphan"));
        QVERIFY(holders.at(2).toJson().value(QLatin1String("client_id")).isNull());
    }

    void apiErrorsGrowingFastEnough()
    {
        AccountInfo acc = accountWith({});
        acc.api = JetStreamApiCounts{1000, 400, QStringLiteral("jsz"), 3};
        AccountSample before;
        before.account = acc.name;
        before.time = written;
        before.api = JetStreamApiCounts{900, 300, QStringLiteral("jsz"), 3};
        // 100 errors in 60 s: above 60 per minute.
        auto f = Checks::checkApiErrors(acc, before, written.addSecs(60));
        QVERIFY(f);
        QCOMPARE(f->code, FindingCodes::jetStreamApiErrors());
        QCOMPARE(f->actual.toObject().value(QLatin1String("errors")).toInteger(), 100);
        QCOMPARE(f->actual.toObject().value(QLatin1String("requests")).toInteger(), 100);
        QVERIFY(f->detail.toString().contains(QStringLiteral("SP session persist")));
        QVERIFY(f->detail.toString().contains(QStringLiteral("summed over the 3 server(s)")));
        // The same 100 over 10 minutes: a trickle.
        QVERIFY(!Checks::checkApiErrors(acc, before, written.addSecs(600)));
        // A lower threshold reports it.
        CheckOptions options;
        options.apiErrorsPerMinute = 5;
        QVERIFY(Checks::checkApiErrors(acc, before, written.addSecs(600), options));
        // Other servers counted, a restart (counters went down), or no earlier counters: not compared.
        before.api->servers = 2;
        QVERIFY(!Checks::checkApiErrors(acc, before, written.addSecs(60)));
        before.api = JetStreamApiCounts{900, 500, QStringLiteral("jsz"), 3};
        QVERIFY(!Checks::checkApiErrors(acc, before, written.addSecs(60)));
        before.api.reset();
        QVERIFY(!Checks::checkApiErrors(acc, before, written.addSecs(60)));
    }

    void diagnoseRunsTheComparisonsOnlyWithASample()
    {
        AccountInfo acc = accountWith({});
        acc.api = JetStreamApiCounts{1000, 400, QStringLiteral("api"), 1};
        DiagnosisInput in;
        in.accounts = {acc};
        in.sampledAt = written.addSecs(10);
        QVERIFY(!codesOf(Checks::diagnose(in)).contains(FindingCodes::jetStreamApiErrors()));
        AccountSample before = AccountSample::of(acc, written);
        before.api = JetStreamApiCounts{950, 300, QStringLiteral("api"), 1};
        in.previousSamples.insert(acc.name, before);
        QVERIFY(codesOf(Checks::diagnose(in)).contains(FindingCodes::jetStreamApiErrors()));
    }
};

QTEST_GUILESS_MAIN(TestDeliveryChecks)
#include "tst_deliverychecks.moc"
