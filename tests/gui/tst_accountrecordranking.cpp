// The cluster overview's chart of session records and retained messages per account: its data
// (AccountRecordRanking: counts read from the stream infos discovery has, the top accounts by one count
// with the other and then the name as tie-breaks, how many more, what is unknown) and the widget that
// paints it (AccountRecordsChart: rows open their account, headers re-rank, notes say what is unknown).
// The accounts are those captured from a real nats-server 2.9.10 (CapturedCluster), their message counts
// set per case. No server needed; offscreen.
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

#include "capturedcluster.h"
#include "models/accountrecordranking.h"
#include "widgets/accountrecordschart.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::StringLiterals;

using Key = AccountRecordRanking::Key;
using Entry = AccountRecordRanking::Entry;

namespace {

constexpr qint64 kUnknown = AccountRecordRanking::kUnknown;

/** Sets the message count of `stream` in `account` (kUnknown: a state without one); false without the stream. */
bool setMessages(AccountInfo &account, const QString &stream, qint64 messages)
{
    for (StreamInfo &s : account.streams) {
        if (s.name != stream)
            continue;
        if (messages == kUnknown)
            s.state.remove(u"messages"_s);
        else
            s.state.insert(u"messages"_s, messages);
        return true;
    }
    return false;
}

/** The captured ACME (its real MQTT streams) renamed, holding `sessions` records and `retained` messages. */
AccountInfo mqttAccount(const QString &name, qint64 sessions, qint64 retained)
{
    AccountInfo a = CapturedCluster::account(u"ACME"_s);
    a.name = name;
    const bool ok = setMessages(a, u"$MQTT_sess"_s, sessions) && setMessages(a, u"$MQTT_rmsgs"_s, retained);
    Q_ASSERT(ok);
    Q_UNUSED(ok);
    return a;
}

QStringList namesOf(const AccountRecordRanking &r)
{
    QStringList names;
    for (const Entry &e : r.top())
        names << e.account;
    return names;
}

} // namespace

