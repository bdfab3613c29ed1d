// The compact containers session records use instead of QMap and std::optional (memory of 100,000
// loaded sessions): same observable behaviour as the types they replace.
#include <QMap>
#include <QTest>

#include "common/flatmap.h"
#include "common/sharedoptional.h"

using namespace MqttDoctor;

class TestCompactContainers : public QObject
{
    Q_OBJECT

private slots:
    // FlatMap against QMap: the same operations give the same keys, values and order.
    void flatMapMatchesQMap()
    {
        FlatMap<QString, int> flat;
        QMap<QString, int> map;
        const QStringList keys{QStringLiteral("m"),     QStringLiteral("a"), QStringLiteral("z"), QStringLiteral("a"),
                               QStringLiteral("b fwc"), QStringLiteral("b"), QStringLiteral("")};
        int n = 0;
        for (const QString &k : keys) {
            flat.insert(k, n);
            map.insert(k, n);
            ++n;
        }
        QCOMPARE(flat.size(), map.size());
        QCOMPARE(flat.keys(), map.keys());
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            QVERIFY(flat.contains(it.key()));
            QCOMPARE(flat.value(it.key()), it.value());
        }
        QCOMPARE(flat.value(QStringLiteral("a")), 3); // inserting an existing key replaces its value
        QVERIFY(!flat.contains(QStringLiteral("missing")));
        QCOMPARE(flat.value(QStringLiteral("missing"), -7), -7);
        auto mit = map.cbegin();
        for (auto it = flat.cbegin(); it != flat.cend(); ++it, ++mit) {
            QCOMPARE(it.key(), mit.key());
            QCOMPARE(it.value(), mit.value());
        }
        QStringList rangeKeys;
        for (const auto &[k, v] : flat.asKeyValueRange())
            rangeKeys << k;
        QCOMPARE(rangeKeys, map.keys());
        QCOMPARE(flat.remove(QStringLiteral("m")), 1);
        QCOMPARE(flat.remove(QStringLiteral("m")), 0);
        map.remove(QStringLiteral("m"));
        QCOMPARE(flat.keys(), map.keys());
        flat[QStringLiteral("new")] = 42;
        QCOMPARE(flat.value(QStringLiteral("new")), 42);
        ++flat[QStringLiteral("new")];
        QCOMPARE(flat.value(QStringLiteral("new")), 43);

        FlatMap<QString, int> copy = flat;
        QVERIFY(copy == flat);
        copy.insert(QStringLiteral("a"), 99);
        QVERIFY(copy != flat); // a copy is independent
        QCOMPARE(flat.value(QStringLiteral("a")), 3);
        copy.clear();
        QVERIFY(copy.isEmpty());
        QVERIFY(copy.cbegin() == copy.cend());
    }

    void sharedOptional()
    {
        SharedOptional<QString> none;
        QVERIFY(!none);
        QVERIFY(!none.has_value());
        QCOMPARE(none.value_or(QStringLiteral("x")), QStringLiteral("x"));
        QVERIFY(!none.toOptional());
        SharedOptional<QString> a = QStringLiteral("durable");
        QVERIFY(a);
        QCOMPARE(*a, QStringLiteral("durable"));
        QCOMPARE(a->size(), 7);
        SharedOptional<QString> b = a; // shares
        QVERIFY(a == b);
        b = QStringLiteral("other"); // assignment replaces, never changes the shared value
        QCOMPARE(*a, QStringLiteral("durable"));
        QVERIFY(!(a == b));
        QVERIFY(a == SharedOptional<QString>(QStringLiteral("durable"))); // equal values, different boxes
        QVERIFY(!(a == none));
        QVERIFY(none == SharedOptional<QString>(std::nullopt));
        b = std::nullopt;
        QVERIFY(!b);
        a.reset();
        QVERIFY(a == b);
        const std::optional<QString> opt = QStringLiteral("from optional");
        const SharedOptional<QString> c = opt;
        QCOMPARE(c.toOptional(), opt);
    }
};

QTEST_GUILESS_MAIN(TestCompactContainers)
#include "tst_compactcontainers.moc"
