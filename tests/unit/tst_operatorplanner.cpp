// OperatorRequest, SessionPolicy and OperatorPlanner on made-up account states (no server): what is selected, what
// is left alone and why, batching, disconnect-first ordering, durables another record keeps, and the versions that
// decide how a connection is closed and whether a retained message can be cleared without MQTT.
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include "diagnosis/findingcodes.h"
#include "mqtt/clientidhash.h"
#include "records/sessionloader.h"
#include "repair/operator/operatorplanner.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

const QDateTime written = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);

SessionEntry session(const QString &clientId, const QStringList &durables, bool withSubs = true, qint64 ageDays = 2)
{
    const QString hash = ClientIdHash::hash(clientId);
    QJsonObject cons, subs;
    for (const QString &d : durables) {
        cons.insert(u"t."_s + d, QJsonObject{{u"durable_name"_s, d}});
    }
    if (withSubs)
        subs.insert(u"t."_s + clientId, 1);
    QJsonObject rec{{u"id"_s, clientId}, {u"cons"_s, cons}, {u"subs"_s, subs}};
    StreamMessage m;
    m.subject = u"$MQTT.sess."_s + hash;
    m.sequence = quint64(qHash(clientId) % 1000 + 2);
    m.timeNs = written.addDays(2 - ageDays).toMSecsSinceEpoch() * 1000000;
    m.data = QJsonDocument(rec).toJson(QJsonDocument::Compact);
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

QJsonObject consumer(const QString &name, qint64 pending)
{
    return QJsonObject{{u"name"_s, name},
                       {u"num_pending"_s, pending},
                       {u"config"_s, QJsonObject{{u"durable_name"_s, name}, {u"filter_subject"_s, u"$MQTT.msgs.t"_s}}}};
}

struct State
{
    SessionCheckInput records;
    OperatorInput input;
};

/** Sessions joined with `msgs` durables; `connected` client IDs on server n1 (version). */
std::unique_ptr<State> state(const QList<SessionEntry> &sessions, const QList<QJsonObject> &msgs, const QStringList &connected = {},
                             const QString &version = u"2.10.27"_s)
{
    auto s = std::make_unique<State>();
    s->records.account = u"ACME"_s;
    s->records.consumersKnown = true;
    SessionLoader::indexConsumers(s->records.consumers, u"$MQTT_msgs"_s, msgs);
    SessionLoader::ConnectedClients conn;
    for (const QString &c : connected)
        conn.insert(c, u"n1"_s);
    s->records.connected = conn;
    for (SessionEntry e : sessions) {
        SessionLoader::joinConsumers(e, s->records.consumers, true);
        SessionLoader::joinConnected(e, s->records.connected);
        s->records.sessions.append(e);
    }
    s->records.now = written.addDays(2);
    s->input.account = u"ACME"_s;
    ServerInfo server;
    server.name = u"n1"_s;
    server.version = version;
    s->input.servers = {server};
    s->input.records = &s->records;
    QList<MqttConnection> conns;
    for (const QString &c : connected)
        conns << MqttConnection{c, u"NID1"_s, u"n1"_s, version, 7, u"10.0.0.1:5000"_s, {}};
    s->input.connections = conns;
    s->input.hasSystem = true;
    s->input.now = written.addDays(2);
    return s;
}

OperatorRequest request(OperatorRequest::Verb verb, const QStringList &ids = {})
{
    OperatorRequest r;
    r.verb = verb;
    r.account = u"ACME"_s;
    if (verb == OperatorRequest::Verb::ClearRetained)
        r.topics = ids;
    else
        r.clientIds = ids;
    return r;
}

QStringList whys(const OperatorPlan &p)
{
    QStringList out;
    for (const ActionSelection::Item &i : p.selection.left)
        out << i.clientId + i.topic + u": "_s + i.why;
    return out;
}

} // namespace

class TestOperatorPlanner : public QObject
{
    Q_OBJECT

private slots:
    void requestValidation()
    {
        OperatorRequest r = request(OperatorRequest::Verb::DeleteSessions);
        QVERIFY(!r.validate()); // nothing selected
        r.policy.clientIdGlob = u"sensor-*"_s;
        QVERIFY(r.validate());
        OperatorRequest d = request(OperatorRequest::Verb::Disconnect);
        QVERIFY(!d.validate());
        d.clientIds = {u""_s};
        QVERIFY(!d.validate());
        OperatorRequest c = request(OperatorRequest::Verb::ClearRetained, {u"a/#/b"_s});
        auto bad = c.validate();
        QVERIFY(!bad);
        QVERIFY2(bad.error().message().contains(u"\"#\" must be the last level"_s), qPrintable(bad.error().message()));
        c.topics = {u"a/b+/c"_s};
        QVERIFY(!c.validate());
        c.topics = {u"sensors/+/temp"_s, u"status/#"_s, u"exact/topic"_s};
        QVERIFY(c.validate());
        // The journal's copy comes back the same.
        r.policy.notSeenForSecs = 3600;
        r.disconnectFirst = true;
        auto back = OperatorRequest::fromJson(r.toJson());
        QVERIFY(back);
        QCOMPARE(back->toJson(), r.toJson());
        QVERIFY(!OperatorRequest::fromJson(QJsonObject{{u"action"_s, u"explode"_s}}));
        QCOMPARE(OperatorRequest::verbFromName(u"drop-backlog"_s), OperatorRequest::Verb::DropBacklog);
    }

