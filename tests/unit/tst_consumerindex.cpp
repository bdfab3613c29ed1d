// The durable index of the session join (SessionLoader::ConsumerIndex): the same answers as a QHash
// for present and absent names, one by one and in batches, with a good hash and with poor ones that
// make names share tags and probe chains; a name inserted again replaces its consumer.
#include <QHash>
#include <QTest>

#include "records/consumerindex.h"

using namespace MqttDoctor::SessionLoader;

namespace {

IndexedConsumer consumer(qint64 pending)
{
    IndexedConsumer c;
    c.stream = QStringLiteral("$MQTT_msgs");
    c.numPending = pending;
    return c;
}

QString durable(int i)
{
    return QStringLiteral("kBmSuDPK_") + QString::number(i * 7919).rightJustified(9, QLatin1Char('0'));
}

// Every name on one tag and one home slot: each lookup walks a chain of tag matches.
size_t constantHash(QStringView, size_t)
{
    return 0x1234567800000005u;
}

// Names of the same length share a tag; their home slots differ.
size_t lengthTagHash(QStringView name, size_t seed)
{
    return (size_t(name.size()) << 32) | (qHash(name, seed) & 0xffffffffu);
}

void compareWithQHash(ConsumerIndex::HashFunction hash, int count)
{
    ConsumerIndex index(hash);
    QHash<QString, qint64> expected;
    for (int i = 0; i < count; ++i) {
        index.insert(durable(i), consumer(i));
        expected.insert(durable(i), i);
    }
    QCOMPARE(index.size(), count);
    QStringList names;
    for (int i = -count / 2; i < count + count / 2; ++i) // present and absent names
        names << durable(i);
    names << QString() << QStringLiteral("kBmSuDPK_");
    for (const QString &name : std::as_const(names)) {
        const IndexedConsumer *c = index.find(name);
        QCOMPARE(c != nullptr, expected.contains(name));
        if (c)
            QCOMPARE(c->numPending, expected.value(name));
    }
    std::vector<QStringView> views(names.cbegin(), names.cend());
    std::vector<const IndexedConsumer *> found(views.size(), reinterpret_cast<const IndexedConsumer *>(&index));
    index.findMany(views, found);
    for (size_t k = 0; k < views.size(); ++k) {
        const QString name = names.at(qsizetype(k));
        QVERIFY2((found[k] != nullptr) == expected.contains(name), qPrintable(name));
        if (found[k])
            QCOMPARE(found[k]->numPending, expected.value(name));
    }
}

} // namespace

class TestConsumerIndex : public QObject
{
    Q_OBJECT

private slots:
    void empty()
    {
        const ConsumerIndex index;
        QVERIFY(index.isEmpty());
        QVERIFY(!index.find(u"x"));
        QVERIFY(!index.contains(u""));
        const QStringView names[] = {u"a", u"b"};
        const IndexedConsumer *found[] = {reinterpret_cast<const IndexedConsumer *>(&index), nullptr};
        index.findMany(names, found);
        QCOMPARE(found[0], nullptr);
        QCOMPARE(found[1], nullptr);
        QVERIFY(index.names().isEmpty());
    }

    void insertAgainReplaces()
    {
        ConsumerIndex index;
        index.insert(QStringLiteral("b"), consumer(1));
        index.insert(QStringLiteral("a"), consumer(2));
        index.insert(QStringLiteral("b"), consumer(3));
        QCOMPARE(index.size(), 2);
        QCOMPARE(index.find(u"b")->numPending, 3);
        QCOMPARE(index.find(u"a")->numPending, 2);
        QCOMPARE(index.names(), (QStringList{QStringLiteral("b"), QStringLiteral("a")})); // insertion order
        QStringList iterated;
        for (const ConsumerIndex::Entry &e : index)
            iterated << e.name + QLatin1Char('=') + QString::number(e.consumer.numPending);
        QCOMPARE(iterated, (QStringList{QStringLiteral("b=3"), QStringLiteral("a=2")}));
    }

    // Growth from empty (rehash after rehash) and a reserve() up front give the same answers.
    void growsAndReserves()
    {
        ConsumerIndex grown;
        ConsumerIndex reserved;
        reserved.reserve(5000);
        for (int i = 0; i < 5000; ++i) {
            grown.insert(durable(i), consumer(i));
            reserved.insert(durable(i), consumer(i));
        }
        for (int i = 0; i < 5000; ++i) {
            QCOMPARE(grown.find(durable(i))->numPending, i);
            QCOMPARE(reserved.find(durable(i))->numPending, i);
        }
        QVERIFY(!grown.contains(durable(5000)));
    }

    void matchesQHash()
    {
        compareWithQHash(nullptr, 20000); // more than one findMany chunk
    }

    // A tag shared by other names: the batch lookup's first candidate is often the wrong name.
    void sharedTags() { compareWithQHash(lengthTagHash, 3000); }

    void oneChainForAll() { compareWithQHash(constantHash, 600); }
};

QTEST_GUILESS_MAIN(TestConsumerIndex)
#include "tst_consumerindex.moc"
