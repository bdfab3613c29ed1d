// Checks::checkSessions on hand-made inputs: the edges the live test cannot reach cheaply (what is not
// an orphan, what is unknown, many duplicates, boundaries of the stale threshold).
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <QTextStream>

#include "diagnosis/sessionchecks.h"
#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/findinglist.h"
#include "diagnosis/missingconsumerfindings.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/findingcatalogue.h"
#include "mqtt/clientidhash.h"

using namespace MqttDoctor;

namespace {

const QDateTime written = QDateTime(QDate(2026, 11, 1), QTime(12, 0), Qt::UTC);

SessionEntry session(const QString &clientId, const QStringList &durables, const QString &pubrel = {})
{
    const QString hash = ClientIdHash::hash(clientId);
    QJsonObject cons;
    for (const QString &d : durables)
        cons.insert(QStringLiteral("t.") + d, QJsonObject{{QStringLiteral("durable_name"), d}});
    QJsonObject rec{{QStringLiteral("id"), clientId}, {QStringLiteral("cons"), cons}};
    if (!pubrel.isEmpty())
        rec.insert(QStringLiteral("pubrel"), QJsonObject{{QStringLiteral("durable_name"), pubrel}});
    StreamMessage m;
    m.subject = QStringLiteral("$MQTT.sess.") + hash;
    m.sequence = 1;
    m.timeNs = written.toMSecsSinceEpoch() * 1000000;
    m.data = QJsonDocument(rec).toJson(QJsonDocument::Compact);
    return SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10);
}

QJsonObject consumer(const QString &name, qint64 pending = 0)
{
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("num_pending"), pending},
                       {QStringLiteral("config"), QJsonObject{{QStringLiteral("durable_name"), name}}}};
}

SessionCheckInput input(const QList<SessionEntry> &sessions, const QList<QJsonObject> &msgs, const QList<QJsonObject> &out = {})
{
    SessionCheckInput in;
    in.account = QStringLiteral("ACME");
    in.consumersKnown = true;
    SessionLoader::indexConsumers(in.consumers, QStringLiteral("$MQTT_msgs"), msgs);
    SessionLoader::indexConsumers(in.consumers, QStringLiteral("$MQTT_out"), out);
    for (SessionEntry e : sessions) {
        SessionLoader::joinConsumers(e, in.consumers, true);
        in.sessions.append(e);
    }
    in.now = written.addDays(2);
    return in;
}

QStringList codes(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code;
    return out;
}

// The findings as the CLI writes them (Finding::writeJson), and as the JSON of Finding::toJson() is written.
std::pair<QString, QString> writtenBothWays(const QList<Finding> &findings)
{
    QString streamed;
    QString fromTree;
    {
        QTextStream a(&streamed);
        QTextStream b(&fromTree);
        JsonStreamWriter wa(a);
        JsonStreamWriter wb(b);
        wa.beginObject();
        wb.beginObject();
        wa.beginArray(QStringLiteral("findings"));
        wb.beginArray(QStringLiteral("findings"));
        for (const Finding &f : findings) {
            f.writeJson(wa);
            wb.value({}, f.toJson());
        }
    }
    return {streamed, fromTree};
}

} // namespace

