#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "mqtt/retainedrecord.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/storedmessage.h"
#include "mqtt/topicmapping.h"

#include "capturedrecords.h"

using namespace MqttDoctor;
using TestData::loadCapture;
using Dialect = TopicMapping::Dialect;

Q_DECLARE_METATYPE(TopicMapping::Dialect)

namespace {

Dialect dialectOf(const QString &version)
{
    return version.startsWith(QLatin1String("2.9.")) ? Dialect::V2_9 : Dialect::V2_10;
}

} // namespace

class TestTopicMapping : public QObject
{
    Q_OBJECT

private slots:
    // Filters (SUBSCRIBE) both ways; the topic ↔ subject pairs that are also topic names work as such too.
    void filters_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<QString>("mqtt");
        QTest::addColumn<QString>("nats");
        for (Dialect d : {Dialect::V2_9, Dialect::V2_10}) {
            const char *n = d == Dialect::V2_9 ? "2.9" : "2.10";
            QTest::addRow("%s plain", n) << d << QStringLiteral("sensors/kitchen/temp") << QStringLiteral("sensors.kitchen.temp");
            QTest::addRow("%s single level", n) << d << QStringLiteral("foo") << QStringLiteral("foo");
            QTest::addRow("%s plus", n) << d << QStringLiteral("sensors/+/temp") << QStringLiteral("sensors.*.temp");
            QTest::addRow("%s hash", n) << d << QStringLiteral("alerts/#") << QStringLiteral("alerts.>");
            QTest::addRow("%s hash only", n) << d << QStringLiteral("#") << QStringLiteral(">");
            QTest::addRow("%s plus only", n) << d << QStringLiteral("+") << QStringLiteral("*");
            QTest::addRow("%s plus and hash", n) << d << QStringLiteral("+/a/+/#") << QStringLiteral("*.a.*.>");
            QTest::addRow("%s leading empty", n) << d << QStringLiteral("/foo") << QStringLiteral("/.foo");
            QTest::addRow("%s trailing empty", n) << d << QStringLiteral("foo/") << QStringLiteral("foo./");
            QTest::addRow("%s double slash", n) << d << QStringLiteral("x//y") << QStringLiteral("x./.y");
            QTest::addRow("%s only slash", n) << d << QStringLiteral("/") << QStringLiteral("/./");
            QTest::addRow("%s two slashes", n) << d << QStringLiteral("//") << QStringLiteral("/././");
            QTest::addRow("%s trailing double", n) << d << QStringLiteral("foo//") << QStringLiteral("foo././");
            QTest::addRow("%s empty then hash", n) << d << QStringLiteral("/#") << QStringLiteral("/.>");
        }
        // 2.10+: '.' in a level is encoded as "//" (captured: rooms/living.room/+, a.b/#)
        QTest::newRow("2.10 dot") << Dialect::V2_10 << QStringLiteral("rooms/living.room/+") << QStringLiteral("rooms.living//room.*");
        QTest::newRow("2.10 dot hash") << Dialect::V2_10 << QStringLiteral("a.b/#") << QStringLiteral("a//b.>");
        QTest::newRow("2.10 dot level") << Dialect::V2_10 << QStringLiteral("a/./b") << QStringLiteral("a.//.b");
        QTest::newRow("2.10 dots and empty") << Dialect::V2_10 << QStringLiteral("/.x./") << QStringLiteral("/.//x//./");
        QTest::newRow("2.10 unicode") << Dialect::V2_10 << QStringLiteral("caf\u00e9/\u6e29") << QStringLiteral("caf\u00e9.\u6e29");
    }
    void filters()
    {
        QFETCH(Dialect, dialect);
        QFETCH(QString, mqtt);
        QFETCH(QString, nats);
        auto s = TopicMapping::filterToSubject(mqtt, dialect);
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message()));
        QCOMPARE(*s, nats);
        QCOMPARE(TopicMapping::subjectToTopic(nats, dialect), mqtt);
        if (!mqtt.contains(QLatin1Char('+')) && !mqtt.contains(QLatin1Char('#'))) {
            auto t = TopicMapping::topicToSubject(mqtt, dialect);
            QVERIFY(t.ok());
            QCOMPARE(*t, nats);
        }
    }

    void errors_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<QString>("mqtt");
        QTest::addColumn<bool>("isFilter");
        QTest::addColumn<QString>("reason");
        const QString unsupported29 = QStringLiteral("characters ' ' and '.' not supported for MQTT topics");
        QTest::newRow("2.9 dot") << Dialect::V2_9 << QStringLiteral("a.b") << false << unsupported29;
        QTest::newRow("2.9 dot filter") << Dialect::V2_9 << QStringLiteral("rooms/living.room/+") << true << unsupported29;
        QTest::newRow("2.9 space") << Dialect::V2_9 << QStringLiteral("a b") << false << unsupported29;
        QTest::newRow("2.10 space") << Dialect::V2_10 << QStringLiteral("a b/c") << true << QStringLiteral("character ' ' not supported");
        QTest::newRow("empty") << Dialect::V2_10 << QString() << false << QStringLiteral("empty topic");
        QTest::newRow("wildcard in topic name")
            << Dialect::V2_9 << QStringLiteral("a/+") << false << QStringLiteral("wildcards not allowed");
        QTest::newRow("hash in topic name") << Dialect::V2_10 << QStringLiteral("a/#") << false << QStringLiteral("wildcards not allowed");
        QTest::newRow("hash not last") << Dialect::V2_9 << QStringLiteral("a/#/b") << true << QStringLiteral("'#' must be the last level");
        QTest::newRow("partial plus") << Dialect::V2_9 << QStringLiteral("a/b+/c") << true << QStringLiteral("whole level");
        QTest::newRow("partial hash") << Dialect::V2_10 << QStringLiteral("a/b#") << true << QStringLiteral("whole level");
    }
    void errors()
    {
        QFETCH(Dialect, dialect);
        QFETCH(QString, mqtt);
        QFETCH(bool, isFilter);
        QFETCH(QString, reason);
        auto s = isFilter ? TopicMapping::filterToSubject(mqtt, dialect) : TopicMapping::topicToSubject(mqtt, dialect);
        QVERIFY(!s.ok());
        QCOMPARE(s.error().kind(), Error::Kind::InvalidInput);
        QVERIFY2(s.error().message().contains(reason), qPrintable(s.error().message()));
    }

    void levelUp_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<bool>("needs");
        QTest::addColumn<QString>("sid");
        QTest::newRow("alerts.>") << QStringLiteral("alerts.>") << true << QStringLiteral("alerts fwc");
        QTest::newRow("a.b.>") << QStringLiteral("a.b.>") << true << QStringLiteral("a.b fwc");
        QTest::newRow("a//b.>") << QStringLiteral("a//b.>") << true << QStringLiteral("a//b fwc");
        QTest::newRow(">") << QStringLiteral(">") << false << QString();
        QTest::newRow("a.*") << QStringLiteral("a.*") << false << QString();
        QTest::newRow("a>") << QStringLiteral("a>") << false << QString();
    }
    void levelUp()
    {
        QFETCH(QString, subject);
        QFETCH(bool, needs);
        QFETCH(QString, sid);
        QCOMPARE(TopicMapping::needsLevelUp(subject), needs);
        QCOMPARE(TopicMapping::levelUpSid(subject), sid);
        if (needs) {
            QVERIFY(TopicMapping::isLevelUpSid(sid));
            QCOMPARE(TopicMapping::subjectOfSid(sid), subject.left(subject.size() - 2));
            QCOMPARE(TopicMapping::sidToFilter(sid, Dialect::V2_10), TopicMapping::subjectToTopic(subject, Dialect::V2_10));
        }
        QCOMPARE(TopicMapping::subjectOfSid(subject), subject);
    }

    // Real records: the server's own topic ↔ subject pairs (retained JSON carries both; the header form
    // carries the topic, and the stored subject gives the NATS subject).
    void capturedRetained_data()
    {
        QTest::addColumn<QString>("version");
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"})
            QTest::newRow(v) << QString::fromLatin1(v);
    }
    void capturedRetained()
    {
        QFETCH(QString, version);
        int checked = 0;
        for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_rmsgs.json"))) {
            auto r = RetainedRecord::decode(m);
            QVERIFY(r.ok());
            auto s = TopicMapping::topicToSubject(r->topic, dialectOf(version));
            QVERIFY2(s.ok(), qPrintable(r->topic));
            QCOMPARE(*s, r->subject);
            QCOMPARE(TopicMapping::subjectToTopic(r->subject, dialectOf(version)), r->topic);
            ++checked;
        }
        QVERIFY(checked >= 3);
    }

    // Real session records: every subscription subject maps back to a filter that maps to it again,
    // and the filters the capture subscribed to appear.
    void capturedSessions_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QStringList>("expectedFilters");
        const QStringList common = {QStringLiteral("sensors/+/temp"), QStringLiteral("alerts/#"), QStringLiteral("sensors/#"),
                                    QStringLiteral("clean/+")};
        QTest::newRow("2.9.10") << QStringLiteral("2.9.10") << common;
        const QStringList v210 = common
            + QStringList{QStringLiteral("rooms/living.room/+"), QStringLiteral("a.b/#"), QStringLiteral("x//y"), QStringLiteral("q2/#")};
        QTest::newRow("2.10.27") << QStringLiteral("2.10.27") << v210;
        QTest::newRow("2.15.1") << QStringLiteral("2.15.1") << v210;
    }
    void capturedSessions()
    {
        QFETCH(QString, version);
        QFETCH(QStringList, expectedFilters);
        QStringList seen;
        for (const StoredMessage &m : loadCapture(version, QStringLiteral("MQTT_sess.json"))) {
            auto r = SessionRecord::decode(m);
            QVERIFY(r.ok());
            for (const auto &sub : r->subscriptions(dialectOf(version))) {
                auto back = TopicMapping::filterToSubject(sub.mqttFilter, dialectOf(version));
                QVERIFY2(back.ok(), qPrintable(sub.mqttFilter));
                QCOMPARE(*back, sub.natsSubject);
                seen.append(sub.mqttFilter);
            }
            for (auto it = r->cons.begin(); it != r->cons.end(); ++it) {
                // each consumer filters on $MQTT.msgs.<subject of its sid>
                QCOMPARE(it.value().value(QStringLiteral("filter_subject")).toString(),
                         QStringLiteral("$MQTT.msgs.") + TopicMapping::subjectOfSid(it.key()));
            }
        }
        for (const QString &f : expectedFilters)
            QVERIFY2(seen.contains(f), qPrintable(f));
    }
};

QTEST_GUILESS_MAIN(TestTopicMapping)
#include "tst_topicmapping.moc"
