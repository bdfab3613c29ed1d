// JszMerge: replies added one at a time, shape checks, one account picked from a reply, meta peers.
#include <QJsonArray>
#include <QTest>

#include "nats/jszmerge.h"

using namespace MqttDoctor;

namespace {

const QString kSubject = QStringLiteral("$SYS.REQ.SERVER.PING.JSZ");

SystemClient::Reply reply(const char *server, const QJsonValue &details, const QJsonObject &meta = {})
{
    SystemClient::Reply r;
    r.server =
        QJsonObject{{QStringLiteral("name"), QLatin1String(server)}, {QStringLiteral("id"), QLatin1String(server).toString().toUpper()}};
    r.data = QJsonObject{{QStringLiteral("account_details"), details}};
    if (!meta.isEmpty())
        r.data.insert(QStringLiteral("meta_cluster"), meta);
    return r;
}

QJsonObject account(const char *name, const QStringList &streams = {})
{
    QJsonArray s;
    for (const QString &stream : streams)
        s.append(QJsonObject{{QStringLiteral("name"), stream},
                             {QStringLiteral("config"), QJsonObject{{QStringLiteral("name"), stream}}},
                             {QStringLiteral("consumer_detail"),
                              QJsonArray{QJsonObject{{QStringLiteral("name"), QString(stream + QStringLiteral("_c"))}}}}});
    return QJsonObject{{QStringLiteral("name"), QLatin1String(name)}, {QStringLiteral("stream_detail"), s}};
}

QStringList namesOf(const QList<AccountInfo> &accounts)
{
    QStringList out;
    for (const AccountInfo &a : accounts)
        out << a.name;
    return out;
}

} // namespace

