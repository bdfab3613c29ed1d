// SessionBatches: entries kept as the batches they were read in, shared with whoever else holds a
// batch, iterated in order across empty and own batches.
#include <QTest>

#include <algorithm>

#include "records/sessionbatches.h"

using namespace MqttDoctor;

namespace {

SessionEntry entry(const QString &clientId)
{
    SessionEntry e;
    e.clientId = clientId;
    return e;
}

QStringList ids(const SessionBatches &batches)
{
    QStringList out;
    for (const SessionEntry &e : batches)
        out << e.clientId;
    return out;
}

} // namespace

class TestSessionBatches : public QObject
{
    Q_OBJECT

private slots:
    void iteratesEveryEntryInOrder()
    {
        SessionBatches b;
        QVERIFY(b.isEmpty());
        QCOMPARE(ids(b), QStringList());
        b.append(entry(QStringLiteral("a")));
        b.appendBatch({});
        b.appendBatch({entry(QStringLiteral("b")), entry(QStringLiteral("c"))});
        b.appendBatch({});
        b.append(entry(QStringLiteral("d")));
        b.append(entry(QStringLiteral("e")));
        QCOMPARE(b.size(), 5);
        QCOMPARE(ids(b),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"), QStringLiteral("e")}));
        QCOMPARE(std::count_if(b.begin(), b.end(), [](const SessionEntry &e) { return e.clientId > QStringLiteral("b"); }), 3);
        const SessionBatches listed{entry(QStringLiteral("x")), entry(QStringLiteral("y"))};
        QCOMPARE(ids(listed), (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
    }

    // A batch appended whole is the same list data as the caller's: a million entries exist once, and
    // a later single append does not copy it.
    void sharesAppendedBatches()
    {
        const QList<SessionEntry> read{entry(QStringLiteral("a")), entry(QStringLiteral("b"))};
        SessionBatches b;
        b.appendBatch(read);
        b.append(entry(QStringLiteral("c")));
        QCOMPARE(b.batches().size(), 2);
        QCOMPARE(b.batches().first().constData(), read.constData());
        QCOMPARE(read.size(), 2);
        const SessionBatches copy = b;
        QCOMPARE(copy.batches().first().constData(), read.constData());
        QCOMPARE(ids(copy), ids(b));
    }
};

QTEST_GUILESS_MAIN(TestSessionBatches)
#include "tst_sessionbatches.moc"
