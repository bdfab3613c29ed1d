// RFC 3339 times with nanoseconds (Rfc3339Time::parseNs): the times of STREAM.MSG.GET replies (MessageGetter::parseTimeNs)
// and of backup files (BackupFormat::parseTime) are read by the same parser.
#include <QDateTime>
#include <QTest>

#include <limits>

#include "common/rfc3339time.h"
#include "nats/messagegetter.h"
#include "repair/backupformat.h"

using namespace MqttDoctor;

class TestRfc3339Time : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("ns");
        const qint64 second = 1764690637LL * 1000000000LL; // 2025-12-02T15:50:37Z
        QTest::newRow("server nanoseconds") << u"2025-12-02T15:50:37.344798216Z"_qs << true << second + 344798216;
        QTest::newRow("no fraction") << u"2025-12-02T15:50:37Z"_qs << true << second;
        QTest::newRow("short fraction") << u"2025-12-02T15:50:37.5Z"_qs << true << second + 500000000;
        QTest::newRow("offset") << u"2025-12-02T16:50:37.000000001+01:00"_qs << true << second + 1;
        QTest::newRow("spaces around") << u"  2025-12-02T15:50:37Z\n"_qs << true << second;
        QTest::newRow("epoch") << u"1970-01-01T00:00:00Z"_qs << true << qint64(0);
        QTest::newRow("ten digits") << u"2025-12-02T15:50:37.1234567891Z"_qs << false << qint64(0);
        QTest::newRow("dot without digits") << u"2025-12-02T15:50:37.Z"_qs << false << qint64(0);
        QTest::newRow("no T") << u"2025-12-02 15:50:37.5Z"_qs << false << qint64(0);
        QTest::newRow("date only") << u"2025-12-02"_qs << false << qint64(0);
        QTest::newRow("bad month") << u"2025-13-02T15:50:37Z"_qs << false << qint64(0);
        QTest::newRow("empty") << QString() << false << qint64(0);
        QTest::newRow("words") << u"yesterday at noon, roughly"_qs << false << qint64(0);
        // Beyond 64-bit nanoseconds (found by fuzz_jetstreamreply: a signed overflow before): not a time.
        QTest::newRow("last ns") << u"2262-04-11T23:47:16.854775807Z"_qs << true << std::numeric_limits<qint64>::max();
        QTest::newRow("one ns later") << u"2262-04-11T23:47:16.854775808Z"_qs << false << qint64(0);
        QTest::newRow("first ns") << u"1677-09-21T00:12:43.145224192Z"_qs << true << std::numeric_limits<qint64>::min();
        QTest::newRow("one ns earlier") << u"1677-09-21T00:12:43.145224191Z"_qs << false << qint64(0);
        QTest::newRow("year 5063") << u"5063-01-01T00:00:00Z"_qs << false << qint64(0);
        QTest::newRow("year 1") << u"0001-01-01T00:00:00Z"_qs << false << qint64(0);
        QTest::newRow("before 1970") << u"1969-12-31T23:59:59.5Z"_qs << true << qint64(-500000000);
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QFETCH(qint64, ns);
        const std::optional<qint64> parsed = Rfc3339Time::parseNs(text);
        QCOMPARE(parsed, valid ? std::optional<qint64>(ns) : std::nullopt);
        QCOMPARE(BackupFormat::parseTime(text), parsed);
        QCOMPARE(MessageGetter::parseTimeNs(text), ns);
    }

    void backupTimesReadBack()
    {
        for (const qint64 ns : {qint64(0), qint64(1), qint64(-1), qint64(1764690637344798216LL), std::numeric_limits<qint64>::max(),
                                std::numeric_limits<qint64>::min()})
            QCOMPARE(Rfc3339Time::parseNs(BackupFormat::formatTime(ns)), std::optional<qint64>(ns));
    }

    // The listings' own formatting of a time is QDateTime's ISODateWithMs, character for character.
    void formatMsAsQt()
    {
        QList<qint64> times{0,
                            1,
                            999,
                            1000,
                            86399999,
                            951782400000 /* 2000-02-29 */,
                            1764906012123,
                            4102444799999,
                            253402300799999 /* 9999-12-31T23:59:59.999 */,
                            -1,
                            -86400001,
                            -62135596800000 /* year 1 */};
        quint64 x = 88172645463325252ULL;
        for (int i = 0; i < 20000; ++i) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17; // xorshift: times from 1970 to 2106, every millisecond digit
            times << qint64(x % 4354819200000ULL);
        }
        for (const qint64 ms : std::as_const(times)) {
            const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
            QCOMPARE(Rfc3339Time::formatMs(t), t.toString(Qt::ISODateWithMs));
        }
        QCOMPARE(Rfc3339Time::formatMs(QDateTime()), QString());
        const QDateTime far = QDateTime::fromMSecsSinceEpoch(253402300800000, Qt::UTC); // year 10000: Qt's own form
        QCOMPARE(Rfc3339Time::formatMs(far), far.toString(Qt::ISODateWithMs));
    }
};

QTEST_GUILESS_MAIN(TestRfc3339Time)
#include "tst_rfc3339time.moc"