class TestSessionChecks : public QObject
{
    Q_OBJECT

private slots:
    void healthyIsQuiet()
    {
        const QString h = ClientIdHash::hash(QStringLiteral("dev-1"));
        SessionCheckInput in = input({session(QStringLiteral("dev-1"), {h + QStringLiteral("_a")}, QStringLiteral("$MQTT_PUBREL_") + h)},
                                     {consumer(h + QStringLiteral("_a"))}, {consumer(QStringLiteral("$MQTT_PUBREL_") + h)});
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("dev-1"), QStringLiteral("n1")}};
        QCOMPARE(codes(Checks::checkSessions(in)), QStringList());
    }

    void orphansOnlyForServerMadeDurables()
    {
        const QString h = ClientIdHash::hash(QStringLiteral("gone"));
        // Not MQTT-made: another tool's durable, the retained consumer, a name with a short prefix.
        SessionCheckInput in = input({},
                                     {consumer(h + QStringLiteral("_x"), 7), consumer(QStringLiteral("mydurable")),
                                      consumer(QStringLiteral("abc_def")), consumer(QStringLiteral("$MQTT_rmsgs_sQnRv29R"))},
                                     {consumer(QStringLiteral("$MQTT_PUBREL_") + h), consumer(QStringLiteral("$MQTT_PUBREL_short"))});
        const QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(codes(f), (QStringList{QStringLiteral("ORPHAN_CONSUMER"), QStringLiteral("ORPHAN_CONSUMER")}));
        QVERIFY(f.at(0).detail.contains(QStringLiteral("7 pending")) || f.at(1).detail.contains(QStringLiteral("7 pending")));
        QVERIFY(f.at(0).detail.contains(QStringLiteral("Connected clients unknown")));

        // A connected client with that hash owns them (a clean session has durables and no record).
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("gone"), QStringLiteral("n1")}};
        QCOMPARE(codes(Checks::checkSessions(in)), QStringList());

        // Consumers unknown: neither missing consumers nor orphans are claimed.
        SessionCheckInput unknown = input({session(QStringLiteral("dev-2"), {QStringLiteral("zzzzzzzz_q")})}, {});
        QCOMPARE(codes(Checks::checkSessions(unknown)), QStringList{QStringLiteral("SESSION_MISSING_CONSUMER")});
        unknown.consumersKnown = false;
        QCOMPARE(codes(Checks::checkSessions(unknown)), QStringList());
    }

    void missingConsumerTexts()
    {
        // The title, detail and evidence of SESSION_MISSING_CONSUMER are kept as patterns: rendered, they are
        // the texts the check wrote out in full before.
        const QString h = ClientIdHash::hash(QStringLiteral("dev-1"));
        const SessionEntry e = session(QStringLiteral("dev-1"), {h + QStringLiteral("_a")}, QStringLiteral("$MQTT_PUBREL_") + h);
        const SessionCheckInput in = input({e}, {}, {});
        const QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(codes(f), (QStringList{QStringLiteral("SESSION_MISSING_CONSUMER"), QStringLiteral("SESSION_MISSING_CONSUMER")}));
        QString sid;
        for (const SessionEntry &joined : in.sessions)
            for (const SessionConsumer &c : joined.consumers)
                if (c.name == h + QStringLiteral("_a"))
                    sid = c.sid;
        QVERIFY(!sid.isEmpty());

        const Finding &sub = f.at(0);
        QCOMPARE(sub.stream, QStringLiteral("$MQTT_msgs"));
        QCOMPARE(sub.subject, QStringLiteral("$MQTT.sess.") + h);
        QCOMPARE(sub.clientId, QStringLiteral("dev-1"));
        QVERIFY(sub.title.isDeferred());
        QCOMPARE(sub.title.toString(), QStringLiteral("Consumer %1_a of session dev-1 does not exist").arg(h));
        QCOMPARE(sub.detail.toString(),
                 QStringLiteral("Session \"dev-1\" subscribes to %1 through the durable %2_a on $MQTT_msgs, which does not exist. "
                                "The server does not recreate it when the client reconnects: QoS 1/2 messages for this "
                                "subscription are dropped (interest retention) and never delivered.")
                     .arg(sid, h));
        QCOMPARE(sub.expected.toJsonValue(),
                 QJsonValue(QJsonObject{{QStringLiteral("consumer"), QString(h + QStringLiteral("_a"))},
                                        {QStringLiteral("stream"), QStringLiteral("$MQTT_msgs")}}));
        QCOMPARE(sub.actual.toJsonValue(), QJsonValue(QStringLiteral("missing")));
        QCOMPARE(sub.repair, QStringLiteral("create_consumer"));
        QCOMPARE(sub.severity, Finding::Severity::Error);

        const Finding &pubrel = f.at(1);
        QCOMPARE(pubrel.stream, QStringLiteral("$MQTT_out"));
        QCOMPARE(pubrel.title.toString(), QStringLiteral("Consumer $MQTT_PUBREL_%1 of session dev-1 does not exist").arg(h));
        QCOMPARE(pubrel.detail.toString(),
                 QStringLiteral("Session \"dev-1\" names the PUBREL durable $MQTT_PUBREL_%1 on $MQTT_out, which does not exist: QoS 2 "
                                "exchanges of this client cannot complete.")
                     .arg(h));
        QCOMPARE(pubrel.expected.toObject().value(QLatin1String("stream")).toString(), QStringLiteral("$MQTT_out"));
        // The same title as the catalogue makes from the same values.
        QCOMPARE(pubrel.title.toString(),
                 FindingCatalogue::title(pubrel.code,
                                         {{QStringLiteral("consumer"), QStringLiteral("$MQTT_PUBREL_") + h},
                                          {QStringLiteral("client_id"), QStringLiteral("dev-1")}}));

        // Written straight from the patterns, the JSON is byte for byte that of the rendered finding.
        const auto [streamed, fromTree] = writtenBothWays(f);
        QCOMPARE(streamed, fromTree);
        QVERIFY(streamed.contains(QStringLiteral("\"title\": \"Consumer ") + h + QStringLiteral("_a of session dev-1 does not exist\"")));
    }

    void missingConsumersApart()
    {
        // Two accounts, each with findings of other codes before and after theirs: kept apart and put
        // back at placeIn(), the findings are diagnose()'s, in its order, written byte for byte alike.
        const auto accountInput = [](const QString &account, const QStringList &clients) {
            QList<SessionEntry> sessions;
            for (const QString &id : clients) {
                const QString h = ClientIdHash::hash(id);
                sessions << session(id, {h + QStringLiteral("_a"), h + QStringLiteral("_b")}, QStringLiteral("$MQTT_PUBREL_") + h);
            }
            // A durable no record names (ORPHAN_CONSUMER, a warning): sorts after the missing ones (errors).
            SessionCheckInput in = input(sessions, {consumer(ClientIdHash::hash(QStringLiteral("gone")) + QStringLiteral("_x"))});
            in.account = account;
            return in;
        };
        DiagnosisInput in;
        AccountInfo acme;
        acme.name = QStringLiteral("ACME"); // no JetStream: a critical finding, first
        AccountInfo beta;
        beta.name = QStringLiteral("BETA");
        beta.jetstream = true;
        // Listed out of name order: the findings are in account order all the same.
        in.accounts = {beta, acme};
        in.sessions.insert(QStringLiteral("ACME"),
                           accountInput(QStringLiteral("ACME"), {QStringLiteral("c"), QStringLiteral("a"), QStringLiteral("b")}));
        in.sessions.insert(QStringLiteral("BETA"), accountInput(QStringLiteral("BETA"), {QStringLiteral("y"), QStringLiteral("x")}));

        const QList<Finding> all = Checks::diagnose(in);
        QList<Finding> sorted = all;
        Checks::sortFindings(sorted);
        QCOMPARE(codes(sorted), codes(all));

        QList<MissingConsumerFindings> apart;
        const QList<Finding> rest = MissingConsumerFindings::diagnoseApart(in, apart);
        QVERIFY(!codes(rest).contains(QStringLiteral("SESSION_MISSING_CONSUMER")));
        QVERIFY(codes(rest).contains(QStringLiteral("ORPHAN_CONSUMER")));
        QCOMPARE(apart.size(), 2);
        QCOMPARE(apart.at(0).at(0).account, QStringLiteral("ACME"));
        QCOMPARE(apart.at(0).size(), 9); // three sessions, two subscriptions and a PUBREL durable each
        QCOMPARE(apart.at(1).size(), 6);

        QList<Finding> merged;
        QString written;
        {
            QTextStream out(&written);
            JsonStreamWriter w(out);
            w.beginArray();
            qsizetype next = 0;
            for (const MissingConsumerFindings &m : apart) {
                for (const qsizetype place = m.placeIn(rest); next < place; ++next) {
                    merged << rest.at(next);
                    rest.at(next).writeJson(w);
                }
                m.appendTo(merged);
                m.writeJson(w);
            }
            for (; next < rest.size(); ++next) {
                merged << rest.at(next);
                rest.at(next).writeJson(w);
            }
        }
        QCOMPARE(merged.size(), all.size());
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(merged.at(i).identity(), all.at(i).identity());
        QString flat;
        {
            QTextStream out(&flat);
            JsonStreamWriter w(out);
            w.beginArray();
            for (const Finding &f : all)
                f.writeJson(w);
        }
        QCOMPARE(written, flat);
        QCOMPARE(flat.count(QStringLiteral("\"SESSION_MISSING_CONSUMER\"")), 15);

        // The same findings as a FindingList (what the GUI holds), the groups given in any order: each
        // finding in its place, its summary right, without a Finding per reference.
        const QList<MissingConsumerFindings> reversed{apart.at(1), apart.at(0)};
        const FindingList list(rest, reversed);
        QCOMPARE(list.size(), all.size());
        QCOMPARE(list.listed().size(), rest.size());
        for (qsizetype i = 0; i < all.size(); ++i) {
            QCOMPARE(list.at(i).identity(), all.at(i).identity());
            const Finding &summary = list.summaryAt(i);
            QCOMPARE(summary.code, all.at(i).code);
            QCOMPARE(summary.severity, all.at(i).severity);
            QCOMPARE(summary.account, all.at(i).account);
            QCOMPARE(summary.stream, all.at(i).stream);
            QCOMPARE(summary.repair, all.at(i).repair);
        }
        const QList<Finding> made = list.toList();
        QCOMPARE(made.size(), all.size());
        for (qsizetype i = 0; i < all.size(); ++i)
            QCOMPARE(made.at(i).identity(), all.at(i).identity());
        QCOMPARE(list.withCode(QStringLiteral("SESSION_MISSING_CONSUMER")).size(), 15);
        QCOMPARE(codes(list.withCode(QStringLiteral("ORPHAN_CONSUMER"))),
                 codes(FindingList(all).withCode(QStringLiteral("ORPHAN_CONSUMER"))));
        const FindingList ofAcme = list.ofAccount(QStringLiteral("ACME"));
        QCOMPARE(ofAcme.apart().size(), 1);
        QList<Finding> expectedAcme = all;
        expectedAcme.removeIf([](const Finding &f) { return !f.account.isEmpty() && f.account != QStringLiteral("ACME"); });
        QCOMPARE(ofAcme.size(), expectedAcme.size());
        for (qsizetype i = 0; i < expectedAcme.size(); ++i)
            QCOMPARE(ofAcme.at(i).identity(), expectedAcme.at(i).identity());
        QString listWritten;
        {
            QTextStream out(&listWritten);
            JsonStreamWriter w(out);
            w.beginArray();
            list.writeJson(w);
        }
        QCOMPARE(listWritten, flat);
        QVERIFY(FindingList().isEmpty());
        QCOMPARE(FindingList(rest, {}).size(), rest.size());

        // Consumers unknown: nothing apart, nothing claimed.
        for (SessionCheckInput &s : in.sessions)
            s.consumersKnown = false;
        QVERIFY(!codes(MissingConsumerFindings::diagnoseApart(in, apart)).contains(QStringLiteral("SESSION_MISSING_CONSUMER")));
        QVERIFY(apart.isEmpty());
    }

    void everyCodeWritesAsItsJson()
    {
        // Undecodable, foreign (id mismatch), colliding, missing durables, an orphan, stale: each finding
        // written by Finding::writeJson as its toJson() is written.
        const QString h = ClientIdHash::hash(QStringLiteral("dev-1"));
        SessionEntry foreign = session(QStringLiteral("dev-9"), {});
        foreign.subject = QStringLiteral("$MQTT.sess.") + h;
        foreign.hash = h;
        foreign.idMatchesHash.reset();
        StreamMessage broken;
        broken.subject = QStringLiteral("$MQTT.sess.AAAAAAAA");
        broken.sequence = 7;
        broken.data = "{not json";
        const SessionEntry undecodable = SessionLoader::fromMessage(broken, TopicMapping::Dialect::V2_10);
        const QString g = ClientIdHash::hash(QStringLiteral("gone"));
        SessionCheckInput in = input({session(QStringLiteral("dev-2"), {QStringLiteral("zzzzzzzz_q")}), foreign, undecodable,
                                      session(QStringLiteral("old \"one\""), {})},
                                     {consumer(g + QStringLiteral("_x"), 3)});
        in.connected = SessionLoader::ConnectedClients{};
        in.subjectCounts = QList<SubjectCount>{{QStringLiteral("$MQTT.sess.BBBBBBBB"), 3}};
        CheckOptions options;
        options.staleAfterSecs = 3600;
        const QList<Finding> f = Checks::checkSessions(in, options);
        QVERIFY2(f.size() >= 5, qPrintable(codes(f).join(u',')));
        const auto [streamed, fromTree] = writtenBothWays(f);
        QCOMPARE(streamed, fromTree);
    }

    void undecodableRecordKeepsItsDurables()
    {
        StreamMessage m;
        const QString h = ClientIdHash::hash(QStringLiteral("broken"));
        m.subject = QStringLiteral("$MQTT.sess.") + h;
        m.sequence = 9;
        m.data = "{\"id\":";
        SessionCheckInput in = input({SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10)}, {consumer(h + QStringLiteral("_d"))});
        const QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(codes(f), QStringList{QStringLiteral("SESSION_UNDECODABLE")});
        QCOMPARE(f.first().subject, m.subject);
        QCOMPARE(f.first().severity, Finding::Severity::Critical);
        QVERIFY(f.first().detail.contains(QStringLiteral("sequence 9")));
    }

    void collisionsFromEverySource()
    {
        SessionCheckInput in = input({session(QStringLiteral("cid-03579431"), {})}, {});
        QCOMPARE(codes(Checks::checkSessions(in)), QStringList());
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("cid-09191235"), QStringLiteral("n2")}};
        QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(codes(f), QStringList{QStringLiteral("SESSION_HASH_COLLISION")});
        QCOMPARE(f.first().clientId, QStringLiteral("cid-03579431"));
        QVERIFY(f.first().title.contains(QStringLiteral("1fbmU9bb")));
        QVERIFY(
            f.first().actual.toObject().value(QLatin1String("cid-09191235")).toArray().first().toString().contains(QStringLiteral("n2")));
        in.connected.reset();
        CheckOptions options;
        options.knownClientIds = {QStringLiteral("cid-09191235"), QStringLiteral("unrelated")};
        QCOMPARE(codes(Checks::checkSessions(in, options)), QStringList{QStringLiteral("SESSION_HASH_COLLISION")});
    }

    void staleThreshold()
    {
        SessionCheckInput in = input({session(QStringLiteral("old-1"), {})}, {});
        CheckOptions options;
        QCOMPARE(codes(Checks::checkSessions(in, options)), QStringList()); // unknown connected state: skipped
        in.connected = SessionLoader::ConnectedClients{};
        options.staleAfterSecs = 2 * 86400; // exactly the age: not yet stale
        QCOMPARE(codes(Checks::checkSessions(in, options)), QStringList());
        options.staleAfterSecs = 2 * 86400 - 1;
        const QList<Finding> f = Checks::checkSessions(in, options);
        QCOMPARE(codes(f), QStringList{QStringLiteral("SESSION_STALE")});
        QVERIFY(f.first().title.contains(QStringLiteral("2d")));
        QCOMPARE(f.first().severity, Finding::Severity::Info);
        in.connected = SessionLoader::ConnectedClients{{QStringLiteral("old-1"), QStringLiteral("n1")}};
        QCOMPARE(codes(Checks::checkSessions(in, options)), QStringList());
    }

    void manyDuplicatesAreSummed()
    {
        SessionCheckInput in = input({}, {});
        QList<SubjectCount> counts;
        for (int i = 0; i < 40; ++i)
            counts.append({QStringLiteral("$MQTT.sess.h%1").arg(i, 7, 10, QLatin1Char('0')), quint64(i % 2 ? 3 : 1)});
        in.subjectCounts = counts;
        const QList<Finding> f = Checks::checkSessions(in);
        QCOMPARE(f.size(), 20); // 20 subjects with duplicates, each listed
        QCOMPARE(f.first().actual.toObject().value(QLatin1String("messages")).toInteger(), 3);
        in.subjectCounts->clear();
        for (int i = 0; i < 30; ++i)
            in.subjectCounts->append({QStringLiteral("$MQTT.sess.d%1").arg(i, 7, 10, QLatin1Char('0')), 2});
        const QList<Finding> many = Checks::checkSessions(in);
        QCOMPARE(many.size(), 26);
        int summaries = 0;
        for (const Finding &x : many)
            if (x.subject.isEmpty()) {
                ++summaries;
                QVERIFY(x.title.startsWith(QStringLiteral("5 more session subjects")));
            }
        QCOMPARE(summaries, 1);
    }

    void ageFormatAndParse()
    {
        QCOMPARE(formatAge(45), QStringLiteral("45s"));
        QCOMPARE(formatAge(3 * 3600 + 300), QStringLiteral("3h 5m"));
        QCOMPARE(formatAge(41 * 86400 + 7200), QStringLiteral("41d 2h"));
        QCOMPARE(parseAgeMs(u"30d"), std::optional<double>(30.0 * 86400 * 1000));
        QCOMPARE(parseAgeMs(u"1d12h"), std::optional<double>(36.0 * 3600 * 1000));
        QVERIFY(!parseAgeMs(u"soon"));
        QVERIFY(!parseGoDurationMs(u"1d")); // natscli durations have no days
    }
};

QTEST_GUILESS_MAIN(TestSessionChecks)
#include "tst_sessionchecks.moc"