class TestJszMerge : public QObject
{
    Q_OBJECT

private slots:
    void pagesMergeIntoOneSortedList()
    {
        JszMerge merge;
        auto first = merge.add(reply("n1", QJsonArray{account("C", {QStringLiteral("$MQTT_sess")}), account("A")}), kSubject);
        QVERIFY(first);
        QCOMPARE(*first, (QStringList{QStringLiteral("C"), QStringLiteral("A")}));
        QVERIFY(merge.add(reply("n1", QJsonArray{account("B", {QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_sess")})}), kSubject));
        // The same account again (another server's view, or a page overlapping after a change): once.
        QVERIFY(merge.add(reply("n2", QJsonArray{account("C", {QStringLiteral("$MQTT_sess")})}), kSubject));
        QCOMPARE(merge.accountCount(), 3);
        const QList<AccountInfo> accounts = merge.accounts();
        QCOMPARE(namesOf(accounts), (QStringList{QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("C")}));
        QCOMPARE(accounts[1].streamCount, 2);
        QCOMPARE(accounts[1].streams.first().name, QStringLiteral("$MQTT_msgs"));
        QCOMPARE(accounts[1].consumerCount, 2);
        QCOMPARE(accounts[2].streamCount, 1);
        QCOMPARE(accounts[2].consumerCount, 1);
        QVERIFY(merge.contains(QStringLiteral("B")));
        QVERIFY(!merge.contains(QStringLiteral("D")));
    }

    void onlyTheAccountAskedFor()
    {
        // A 2.9 server asked for an account it does not have lists another one instead.
        JszMerge merge;
        auto added = merge.add(reply("n1", QJsonArray{account("OTHER")}), kSubject, QStringLiteral("WANTED"));
        QVERIFY(added);
        QVERIFY(added->isEmpty());
        QCOMPARE(merge.accountCount(), 0);
        QVERIFY(merge.add(reply("n1", QJsonArray{account("WANTED")}), kSubject, QStringLiteral("WANTED")));
        QCOMPARE(namesOf(merge.accounts()), QStringList{QStringLiteral("WANTED")});
    }

    void malformedRepliesAddNothing_data()
    {
        QTest::addColumn<QJsonValue>("details");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("details not an array") << QJsonValue(QStringLiteral("x")) << QStringLiteral("not an array");
        QTest::newRow("nameless account") << QJsonValue(QJsonArray{QJsonObject{}}) << QStringLiteral("no name");
        QTest::newRow("streams not an array") << QJsonValue(
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("A")}, {QStringLiteral("stream_detail"), 3}}})
                                              << QStringLiteral("stream_detail");
        QTest::newRow("nameless stream") << QJsonValue(QJsonArray{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("A")}, {QStringLiteral("stream_detail"), QJsonArray{QJsonObject{}}}}})
                                         << QStringLiteral("has no name");
        QTest::newRow("nameless consumer") << QJsonValue(QJsonArray{QJsonObject{
            {QStringLiteral("name"), QStringLiteral("A")},
            {QStringLiteral("stream_detail"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("S")}, {QStringLiteral("consumer_detail"), QJsonArray{1}}}}}}})
                                           << QStringLiteral("consumer");
    }

    void malformedRepliesAddNothing()
    {
        QFETCH(QJsonValue, details);
        QFETCH(QString, mentions);
        JszMerge merge;
        // A good account first in the same reply must not be merged either.
        QJsonArray withGood{account("GOOD")};
        for (const QJsonValue &v : details.toArray())
            withGood.append(v);
        const auto added = merge.add(reply("n1", details.isArray() ? QJsonValue(withGood) : details), kSubject);
        QVERIFY(!added);
        QCOMPARE(added.error().kind(), Error::Kind::Protocol);
        QVERIFY2(added.error().message().contains(kSubject) && added.error().message().contains(mentions),
                 qPrintable(added.error().message()));
        QCOMPARE(merge.accountCount(), 0);
    }

    void errorRepliesAndServersWithoutJetStreamAddNothing()
    {
        JszMerge merge;
        SystemClient::Reply error = reply("n1", QJsonArray{account("A")});
        error.error = QJsonObject{{QStringLiteral("code"), 500}};
        QVERIFY(merge.add(error, kSubject));
        SystemClient::Reply disabled;
        disabled.data = QJsonObject{{QStringLiteral("disabled"), true}};
        QVERIFY(merge.add(disabled, kSubject));
        QCOMPARE(merge.accountCount(), 0);
    }

    void metaPeersFromTheLeader()
    {
        JszMerge merge;
        // A follower names the leader but lists no replicas: nothing learnt from it.
        QVERIFY(merge.add(reply("n2", QJsonArray{}, QJsonObject{{QStringLiteral("leader"), QStringLiteral("n1")}}), kSubject));
        QVERIFY(merge.metaPeers().isEmpty());
        const QJsonObject meta{
            {QStringLiteral("leader"), QStringLiteral("n1")},
            {QStringLiteral("replicas"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("n2")}, {QStringLiteral("current"), true}},
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("n3")}, {QStringLiteral("offline"), true}}}}};
        QVERIFY(merge.add(reply("n1", QJsonArray{}, meta), kSubject));
        const auto peers = merge.metaPeers();
        QCOMPARE(peers.size(), 3);
        QCOMPARE(peers[0], qMakePair(QStringLiteral("n1"), false));
        QCOMPARE(peers[1], qMakePair(QStringLiteral("n2"), false));
        QCOMPARE(peers[2], qMakePair(QStringLiteral("n3"), true));
    }

    // Each server counts the API requests it answered: the account's counters are their sum, one entry per
    // server however often its reply lists the account (pages, asking by name again).
    void apiCountersSumOverServers()
    {
        const auto withApi = [](qint64 total, qint64 errors) {
            QJsonObject a = account("A");
            a.insert(QStringLiteral("api"), QJsonObject{{QStringLiteral("total"), total}, {QStringLiteral("errors"), errors}});
            return a;
        };
        JszMerge merge;
        QVERIFY(merge.add(reply("n1", QJsonArray{withApi(100, 7)}), kSubject));
        QVERIFY(merge.add(reply("n2", QJsonArray{withApi(40, 3)}), kSubject));
        QVERIFY(merge.add(reply("n2", QJsonArray{withApi(40, 3)}), kSubject)); // the same server again
        QVERIFY(merge.add(reply("n3", QJsonArray{account("A")}), kSubject)); // no counters in its reply
        const QList<AccountInfo> accounts = merge.accounts();
        QCOMPARE(accounts.size(), 1);
        QVERIFY(accounts.first().api.has_value());
        QCOMPARE(accounts.first().api->total, 140);
        QCOMPARE(accounts.first().api->errors, 10);
        QCOMPARE(accounts.first().api->servers, 2);
        QCOMPARE(accounts.first().api->source, QStringLiteral("jsz"));
        JszMerge none;
        QVERIFY(none.add(reply("n1", QJsonArray{account("B")}), kSubject));
        QVERIFY(!none.accounts().first().api.has_value());
    }
};

QTEST_GUILESS_MAIN(TestJszMerge)
#include "tst_jszmerge.moc"
