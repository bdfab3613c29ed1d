#include <QTest>

#include "nats/nkeys.h"

using namespace MqttDoctor;

class TestNKeys : public QObject
{
    Q_OBJECT

private slots:
    void encodeAndDerive()
    {
        // Vector computed independently (Python cryptography's Ed25519 and the NKeys encoding).
        QByteArray raw;
        for (int i = 0; i < 32; ++i)
            raw.append(static_cast<char>(i));
        const QByteArray seed = NKeys::encodeUserSeed(raw);
        QCOMPARE(seed, QByteArrayLiteral("SUAAAAICAMCAKBQHBAEQUCYMBUHA6EARCIJRIFIWC4MBSGQ3DQOR4H776Y"));
        const auto pub = NKeys::publicKeyFromSeed(seed);
        QVERIFY2(pub.ok(), qPrintable(pub.ok() ? QString() : pub.error().message()));
        QCOMPARE(*pub, QByteArrayLiteral("UAB2CB576PHBBPQ5ODORRZ2LYCMWPZGWGCN2KDK7DXOIMZASKUY3RLKK"));
    }

    void rejectsBadSeeds_data()
    {
        QTest::addColumn<QByteArray>("seed");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("garbage") << QByteArrayLiteral("not a seed");
        QTest::newRow("bad crc") << QByteArrayLiteral("SUAAAAICAMCAKBQHBAEQUCYMBUHA6EARCIJRIFIWC4MBSGQ3DQOR4H776A");
        QTest::newRow("public key, not seed") << QByteArrayLiteral("UAB2CB576PHBBPQ5ODORRZ2LYCMWPZGWGCN2KDK7DXOIMZASKUY3RLKK");
        QTest::newRow("lower case") << QByteArrayLiteral("suaaaaicamcakbqhbaequcymbuha6earcijrifiwc4mbsgq3dqor4h776y");
    }

    void rejectsBadSeeds()
    {
        QFETCH(QByteArray, seed);
        const auto pub = NKeys::publicKeyFromSeed(seed);
        QVERIFY(!pub.ok());
        QCOMPARE(pub.error().kind(), Error::Kind::InvalidInput);
        QVERIFY(pub.error().message().contains(QLatin1String("seed")));
    }

    void findsSeedAndJwtInCredsFile()
    {
        const QByteArray creds = "-----BEGIN NATS USER JWT-----\n"
                                 "eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJqdGkiOiJYIn0.c2lnbmF0dXJl\n"
                                 "------END NATS USER JWT------\n\n"
                                 "************************* IMPORTANT *************************\n"
                                 "-----BEGIN USER NKEY SEED-----\n"
                                 "SUAAAAICAMCAKBQHBAEQUCYMBUHA6EARCIJRIFIWC4MBSGQ3DQOR4H776Y\n"
                                 "------END USER NKEY SEED------\n";
        QCOMPARE(NKeys::findUserJwt(creds),
                 QByteArrayLiteral("eyJ0eXAiOiJKV1QiLCJhbGciOiJlZDI1NTE5LW5rZXkifQ.eyJqdGkiOiJYIn0.c2lnbmF0dXJl"));
        QCOMPARE(NKeys::findSeed(creds), QByteArrayLiteral("SUAAAAICAMCAKBQHBAEQUCYMBUHA6EARCIJRIFIWC4MBSGQ3DQOR4H776Y"));
        QVERIFY(NKeys::findSeed("no seed here").isEmpty());
        QVERIFY(NKeys::findUserJwt("no jwt here").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestNKeys)
#include "tst_nkeys.moc"