class TestAccountRecordRanking : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    // The captured cluster as discovery read it: ACME's $MQTT_sess holds one record (its legacy
    // $MQTT_sess_<hash> stream is not $MQTT_sess), no retained message; BETA has JetStream but no MQTT
    // streams; NOJS and SYS have no JetStream.
    void capturedCluster()
    {
        const AccountRecordRanking r = AccountRecordRanking::rank(CapturedCluster::accounts());
        QCOMPARE(r.top(), (QList<Entry>{{u"ACME"_s, 1, 0}}));
        QCOMPARE(r.moreAccounts(), 0);
        QCOMPARE(r.unknownAccounts(), 0);
        QCOMPARE(r.consideredAccounts(), 2); // ACME, BETA
        QCOMPARE(r.totalSessions(), 1);
        QCOMPARE(r.totalRetained(), 0);
        QCOMPARE(AccountRecordRanking::countsOf(CapturedCluster::account(u"BETA"_s)), (Entry{u"BETA"_s, 0, 0}));
        QCOMPARE(AccountRecordRanking::countsOf(CapturedCluster::account(u"NOJS"_s)), (Entry{u"NOJS"_s, 0, 0}));
    }

    // Most session records first; equal counts by retained messages, then by name (case-insensitive).
    void orderAndTies()
    {
        const QList<AccountInfo> accounts{mqttAccount(u"delta"_s, 5, 1), mqttAccount(u"Charlie"_s, 5, 1),
                                          mqttAccount(u"bravo"_s, 5, 7), mqttAccount(u"alpha"_s, 2, 100),
                                          mqttAccount(u"echo"_s, 0, 3),  mqttAccount(u"foxtrot"_s, 0, 0)};
        const AccountRecordRanking bySessions = AccountRecordRanking::rank(accounts);
        QCOMPARE(namesOf(bySessions), (QStringList{u"bravo"_s, u"Charlie"_s, u"delta"_s, u"alpha"_s, u"echo"_s}));
        QCOMPARE(bySessions.top().at(0), (Entry{u"bravo"_s, 5, 7}));
        QCOMPARE(bySessions.totalSessions(), 17);
        QCOMPARE(bySessions.totalRetained(), 112);
        QCOMPARE(bySessions.moreAccounts(), 0); // foxtrot holds nothing: not "more"
        const AccountRecordRanking byRetained = AccountRecordRanking::rank(accounts, Key::Retained);
        QCOMPARE(byRetained.key(), Key::Retained);
        QCOMPARE(namesOf(byRetained), (QStringList{u"alpha"_s, u"bravo"_s, u"echo"_s, u"Charlie"_s, u"delta"_s}));
        QCOMPARE(byRetained.rankedCount(byRetained.top().first()), 100);
        // One pass ranks both ways.
        QCOMPARE(bySessions.withKey(Key::Retained).top(), byRetained.top());
        QCOMPARE(bySessions.top(Key::Retained), byRetained.top());
        QCOMPARE(byRetained.withKey(Key::Sessions).top(), bySessions.top());
        // The input's order does not matter.
        QList<AccountInfo> reversed = accounts;
        std::reverse(reversed.begin(), reversed.end());
        QCOMPARE(AccountRecordRanking::rank(reversed).top(), bySessions.top());
    }

    void topAndMore()
    {
        QList<AccountInfo> accounts;
        for (int i = 0; i < 12; ++i)
            accounts << mqttAccount(u"acc-%1"_s.arg(i, 2, 10, QChar(u'0')), i + 1, 0);
        accounts << mqttAccount(u"empty"_s, 0, 0);
        const AccountRecordRanking r = AccountRecordRanking::rank(accounts, Key::Sessions, 8);
        QCOMPARE(r.top().size(), 8);
        QCOMPARE(r.top().first().account, u"acc-11"_s);
        QCOMPARE(r.top().last().account, u"acc-04"_s);
        QCOMPARE(r.moreAccounts(), 4);
        QCOMPARE(AccountRecordRanking::rank(accounts, Key::Sessions, 0).moreAccounts(), 12);
        QCOMPARE(AccountRecordRanking::rank(accounts, Key::Sessions, 20).moreAccounts(), 0);
    }

    // What nobody could read is never a zero: an account whose streams were not listed, whose JetStream
    // state is unknown, or whose stream info has no state; an account with one count unknown is ranked
    // by the count it has.
    void unknownCounts()
    {
        AccountInfo unlisted = mqttAccount(u"unlisted"_s, 4, 4);
        unlisted.streamsKnown = false;
        AccountInfo noJsState = CapturedCluster::account(u"NOJS"_s);
        noJsState.name = u"maybe-js"_s;
        noJsState.jetstreamKnown = false;
        const QList<AccountInfo> accounts{mqttAccount(u"known"_s, 3, 2),
                                          unlisted,
                                          noJsState,
                                          mqttAccount(u"no-sess-state"_s, kUnknown, 6),
                                          mqttAccount(u"nothing-known"_s, kUnknown, kUnknown),
                                          mqttAccount(u"zero-and-unknown"_s, 0, kUnknown)};
        QCOMPARE(AccountRecordRanking::countsOf(unlisted), (Entry{u"unlisted"_s, kUnknown, kUnknown}));
        QCOMPARE(AccountRecordRanking::countsOf(noJsState), (Entry{u"maybe-js"_s, kUnknown, kUnknown}));
        const AccountRecordRanking r = AccountRecordRanking::rank(accounts);
        QCOMPARE(r.top(), (QList<Entry>{{u"known"_s, 3, 2}, {u"no-sess-state"_s, kUnknown, 6}}));
        QCOMPARE(r.unknownAccounts(), 4);
        QCOMPARE(r.unknownSample(), (QStringList{u"unlisted"_s, u"maybe-js"_s, u"nothing-known"_s, u"zero-and-unknown"_s}));
        QCOMPARE(r.partlyUnknownAccounts(), 1);
        QCOMPARE(r.totalSessions(), 3);
        QCOMPARE(r.totalRetained(), 8);
        QVERIFY(!r.allUnknown());

        const AccountRecordRanking none = AccountRecordRanking::rank({unlisted, noJsState}, Key::Sessions, 8, false);
        QVERIFY(none.allUnknown());
        QVERIFY(none.top().isEmpty());
        QVERIFY(!none.wholeCluster());
    }

    // 10,000 accounts (copies of the captured ACME, every 7th without $MQTT_sess, every 13th without
    // JetStream): the ranking agrees with a full sort of every account's counts.
    void fleetAgreesWithAFullSort()
    {
        QList<AccountInfo> fleet = CapturedCluster::fleet(10000);
        std::vector<Entry> expected;
        for (int i = 0; i < fleet.size(); ++i) {
            AccountInfo &a = fleet[i];
            const qint64 sessions = (i * 7919) % 1009;
            const qint64 retained = (i * 31) % 17;
            setMessages(a, u"$MQTT_sess"_s, sessions);
            setMessages(a, u"$MQTT_rmsgs"_s, retained);
            if (!a.jetstream)
                continue;
            const bool hasSess =
                std::any_of(a.streams.cbegin(), a.streams.cend(), [](const StreamInfo &s) { return s.name == u"$MQTT_sess"_s; });
            const Entry e{a.name, hasSess ? sessions : 0, retained};
            if (e.sessions > 0 || e.retained > 0)
                expected.push_back(e);
        }
        std::sort(expected.begin(), expected.end(), [](const Entry &a, const Entry &b) {
            return std::tie(b.sessions, b.retained, a.account) < std::tie(a.sessions, a.retained, b.account);
        });
        const AccountRecordRanking r = AccountRecordRanking::rank(fleet, Key::Sessions, 10);
        QCOMPARE(r.top(), QList<Entry>(expected.begin(), expected.begin() + 10));
        QCOMPARE(r.moreAccounts(), int(expected.size()) - 10);
        QCOMPARE(r.unknownAccounts(), 0);
    }

    // The widget: one row per top account with its exact counts, "and K more", what is unknown; a click
    // on a row (or Return on it) opens the account, a click on the other header re-ranks.
    void chart()
    {
        QList<AccountInfo> accounts;
        for (int i = 0; i < 11; ++i)
            accounts << mqttAccount(u"acc-%1"_s.arg(i, 2, 10, QChar(u'0')), 1000 * (i + 1), i);
        AccountInfo unlisted = mqttAccount(u"unlisted"_s, 1, 1);
        unlisted.streamsKnown = false;
        accounts << unlisted;
        AccountRecordsChart chart;
        chart.resize(600, chart.sizeHint().height());
        chart.setRanking(AccountRecordRanking::rank(accounts, Key::Sessions, 8));
        chart.resize(600, chart.sizeHint().height());
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));

        const QStringList notes = chart.notes();
        QVERIFY2(notes.contains(u"and 3 more accounts with session records or retained messages"_s), qPrintable(notes.join(u'\n')));
        QVERIFY2(notes.contains(u"Counts unknown for 1 account: their streams could not be read"_s), qPrintable(notes.join(u'\n')));
        QVERIFY2(notes.contains(u"In all, where known: 66,000 session records, 55 retained messages"_s), qPrintable(notes.join(u'\n')));
        QVERIFY2(chart.text().contains(u"acc-10: 11,000 session records, 10 retained messages"_s), qPrintable(chart.text()));
        QCOMPARE(chart.accessibleDescription(), chart.text());
        QVERIFY(!chart.accessibleName().isEmpty());
        QCOMPARE(chart.rowAt(chart.rowRect(0).center()), 0);
        QCOMPARE(chart.rowAt(chart.rowRect(-1).center()), -1);

        QSignalSpy activated(&chart, &AccountRecordsChart::accountActivated);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, chart.rowRect(2).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.takeFirst().first().toString(), u"acc-08"_s);
        chart.setFocus();
        QTest::keyClick(&chart, Qt::Key_Down);
        QTest::keyClick(&chart, Qt::Key_Return);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.takeFirst().first().toString(), u"acc-07"_s);
        // Below the rows (the notes) nothing opens.
        QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(5, chart.height() - 3));
        QCOMPARE(activated.count(), 0);

        QSignalSpy rerank(&chart, &AccountRecordsChart::keyRequested);
        const QRect header = chart.rowRect(-1);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(header.right() - 5, header.center().y()));
        QCOMPARE(rerank.count(), 1);
        QCOMPARE(rerank.first().first().value<Key>(), Key::Retained);
    }

    // Nothing could be read: the chart says so instead of drawing zeros.
    void chartWithUnknownCounts()
    {
        AccountInfo unlisted = mqttAccount(u"unlisted"_s, 1, 1);
        unlisted.streamsKnown = false;
        AccountRecordsChart chart;
        chart.setRanking(AccountRecordRanking::rank({unlisted}, Key::Sessions, 8, false));
        QCOMPARE(chart.notes(),
                 (QStringList{u"Session and retained counts unknown: the streams of 1 account could not be read."_s,
                              u"Only the accounts the profile's credentials reach (no system connection)"_s}));
        QCOMPARE(chart.rowAt(chart.rowRect(0).center()), -1);
        chart.setRanking(AccountRecordRanking::rank({CapturedCluster::account(u"BETA"_s)}));
        QCOMPARE(chart.notes(),
                 (QStringList{u"No account holds session records or retained messages."_s,
                              u"In all: 0 session records, 0 retained messages"_s}));
    }
};

QTEST_MAIN(TestAccountRecordRanking)
#include "tst_accountrecordranking.moc"
