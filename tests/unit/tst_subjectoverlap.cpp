#include <QTest>

#include "diagnosis/subjectoverlap.h"

using namespace MqttDoctor;

class TestSubjectOverlap : public QObject
{
    Q_OBJECT

private slots:
    void overlap_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("overlap");

        const auto row = [](const char *a, const char *b, bool expected) {
            QTest::addRow("%s | %s", a, b) << QString::fromLatin1(a) << QString::fromLatin1(b) << expected;
        };
        row("$MQTT.>", "$MQTT.sess.>", true);
        row(">", "$MQTT.sess.>", true);
        row(">", "a", true);
        row(">", "*", true);
        row(">", ">", true);
        row("$MQTT.msgs.foo.*", "$MQTT.msgs.>", true);
        row("$MQTT.rmsgs", "$MQTT.rmsgs.>", false); // '>' needs at least one token
        row("$MQTT.rmsgs", "$MQTT.rmsgs", true);
        row("$MQTT.rmsgs", "$MQTT.*", true);
        row("$MQTT.rmsgs.x", "$MQTT.rmsgs", false);
        row("a.*.c", "a.b.*", true);
        row("a.*.c", "a.b.d", false);
        row("a.*", "a.b.c", false);
        row("a.*", "a.>", true);
        row("a.*.>", "a.b", false);
        row("a.*.>", "a.b.c", true);
        row("*.*", "a.>", true);
        row("*", "a.b", false);
        row("$MQTT.sess.>", "$MQTT.msgs.>", false);
        row("$MQTT.sess.hub.>", "$MQTT.sess.>", true);
        row("$MQTT.sess.hub.>", "$MQTT.sess.*", false); // needs four tokens, * gives three
        row("$MQTT.sess.hub.>", "$MQTT.sess.spoke.>", false);
        row("$MQTT.qos2.in.>", "$MQTT.qos2.>", true);
        row("$MQTT.out.>", "$MQTT.out", false);
        row("orders.>", "$MQTT.>", false);
        row("foo", "foo", true);
        row("foo", "bar", false);
        row("foo.bar", "foo", false);
        // Invalid filters match nothing.
        row("", "a", false);
        row("a..b", "a.*.b", false);
        row("a.>.b", "a.x.b", false);
    }

    void overlap()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, overlap);
        QCOMPARE(subjectsOverlap(a, b), overlap);
        QCOMPARE(subjectsOverlap(b, a), overlap); // symmetric
    }

    void subset_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<bool>("subset");

        const auto row = [](const char *a, const char *b, bool expected) {
            QTest::addRow("%s in %s", a, b) << QString::fromLatin1(a) << QString::fromLatin1(b) << expected;
        };
        row("$MQTT.sess.hub.>", "$MQTT.sess.>", true);
        row("$MQTT.sess.>", "$MQTT.sess.hub.>", false);
        row("$MQTT.sess.>", "$MQTT.sess.>", true);
        row("$MQTT.sess.>", "$MQTT.>", true);
        row("$MQTT.sess.>", ">", true);
        row("$MQTT.rmsgs", "$MQTT.rmsgs.>", false);
        row("$MQTT.rmsgs.>", "$MQTT.rmsgs", false);
        row("a.b", "a.*", true);
        row("a.*", "a.b", false);
        row("a.*", "a.*", true);
        row("a.*", "a.>", true);
        row("a.>", "a.*", false);
        row("a.b.c", "a.*.c", true);
        row("a.b.c", "a.*", false);
        row("", "a", false);
    }

    void subset()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(bool, subset);
        QCOMPARE(subjectIsSubsetOf(a, b), subset);
        if (subset)
            QVERIFY(subjectsOverlap(a, b));
    }

    void coveredBy()
    {
        QVERIFY(subjectCoveredBy(QStringLiteral("$MQTT.sess.hub.>"), {QStringLiteral("foo"), QStringLiteral("$MQTT.sess.>")}));
        QVERIFY(!subjectCoveredBy(QStringLiteral("$MQTT.sess.>"), {QStringLiteral("$MQTT.sess.hub.>")}));
        QVERIFY(!subjectCoveredBy(QStringLiteral("a"), {}));
    }

    void validity_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<bool>("valid");
        QTest::newRow("literal") << QStringLiteral("$MQTT.rmsgs") << true;
        QTest::newRow("fwc") << QStringLiteral(">") << true;
        QTest::newRow("pwc") << QStringLiteral("a.*.c") << true;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("empty token") << QStringLiteral("a..b") << false;
        QTest::newRow("trailing dot") << QStringLiteral("a.") << false;
        QTest::newRow("fwc not last") << QStringLiteral("a.>.b") << false;
        QTest::newRow("space") << QStringLiteral("a b") << false;
    }

    void validity()
    {
        QFETCH(QString, subject);
        QFETCH(bool, valid);
        QCOMPARE(isValidSubjectFilter(subject), valid);
    }
};

QTEST_GUILESS_MAIN(TestSubjectOverlap)
#include "tst_subjectoverlap.moc"
