#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "mqtt/clientidhash.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/storedmessage.h"

#include "capturedrecords.h"

using namespace MqttDoctor;
using TestData::loadCapture;

class TestClientIdHash : public QObject
{
    Q_OBJECT

private slots:
    void vectors_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("hash");
        // (lab-confirmed against 2.9.10)
        QTest::newRow("sensor-sub-1") << QStringLiteral("sensor-sub-1") << QStringLiteral("kBmSuDPK");
        QTest::newRow("dashboard-2") << QStringLiteral("dashboard-2") << QStringLiteral("GGF5bYH2");
        QTest::newRow("g1") << QStringLiteral("g1") << QStringLiteral("pKmyMGN4");
        QTest::newRow("verify1 (server name)") << QStringLiteral("verify1") << QStringLiteral("DiAi4bSi");
        QTest::newRow("S1 (server name)") << QStringLiteral("S1") << QStringLiteral("sQnRv29R");
        QTest::newRow("client1") << QStringLiteral("client1") << QStringLiteral("PNfq787e");
        QTest::newRow("sub1") << QStringLiteral("sub1") << QStringLiteral("UH4PAlxE");
        QTest::newRow("cid-03579431") << QStringLiteral("cid-03579431") << QStringLiteral("1fbmU9bb");
        QTest::newRow("cid-09191235") << QStringLiteral("cid-09191235") << QStringLiteral("1fbmU9bb");
        // captured in this repo's records: server_name x1 is the records' origin, and more client IDs
        QTest::newRow("x1 (capture origin)") << QStringLiteral("x1") << QStringLiteral("onglaOPN");
        QTest::newRow("q2sub-1 (PUBREL subject)") << QStringLiteral("q2sub-1") << QStringLiteral("Mh0qIKOb");
        QTest::newRow("dotted-3") << QStringLiteral("dotted-3") << QStringLiteral("3PgLR7UO");
    }
    void vectors()
    {
        QFETCH(QString, input);
        QFETCH(QString, hash);
        QCOMPARE(ClientIdHash::hash(input), hash);
        QCOMPARE(ClientIdHash::hashBytes(input.toUtf8()), hash);
        QVERIFY(ClientIdHash::isHashToken(hash));
        // hashEquals: the same answer without a string; any other token, shorter or longer, is not it
        QVERIFY(ClientIdHash::hashEquals(input, hash));
        QString other = hash;
        other[7] = other.at(7) == QLatin1Char('a') ? QLatin1Char('b') : QLatin1Char('a');
        QVERIFY(!ClientIdHash::hashEquals(input, other));
        QVERIFY(!ClientIdHash::hashEquals(input, QStringView(hash).left(7)));
        QVERIFY(!ClientIdHash::hashEquals(input, QString(hash + QLatin1Char('x'))));
        QVERIFY(!ClientIdHash::hashEquals(input, QStringView()));
    }

    void collidingPair()
    {
        const QString a = ClientIdHash::hash(QStringLiteral("cid-03579431"));
        const QString b = ClientIdHash::hash(QStringLiteral("cid-09191235"));
        QCOMPARE(a, b);
        QCOMPARE(a, QStringLiteral("1fbmU9bb"));
    }

    void shapeOfAnyInput_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("unicode") << QStringLiteral("capteur-\u00e9t\u00e9-\u6e29\u5ea6").toUtf8();
        QTest::newRow("invalid utf-8") << QByteArray("\xff\xfe\x80", 3);
        QTest::newRow("long") << QByteArray(100000, 'x');
    }
    void shapeOfAnyInput()
    {
        QFETCH(QByteArray, input);
        const QString h = ClientIdHash::hashBytes(input);
        QCOMPARE(h.size(), ClientIdHash::length);
        QVERIFY(ClientIdHash::isHashToken(h));
        QCOMPARE(ClientIdHash::hashBytes(input), h); // deterministic
    }

    void isHashToken_data()
    {
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("ok");
        QTest::newRow("good") << QStringLiteral("kBmSuDPK") << true;
        QTest::newRow("short") << QStringLiteral("kBmSuDP") << false;
        QTest::newRow("long") << QStringLiteral("kBmSuDPKx") << false;
        QTest::newRow("dash") << QStringLiteral("kBmSu-PK") << false;
        QTest::newRow("empty") << QString() << false;
        QTest::newRow("non-ascii") << QStringLiteral("kBmSu\u00e9PK") << false;
    }
    void isHashToken()
    {
        QFETCH(QString, token);
        QFETCH(bool, ok);
        QCOMPARE(ClientIdHash::isHashToken(token), ok);
    }

    // Every real session record is stored under the hash of its "id"; the origin is the hash of the server name.
    void capturedSessionSubjects_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("file");
        for (const char *v : {"2.9.10", "2.10.27", "2.15.1"}) {
            for (const char *f : {"MQTT_sess.json", "MQTT_sess.after.json"})
                QTest::addRow("%s/%s", v, f) << QString::fromLatin1(v) << QString::fromLatin1(f);
        }
    }
    void capturedSessionSubjects()
    {
        QFETCH(QString, version);
        QFETCH(QString, file);
        const auto messages = loadCapture(version, file);
        QVERIFY(!messages.isEmpty());
        for (const StoredMessage &m : messages) {
            auto r = SessionRecord::decode(m);
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message()));
            QCOMPARE(QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(r->id), m.subject);
            QCOMPARE(r->origin, ClientIdHash::hash(QStringLiteral("x1")));
        }
    }
};

QTEST_GUILESS_MAIN(TestClientIdHash)
#include "tst_clientidhash.moc"