    void policyMatching()
    {
        SessionPolicy p;
        p.clientIdGlob = u"plant/*/sensor-[0-9]?"_s;
        const auto st = state({session(u"plant/a/sensor-12"_s, {}), session(u"plant/a/sensor-x2"_s, {})}, {});
        const auto &batch = st->records.sessions.batches().first();
        QVERIFY(p.matches(batch.at(0), st->input.now)); // '*' spans '/'
        QVERIFY(!p.matches(batch.at(1), st->input.now));
        SessionPolicy age;
        age.notSeenForSecs = 3 * 86400;
        const auto old =
            state({session(u"old"_s, {}, true, 5), session(u"new"_s, {}, true, 1), session(u"oldlive"_s, {}, true, 5)}, {}, {u"oldlive"_s});
        const auto &b = old->records.sessions.batches().first();
        QVERIFY(age.matches(b.at(0), old->input.now));
        QVERIFY(!age.matches(b.at(1), old->input.now));
        QVERIFY(!age.matches(b.at(2), old->input.now)); // connected: seen now
        SessionPolicy none;
        none.noSubscriptions = true;
        const auto subs = state({session(u"quiet"_s, {}, false), session(u"busy"_s, {}, true)}, {});
        QVERIFY(none.matches(subs->records.sessions.batches().first().at(0), subs->input.now));
        QVERIFY(!none.matches(subs->records.sessions.batches().first().at(1), subs->input.now));
        QVERIFY(age.text().contains(u"3d"_s) || age.text().contains(u"3 d"_s));
    }

    void deleteSessionsPlan()
    {
        const QString h1 = ClientIdHash::hash(u"dev1"_s);
        const QString h2 = ClientIdHash::hash(u"dev2"_s);
        const QString shared = h2 + u"_shared"_s;
        // dev1 names its own durable and one dev2 also names (kept); live is connected.
        const auto st = state({session(u"dev1"_s, {h1 + u"_own"_s, shared}), session(u"dev2"_s, {shared}), session(u"live"_s, {})},
                              {consumer(h1 + u"_own"_s, 40), consumer(shared, 3)}, {u"live"_s});
        OperatorPlan p =
            OperatorPlanner::plan(st->input, request(OperatorRequest::Verb::DeleteSessions, {u"dev1"_s, u"live"_s, u"ghost"_s}));
        QCOMPARE(p.plan.steps.size(), 1);
        const RepairStep &s = p.plan.steps.first();
        QCOMPARE(s.action, RepairActions::deleteSessions());
        QVERIFY(s.destructive);
        QCOMPARE(s.findingCode, u"OPERATOR"_s);
        QCOMPARE(s.params.value(u"consumers"_s).toArray().size(), 1);
        QCOMPARE(p.counts.sessions, 1);
        QCOMPARE(p.counts.durables, 1);
        QCOMPARE(p.counts.queuedMessages, 40);
        QVERIFY2(p.notes.join(u' ').contains(shared), qPrintable(p.notes.join(u'\n')));
        const QStringList left = whys(p);
        QCOMPARE(left.size(), 2);
        QVERIFY2(left.join(u'\n').contains(u"live: connected to n1"_s), qPrintable(left.join(u'\n')));
        QVERIFY2(left.join(u'\n').contains(u"ghost: no session record"_s), qPrintable(left.join(u'\n')));
        // Every request is exact: a delete by sequence and a consumer delete.
        QCOMPARE(s.requests.size(), 2);
        QVERIFY(s.requests.at(0).subject.endsWith(u"STREAM.MSG.DELETE.$MQTT_sess"_s));

        // Disconnect first: the kick comes before the batch, which depends on it.
        OperatorRequest first = request(OperatorRequest::Verb::DeleteSessions, {u"live"_s});
        first.disconnectFirst = true;
        OperatorPlan q = OperatorPlanner::plan(st->input, first);
        QCOMPARE(q.plan.steps.size(), 2);
        QCOMPARE(q.plan.steps.at(0).action, RepairActions::disconnectClient());
        QCOMPARE(q.plan.steps.at(0).requests.first().subject, u"$SYS.REQ.SERVER.NID1.KICK"_s);
        QCOMPARE(q.plan.steps.at(1).dependsOn, QStringList{q.plan.steps.at(0).id});

        // Batches of the requested size.
        QList<SessionEntry> many;
        for (int i = 0; i < 7; ++i)
            many << session(u"b%1"_s.arg(i), {});
        const auto big = state(many, {});
        OperatorRequest batched = request(OperatorRequest::Verb::DeleteSessions);
        batched.policy.clientIdGlob = u"b*"_s;
        batched.batchSize = 3;
        OperatorPlan r = OperatorPlanner::plan(big->input, batched);
        QCOMPARE(r.plan.steps.size(), 3);
        QCOMPARE(r.plan.steps.at(2).params.value(u"sessions"_s).toArray().size(), 1);
        QCOMPARE(r.counts.sessions, 7);
    }

