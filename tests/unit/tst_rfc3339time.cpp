// RFC 3339 times with nanoseconds (Rfc3339Time::parseNs): the times of STREAM.MSG.GET replies (StreamReader::parseTimeNs)
// and of backup files (BackupFormat::parseTime) are read by the same parser.
#include <QTest>

#include "common/rfc3339time.h"
#include "nats/streamreader.h"
#include "repair/backupformat.h"

using namespace MqttDoctor;

class TestRfc3339Time : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("ns"); // -1: not a time
        const qint64 second = 1764690637LL * 1000000000LL; // 2025-12-02T15:50:37Z
        QTest::newRow("server nanoseconds") << u"2025-12-02T15:50:37.344798216Z"_qs << second + 344798216;
        QTest::newRow("no fraction") << u"2025-12-02T15:50:37Z"_qs << second;
        QTest::newRow("short fraction") << u"2025-12-02T15:50:37.5Z"_qs << second + 500000000;
        QTest::newRow("offset") << u"2025-12-02T16:50:37.000000001+01:00"_qs << second + 1;
        QTest::newRow("spaces around") << u"  2025-12-02T15:50:37Z\n"_qs << second;
        QTest::newRow("epoch") << u"1970-01-01T00:00:00Z"_qs << qint64(0);
        QTest::newRow("ten digits") << u"2025-12-02T15:50:37.1234567891Z"_qs << qint64(-1);
        QTest::newRow("dot without digits") << u"2025-12-02T15:50:37.Z"_qs << qint64(-1);
        QTest::newRow("no T") << u"2025-12-02 15:50:37.5Z"_qs << qint64(-1);
        QTest::newRow("date only") << u"2025-12-02"_qs << qint64(-1);
        QTest::newRow("bad month") << u"2025-13-02T15:50:37Z"_qs << qint64(-1);
        QTest::newRow("empty") << QString() << qint64(-1);
        QTest::newRow("words") << u"yesterday at noon, roughly"_qs << qint64(-1);
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, ns);
        const std::optional<qint64> parsed = Rfc3339Time::parseNs(text);
        QCOMPARE(parsed, ns < 0 ? std::nullopt : std::optional<qint64>(ns));
        QCOMPARE(BackupFormat::parseTime(text), parsed);
        QCOMPARE(StreamReader::parseTimeNs(text), ns < 0 ? 0 : ns);
    }

    void backupTimesReadBack()
    {
        for (const qint64 ns : {qint64(0), qint64(1), qint64(1764690637344798216LL)})
            QCOMPARE(Rfc3339Time::parseNs(BackupFormat::formatTime(ns)), std::optional<qint64>(ns));
    }
};

QTEST_GUILESS_MAIN(TestRfc3339Time)
#include "tst_rfc3339time.moc"
