// ServerRoster: whom a system request waits for, and who is named as not answering.
#include <QTest>

#include "nats/serverroster.h"

using namespace MqttDoctor;

namespace {

using Server = ServerRoster::Server;

QStringList names(const QList<ServerRoster::Unanswered> &list)
{
    QStringList out;
    for (const auto &u : list)
        out << (u.name.isEmpty() ? QStringLiteral("?") : u.name);
    return out;
}

QSet<QString> set(std::initializer_list<const char *> keys)
{
    QSet<QString> out;
    for (const char *k : keys)
        out.insert(QString::fromLatin1(k));
    return out;
}

} // namespace

class TestServerRoster : public QObject
{
    Q_OBJECT

private slots:
    void notLearntWaitsForQuiet()
    {
        ServerRoster roster;
        QVERIFY(!roster.isLearnt());
        const auto e = roster.expectation();
        QVERIFY(!e.learnt);
        QVERIFY(!ServerRoster::isComplete(e, set({"n1", "n2", "n3"})));
    }

    void completeWhenEveryExpectedServerAnswered()
    {
        ServerRoster roster;
        roster.learn({{QStringLiteral("n1"), QStringLiteral("ID1")}, {QStringLiteral("n2"), QStringLiteral("ID2")}}, 2);
        QVERIFY(roster.isLearnt());
        const auto e = roster.expectation();
        QCOMPARE(e.servers, set({"n1", "n2"}));
        QVERIFY(!ServerRoster::isComplete(e, set({"n1"})));
        QVERIFY(ServerRoster::isComplete(e, set({"n1", "n2"})));
        QVERIFY(ServerRoster::isComplete(e, set({"n2", "n1", "n9"})));
        QVERIFY(roster.unanswered().isEmpty());
        QCOMPARE(roster.answering(), (QStringList{QStringLiteral("n1"), QStringLiteral("n2")}));
    }

    void silentServerIsNamedAndNoLongerAwaited()
    {
        ServerRoster roster;
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}}, 3);
        const auto e = roster.expectation();
        roster.finish(e, {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        // The next request waits for n1 and n2 only; n3 stays named until it answers again.
        const auto next = roster.expectation();
        QCOMPARE(next.servers, set({"n1", "n2"}));
        roster.finish(next, {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        roster.finish(roster.expectation(), {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}});
        QVERIFY(roster.unanswered().isEmpty());
        QCOMPARE(roster.expectation().servers, set({"n1", "n2", "n3"}));
    }

    void generationChangesWithWhoAnswers()
    {
        ServerRoster roster;
        const QList<Server> three{{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}};
        roster.learn(three, 3);
        const quint64 learnt = roster.generation();
        QVERIFY(learnt > 0);
        // Every server answered again: no change (what was found about them still holds).
        roster.finish(roster.expectation(), three);
        QCOMPARE(roster.generation(), learnt);
        // A refresh learns the same servers again: no change either.
        roster.forget();
        roster.learn(three, 3);
        QCOMPARE(roster.generation(), learnt);
        // n3 goes silent: changed; it answers again: changed again.
        roster.finish(roster.expectation(), {three[0], three[1]});
        const quint64 silent = roster.generation();
        QVERIFY(silent > learnt);
        roster.finish(roster.expectation(), three);
        QVERIFY(roster.generation() > silent);
        // A new server: changed.
        const quint64 before = roster.generation();
        roster.finish(roster.expectation(), {three[0], three[1], three[2], {QStringLiteral("n4"), {}}});
        QVERIFY(roster.generation() > before);
    }

    void newServerJoins()
    {
        ServerRoster roster;
        roster.learn({{QStringLiteral("n1"), {}}}, 1);
        roster.finish(roster.expectation(), {{QStringLiteral("n1"), {}}, {QStringLiteral("n4"), {}}});
        QCOMPARE(roster.expectation().servers, set({"n1", "n4"}));
        QVERIFY(roster.unanswered().isEmpty());
    }

    void countedButUnnamedServers()
    {
        ServerRoster roster;
        // Three counted, two answered: one unknown is named as such.
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}}, 3);
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("?")});
        QVERIFY(roster.unanswered().first().reason.contains(QLatin1String("1 more server")));
        // The meta leader names it offline: one entry, with its name, not two.
        roster.notePeers({{QStringLiteral("n1"), false}, {QStringLiteral("n2"), false}, {QStringLiteral("n3"), true}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        QVERIFY(roster.unanswered().first().reason.contains(QLatin1String("offline")));
        // An offline peer is not awaited.
        QCOMPARE(roster.expectation().servers, set({"n1", "n2"}));
        // Back in the meta group: still named until it answers a request.
        roster.notePeers({{QStringLiteral("n3"), false}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        roster.finish(roster.expectation(), {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}});
        QVERIFY(roster.unanswered().isEmpty());
    }

    void metaMemberNotYetOfflineIsNamed()
    {
        ServerRoster roster;
        // n3 stopped a moment ago: the others no longer count it, and the meta leader has not
        // marked it offline yet. It is still a member that did not answer: named, not forgotten.
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}}, 2);
        QVERIFY(roster.unanswered().isEmpty());
        roster.notePeers({{QStringLiteral("n1"), false}, {QStringLiteral("n2"), false}, {QStringLiteral("n3"), false}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        QVERIFY(roster.unanswered().first().reason.contains(QLatin1String("did not answer")));
        // Members that answered stay answering; an empty name (no leader known) names nobody.
        roster.notePeers({{QString(), false}});
        QCOMPARE(roster.expectation().servers, set({"n1", "n2"}));
        roster.finish(roster.expectation(), {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}});
        QVERIFY(roster.unanswered().isEmpty());
    }

    void learntAgainKeepsNamesOfTheMissing()
    {
        ServerRoster roster;
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}, {QStringLiteral("n3"), {}}}, 3);
        roster.finish(roster.expectation(), {{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}});
        // Learnt again while the others still count n3 (stopped without a goodbye): it keeps its name.
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}}, 3);
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("n3")});
        // Once the others no longer count it, it is gone (removed from the cluster).
        roster.learn({{QStringLiteral("n1"), {}}, {QStringLiteral("n2"), {}}}, 2);
        QVERIFY(roster.unanswered().isEmpty());
        QCOMPARE(roster.expectation().servers, set({"n1", "n2"}));
    }

    void learntByCount()
    {
        ServerRoster roster;
        roster.learnCount(2);
        auto e = roster.expectation();
        QVERIFY(e.learnt);
        QVERIFY(!ServerRoster::isComplete(e, set({"n1"})));
        QVERIFY(ServerRoster::isComplete(e, set({"n1", "n2"})));
        roster.finish(e, {{QStringLiteral("n1"), {}}});
        QCOMPARE(names(roster.unanswered()), QStringList{QStringLiteral("?")});
        QCOMPARE(roster.expectation().servers, set({"n1"}));
    }

    void forgetLearnsAgain()
    {
        ServerRoster roster;
        roster.learn({{QStringLiteral("n1"), {}}}, 2);
        roster.forget();
        QVERIFY(!roster.isLearnt());
        QVERIFY(roster.unanswered().isEmpty());
        QVERIFY(roster.expectation().servers.isEmpty());
    }

    void serverKnownByNameElseId()
    {
        QCOMPARE((Server{QStringLiteral("n1"), QStringLiteral("ID")}.key()), QStringLiteral("n1"));
        QCOMPARE((Server{QString(), QStringLiteral("ID")}.key()), QStringLiteral("ID"));
    }
};

QTEST_GUILESS_MAIN(TestServerRoster)
#include "tst_serverroster.moc"