    void disconnectByVersion()
    {
        const auto newer = state({}, {}, {u"dev"_s}, u"2.10.27"_s);
        OperatorPlan kick = OperatorPlanner::plan(newer->input, request(OperatorRequest::Verb::Disconnect, {u"dev"_s, u"away"_s}));
        QCOMPARE(kick.plan.steps.size(), 1);
        QCOMPARE(kick.plan.steps.first().params.value(u"method"_s).toString(), u"kick"_s);
        QCOMPARE(whys(kick), QStringList{u"away: not connected"_s});
        // 2.9 has no kick request: without the MQTT user nothing can close it, and the reason names both ways.
        const auto old = state({}, {}, {u"dev"_s}, u"2.9.10"_s);
        OperatorPlan none = OperatorPlanner::plan(old->input, request(OperatorRequest::Verb::Disconnect, {u"dev"_s}));
        QVERIFY(none.isEmpty());
        QVERIFY2(whys(none).join(u' ').contains(u"no kick request"_s) && whys(none).join(u' ').contains(u"mqtt_probe"_s),
                 qPrintable(whys(none).join(u' ')));
        // ... with it, a takeover through the listener.
        MqttProbeRequest mqtt;
        mqtt.host = u"127.0.0.1"_s;
        mqtt.port = 1883;
        mqtt.user = u"acme"_s;
        old->input.mqtt = mqtt;
        OperatorPlan takeover = OperatorPlanner::plan(old->input, request(OperatorRequest::Verb::Disconnect, {u"dev"_s}));
        QCOMPARE(takeover.plan.steps.first().params.value(u"method"_s).toString(), u"takeover"_s);
        QVERIFY(!takeover.plan.steps.first().requests.first().body.contains(u"password"_s));
        // Connections unknown: nothing planned, said.
        newer->input.connections.reset();
        OperatorPlan unknown = OperatorPlanner::plan(newer->input, request(OperatorRequest::Verb::Disconnect, {u"dev"_s}));
        QVERIFY(unknown.isEmpty());
        QVERIFY(whys(unknown).first().contains(u"unknown"_s));
    }

    void clearRetainedPlan()
    {
        const auto st = state({}, {}, {}, u"2.9.10"_s);
        QList<RetainedEntry> retained;
        for (const QString &topic : {u"sensors/a/temp"_s, u"sensors/b/temp"_s, u"status/gateway"_s}) {
            RetainedEntry e;
            e.storedSubject = u"$MQTT.rmsgs"_s;
            e.seq = quint64(retained.size() + 1);
            RetainedRecord r;
            r.topic = topic;
            e.record = r;
            retained << e;
        }
        st->input.retained = retained;
        OperatorRequest r = request(OperatorRequest::Verb::ClearRetained, {u"sensors/+/temp"_s});
        // 2.9 without MQTT: refused, the reason says why.
        OperatorPlan refused = OperatorPlanner::plan(st->input, r);
        QVERIFY(refused.isEmpty());
        QVERIFY(refused.notes.join(u' ').contains(u"in memory"_s));
        MqttProbeRequest mqtt;
        mqtt.host = u"127.0.0.1"_s;
        st->input.mqtt = mqtt;
        OperatorPlan p = OperatorPlanner::plan(st->input, r);
        QCOMPARE(p.counts.retained, 2);
        QCOMPARE(p.plan.steps.first().requests.size(), 2);
        QCOMPARE(p.plan.steps.first().requests.first().body.value(u"publish"_s).toString(), u"sensors/a/temp"_s);
        r.topics = {u"nothing/#"_s};
        OperatorPlan none = OperatorPlanner::plan(st->input, r);
        QVERIFY(none.isEmpty());
        QCOMPARE(whys(none), QStringList{u"nothing/#: no retained message on it"_s});
    }

    void countsText()
    {
        ActionCounts c;
        QCOMPARE(c.text(), u"nothing"_s);
        c.sessions = 1;
        c.queuedMessages = 50000;
        QCOMPARE(c.text(), u"1 session record, 50,000 queued messages"_s);
    }
};

QTEST_GUILESS_MAIN(TestOperatorPlanner)
#include "tst_operatorplanner.moc"
