// Whole logs: LogLineReader (blocks, line ends, lines over the cap, binary bytes, read errors), the hand-read prefix
// of LogLine against the expressions it stands in for, nats-server timestamps, and LogGrouper (what is explained,
// not recognised or skipped; groups, their counts, times and bounded values; the message cache and the cap of
// unrecognised shapes). The CLI on real server logs: tests/integration/tst_explainlog.cpp.
#include <QBuffer>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include "diagnosis/logcatalogue.h"
#include "diagnosis/loggrouper.h"
#include "diagnosis/logline.h"
#include "diagnosis/loglinereader.h"

#include "capturedlogs.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::CapturedLogs;
using namespace Qt::StringLiterals;

namespace {

/** Every line a reader gives, with whether it was cut. */
QList<std::pair<QByteArray, bool>> readAll(QIODevice *device, qsizetype maxLineBytes = LogLineReader::kDefaultMaxLineBytes)
{
    QList<std::pair<QByteArray, bool>> out;
    LogLineReader reader(device, maxLineBytes);
    QByteArrayView line;
    bool truncated = false;
    while (reader.next(line, truncated)) {
        out.append({line.toByteArray(), truncated});
        if (reader.lineNumber() != out.size())
            qFatal("line number %lld after %lld lines", reader.lineNumber(), qlonglong(out.size()));
    }
    return out;
}

/** A device that gives `data`, then fails: a disk error half-way through a file. */
class FailingDevice final : public QIODevice
{
public:
    explicit FailingDevice(QByteArray data) : m_data(std::move(data)) { open(QIODevice::ReadOnly); }

protected:
    qint64 readData(char *out, qint64 max) override
    {
        if (m_data.isEmpty()) {
            setErrorString(u"Input/output error"_s);
            return -1;
        }
        const qint64 n = qMin<qint64>(max, m_data.size());
        memcpy(out, m_data.constData(), size_t(n));
        m_data.remove(0, n);
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QByteArray m_data;
};

/** The prefix as the expressions LogLine used for every line read it (the reference for the hand-read one). */
struct ReferencePrefix
{
    QString pid, timestamp, level, address, kind, number, quoted, rest;
};

ReferencePrefix referencePrefix(const QString &line)
{
    static const QRegularExpression level(u"^.*?(?:\\[(\\d+)\\]\\s+)?(?:(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+)?"
                                          u"\\[(ERR|WRN|INF|DBG|TRC|FTL)\\](?:\\s+|$)"_s);
    static const QRegularExpression bare(u"^(?:\\[(\\d+)\\]\\s+)?(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+"_s);
    static const QRegularExpression client(
        u"^(\\S+) - (mid_ws|mid|cid|wid|lid_ws|lid|rid|gid):(\\d+)(?: - (\"(?:[^\"\\\\]|\\\\.)*\"))? - "_s);
    ReferencePrefix r;
    QString rest = line.trimmed();
    if (const auto m = level.match(rest); m.hasMatch()) {
        r.pid = m.captured(1);
        r.timestamp = m.captured(2);
        r.level = m.captured(3);
        rest = rest.mid(m.capturedEnd(0));
    } else if (const auto t = bare.match(rest); t.hasMatch()) {
        r.pid = t.captured(1);
        r.timestamp = t.captured(2);
        rest = rest.mid(t.capturedEnd(0));
    }
    if (rest.startsWith(u"nats-server: "_s))
        rest = rest.mid(13);
    if (const auto c = client.match(rest); c.hasMatch()) {
        r.address = c.captured(1);
        r.kind = c.captured(2);
        r.number = c.captured(3);
        r.quoted = c.captured(4);
        rest = rest.mid(c.capturedEnd(0));
    }
    r.rest = rest.trimmed();
    return r;
}

const QString kErr = u"[4711] 2026/12/02 15:50:38.001002 [ERR] 10.0.3.17:51240 - mid:89 - \"%1\" - "_s;
const QString kOverlap = u"unable to connect: create sessions stream for account \"%1\": subjects overlap with an "
                         u"existing stream (10065)"_s;

LogGroup::Position at(qint64 line)
{
    return {u"test.log"_s, line};
}

} // namespace

class TestLogGrouping : public QObject
{
    Q_OBJECT

private slots:
    // --- reading ----------------------------------------------------------------------------------------------------

    void readerLineEnds()
    {
        QByteArray data("first\nsecond\r\n\n  \r\nlast without end");
        QBuffer buffer(&data);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        const auto lines = readAll(&buffer);
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines.at(0).first, QByteArray("first"));
        QCOMPARE(lines.at(1).first, QByteArray("second"));
        QCOMPARE(lines.at(2).first, QByteArray());
        QCOMPARE(lines.at(3).first, QByteArray("  "));
        QCOMPARE(lines.at(4).first, QByteArray("last without end"));
        for (const auto &l : lines)
            QVERIFY(!l.second);

        QByteArray ended("one\n");
        QBuffer endedBuffer(&ended);
        QVERIFY(endedBuffer.open(QIODevice::ReadOnly));
        QCOMPARE(readAll(&endedBuffer).size(), 1); // a final line end starts no line
        QByteArray nothing;
        QBuffer empty(&nothing);
        QVERIFY(empty.open(QIODevice::ReadOnly));
        QCOMPARE(readAll(&empty).size(), 0);
    }

    // Lines longer than the cap keep their start; the rest is read and dropped, also across the reader's blocks and
    // at the end of the input. Binary bytes (NUL, invalid UTF-8) are bytes like others.
    void readerLongLinesAndBinary()
    {
        QByteArray data = "short\n" + QByteArray(3 * 1024 * 1024, 'x') + "\nafter\n" + QByteArray(100, 'y') + "\r\n"
            + QByteArray("a\0b\xff\xfe", 5) + "\n" + QByteArray(600 * 1024, 'z');
        QBuffer buffer(&data);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        const auto lines = readAll(&buffer, 64);
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines.at(0), std::make_pair(QByteArray("short"), false));
        QCOMPARE(lines.at(1), std::make_pair(QByteArray(64, 'x'), true));
        QCOMPARE(lines.at(2), std::make_pair(QByteArray("after"), false));
        QCOMPARE(lines.at(3), std::make_pair(QByteArray(64, 'y'), true));
        QCOMPARE(lines.at(4), std::make_pair(QByteArray("a\0b\xff\xfe", 5), false));
        QCOMPARE(lines.at(5), std::make_pair(QByteArray(64, 'z'), true));
        // Exactly at the cap is not cut.
        QByteArray exact = QByteArray(64, 'e') + '\n';
        QBuffer exactBuffer(&exact);
        QVERIFY(exactBuffer.open(QIODevice::ReadOnly));
        QCOMPARE(readAll(&exactBuffer, 64).first(), std::make_pair(QByteArray(64, 'e'), false));
    }

    void readerReportsReadErrors()
    {
        FailingDevice device(QByteArray("one\ntwo\nthr"));
        LogLineReader reader(&device);
        QByteArrayView line;
        bool truncated = false;
        QVERIFY(reader.next(line, truncated));
        QCOMPARE(line, QByteArrayView("one"));
        QVERIFY(reader.next(line, truncated));
        QCOMPARE(line, QByteArrayView("two"));
        QVERIFY(!reader.next(line, truncated)); // "thr" is not a line: the read failed before its end
        QVERIFY(reader.failed());
        QCOMPARE(reader.errorString(), u"Input/output error"_s);
        QCOMPARE(reader.lineNumber(), 2);
        QVERIFY(!reader.next(line, truncated));
        LogLineReader none(nullptr);
        QVERIFY(!none.next(line, truncated));
    }

    // --- the prefix and the time ------------------------------------------------------------------------------------

    // LogLine reads the usual prefix by hand (a whole log goes through it); it must give exactly what the expressions
    // gave, for every captured line and for the shapes operators paste.
    void prefixAsTheExpressionsRead_data()
    {
        QTest::addColumn<QString>("line");
        int n = 0;
        for (const QString &v : kVersions)
            for (const auto &[file, line] : readCapturedLogs(v))
                QTest::addRow("%s %d", qPrintable(v), ++n) << line;
        const QStringList pasted{
            u"2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:1 - mid:2 - \"c\" - x"_s,
            u"[ERR] 127.0.0.1:1 - mid:2 - \"c\" - x"_s,
            u"[1]  2026/12/02   15:50:37Z [WRN]   127.0.0.1:1 - mid_ws:2 - \"a \\\"b\\\" - c\" - x"_s,
            u"[1] 2026/12/02 15:50:37.1x [ERR] y"_s,
            u"[1] 2026/12/02 15:50:37 [XYZ] no level [INF] then one"_s,
            u"[1] 2026/12/02 15:50:37 y"_s,
            u"Dec 02 15:50:37 host nats-server[1]: [1] 2026/12/02 15:50:37.1 [ERR] 1.2.3.4:5 - cid:6 - \"n\" - m"_s,
            u"nats.log:12:[1] 2026/12/02 15:50:37.1 [FTL] x"_s,
            u"[1] 2026/12/02 15:50:37.1 [ERR]"_s,
            u"[1] [ERR] [::1]:5 - mid:6 - \"unterminated - m"_s,
            u"[1] [ERR] [::1]:5 - mid:6 - \"q\" -m"_s,
            u"[1] [ERR] [::1]:5 - lid_ws:6 - m"_s,
            u"[1] [ERR] [::1]:5 - mid:x - m"_s,
            u"[1] [ERR] a - mid_wsx:6 - m"_s,
            u"[12a] 2026/12/02 15:50:37 [ERR] m"_s,
            u"[1]\t2026/12/02\t15:50:37.5\t[ERR]\tm"_s,
            u"nats-server: mqtt authentication token not compatible"_s,
            u"\u00fc[1] 2026/12/02 15:50:37 [ERR] 127.0.0.1:1 - mid:2 - \"\u00fc\" - m"_s,
        };
        for (const QString &line : pasted)
            QTest::addRow("pasted %d", ++n) << line;
    }
    void prefixAsTheExpressionsRead()
    {
        QFETCH(QString, line);
        const LogLine l = LogLine::parse(line);
        const ReferencePrefix r = referencePrefix(line);
        QCOMPARE(l.pid, r.pid);
        QCOMPARE(l.timestamp, r.timestamp);
        QCOMPARE(l.level, r.level);
        QCOMPARE(l.clientAddress, r.address);
        QCOMPARE(l.clientKind, r.kind);
        QCOMPARE(l.clientNumber, r.number.toLongLong());
        QCOMPARE(l.message, r.rest);
        if (l.isMqttClient() && !r.quoted.isEmpty())
            QCOMPARE(l.clientId, *LogLine::unquoteGo(r.quoted));
    }

    // The same for lines made at random from the pieces of a prefix (brackets, digits, dates, levels, kinds, quotes,
    // escapes, blanks): where the hand-read prefix and the expressions could part, they must not.
    void prefixAsTheExpressionsReadAtRandom()
    {
        const QStringList pieces{u"["_s,
                                 u"]"_s,
                                 u"1234"_s,
                                 u"7"_s,
                                 u" "_s,
                                 u"  "_s,
                                 u"\t"_s,
                                 u"2026/12/02"_s,
                                 u"15:50:37"_s,
                                 u".344798"_s,
                                 u"Z"_s,
                                 u"[ERR]"_s,
                                 u"[INF]"_s,
                                 u"[DBG]"_s,
                                 u"[XYZ]"_s,
                                 u"127.0.0.1:45696"_s,
                                 u"[::1]:5"_s,
                                 u" - "_s,
                                 u"-"_s,
                                 u"mid:"_s,
                                 u"mid_ws:"_s,
                                 u"cid:"_s,
                                 u"lid_ws:"_s,
                                 u"30"_s,
                                 u"\""_s,
                                 u"\\"_s,
                                 u"\\\""_s,
                                 u"c1"_s,
                                 u"\u00fc"_s,
                                 u"nats-server: "_s,
                                 u"unable to connect: "_s,
                                 u"x"_s,
                                 u"\n"_s};
        // Half of the lines: a whole prefix with a few pieces dropped, changed or added; the others: pieces at random.
        const QStringList whole{u"["_s,        u"1234"_s,       u"]"_s,
                                u" "_s,        u"2026/12/02"_s, u" "_s,
                                u"15:50:37"_s, u".344798"_s,    u" "_s,
                                u"[ERR]"_s,    u" "_s,          u"127.0.0.1:45696"_s,
                                u" - "_s,      u"mid:"_s,       u"30"_s,
                                u" - "_s,      u"\""_s,         u"c1"_s,
                                u"\""_s,       u" - "_s,        u"unable to connect: "_s,
                                u"x"_s};
        QRandomGenerator random(20261205);
        for (int n = 0; n < 40000; ++n) {
            QStringList chosen;
            if (n % 2 == 0) {
                chosen = whole;
                for (int edits = random.bounded(1, 4); edits > 0; --edits) {
                    const int at = random.bounded(int(chosen.size()));
                    switch (random.bounded(3)) {
                    case 0: chosen.removeAt(at); break;
                    case 1: chosen[at] = pieces.at(random.bounded(int(pieces.size()))); break;
                    default: chosen.insert(at, pieces.at(random.bounded(int(pieces.size())))); break;
                    }
                }
            } else {
                for (int i = random.bounded(1, 16); i > 0; --i)
                    chosen.append(pieces.at(random.bounded(int(pieces.size()))));
            }
            const QString line = chosen.join(QString());
            const LogLine l = LogLine::parse(line);
            const ReferencePrefix r = referencePrefix(line);
            const QString referenceId =
                l.isMqttClient() && !r.quoted.isEmpty() ? LogLine::unquoteGo(r.quoted).value_or(QString()) : QString();
            const bool same = l.pid == r.pid && l.timestamp == r.timestamp && l.level == r.level && l.clientAddress == r.address
                && l.clientKind == r.kind && l.clientNumber == r.number.toLongLong() && l.message == r.rest && l.clientId == referenceId;
            if (!same) {
                const QString parsed =
                    QStringList{l.pid, l.timestamp, l.level, l.clientAddress, l.clientKind, l.clientId, l.message}.join(u'|');
                const QString reference = QStringList{r.pid, r.timestamp, r.level, r.address, r.kind, referenceId, r.rest}.join(u'|');
                QFAIL(qPrintable(u"line: "_s + line + u"\nparsed:    "_s + parsed + u"\nreference: "_s + reference));
            }
        }
    }

    void timestamps_data()
    {
        QTest::addColumn<QString>("timestamp");
        QTest::addColumn<qint64>("micros"); // -1: not a time
        const qint64 day = 86400LL * 1000000;
        QTest::newRow("epoch") << u"1970/01/01 00:00:00"_s << qint64(0);
        QTest::newRow("micros") << u"1970/01/01 00:00:01.000002"_s << qint64(1000002);
        QTest::newRow("short fraction") << u"1970/01/01 00:00:00.5"_s << qint64(500000);
        QTest::newRow("nanoseconds cut") << u"1970/01/01 00:00:00.123456789"_s << qint64(123456);
        QTest::newRow("utc") << u"1970/01/02 00:00:00.000001Z"_s << day + 1;
        QTest::newRow("a log of the tests") << u"2026/12/02 15:50:37.344798"_s
                                            << (QDate(2026, 12, 2).toJulianDay() - QDate(1970, 1, 1).toJulianDay()) * day
                + (15 * 3600 + 50 * 60 + 37) * 1000000LL + 344798;
        QTest::newRow("leap day") << u"2024/02/29 00:00:00"_s << (QDate(2024, 2, 29).toJulianDay() - 2440588) * day;
        QTest::newRow("blanks") << u"1970/01/01   00:00:00"_s << qint64(0);
        QTest::newRow("no leap day") << u"2026/02/29 00:00:00"_s << qint64(-1);
        QTest::newRow("month 13") << u"2026/13/01 00:00:00"_s << qint64(-1);
        QTest::newRow("hour 24") << u"2026/12/02 24:00:00"_s << qint64(-1);
        QTest::newRow("empty") << QString() << qint64(-1);
        QTest::newRow("date only") << u"2026/12/02"_s << qint64(-1);
        QTest::newRow("trailing text") << u"2026/12/02 15:50:37 x"_s << qint64(-1);
        QTest::newRow("syslog") << u"Dec 02 15:50:37"_s << qint64(-1);
    }
    void timestamps()
    {
        QFETCH(QString, timestamp);
        QFETCH(qint64, micros);
        const std::optional<qint64> t = LogLine::timeMicros(timestamp);
        QCOMPARE(t.has_value(), micros >= 0);
        if (t)
            QCOMPARE(*t, micros);
    }

    // --- grouping ---------------------------------------------------------------------------------------------------

    void whatIsExplainedSkippedOrNotRecognised_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("kind");
        const int explained = int(LogGrouper::LineKind::Explained), unknown = int(LogGrouper::LineKind::NotRecognised),
                  skipped = int(LogGrouper::LineKind::Skipped), blank = int(LogGrouper::LineKind::Blank);
        QTest::newRow("refused connect") << kErr.arg(u"c"_s) + kOverlap.arg(u"A"_s) << explained;
        QTest::newRow("without prefix") << kOverlap.arg(u"A"_s) << explained;
        QTest::newRow("info template")
            << u"[1] 2026/12/02 15:50:37.1 [INF] Creating MQTT streams/consumers with replicas 1 for account \"A\""_s << explained;
        QTest::newRow("unknown refusal") << kErr.arg(u"c"_s) + u"unable to connect: something new"_s << unknown;
        QTest::newRow("unknown refusal, no prefix") << u"unable to connect: something new"_s << unknown;
        QTest::newRow("mentions MQTT") << u"[1] 2026/12/02 15:50:37.1 [WRN] MQTT something odd"_s << unknown;
        QTest::newRow("$MQTT stream")
            << u"[1] 2026/12/02 15:50:37.1 [WRN] JetStream cluster consumer 'A > $MQTT_msgs > x' has NO quorum, stalled."_s << unknown;
        QTest::newRow("client and stream") << kErr.arg(u"c"_s) + u"the stream went away"_s << unknown;
        QTest::newRow("client's js error") << kErr.arg(u"c"_s) + u"odd (10999)"_s << explained; // mqtt.jetstream_error
        QTest::newRow("client and js code") << kErr.arg(u"c"_s) + u"odd: (10999) and more"_s << unknown;
        QTest::newRow("fatal") << u"[1] 2026/12/02 15:50:37.1 [FTL] mqtt listener failed"_s << unknown;
        QTest::newRow("mqtt auth") << kErr.arg(u"c"_s) + u"authentication error"_s << skipped;
        QTest::newRow("mqtt debug")
            << u"[1] 2026/12/02 15:50:37.1 [DBG] 127.0.0.1:1 - mid:2 - \"c\" - Client connection closed: Protocol Violation"_s << skipped;
        QTest::newRow("template at debug level") << u"[1] 2026/12/02 15:50:37.1 [DBG] "_s + kOverlap.arg(u"A"_s) << skipped;
        QTest::newRow("trace") << u"[1] 2026/12/02 15:50:37.1 [TRC] 127.0.0.1:1 - mid:2 - \"c\" - <<- [PUB $MQTT.sess.x 5]"_s << skipped;
        QTest::newRow("mqtt info") << u"[1] 2026/12/02 15:50:37.1 [INF] Listening for MQTT clients on mqtt://127.0.0.1:1883"_s << skipped;
        QTest::newRow("other stream") << u"[1] 2026/12/02 15:50:37.1 [WRN] JetStream cluster stream 'A > ORDERS' has NO quorum, stalled."_s
                                      << skipped;
        QTest::newRow("route") << u"[1] 2026/12/02 15:50:37.1 [ERR] 127.0.0.1:6222 - rid:3 - Error trying to connect to route"_s << skipped;
        QTest::newRow("garbage") << u"hello "_s + QChar(0) + u" world \ufffd"_s << skipped;
        QTest::newRow("blank") << u" \t\r"_s << blank;
        QTest::newRow("empty") << QString() << blank;
    }
    void whatIsExplainedSkippedOrNotRecognised()
    {
        QFETCH(QString, line);
        QFETCH(int, kind);
        LogGrouper grouper;
        LogLineMatch m;
        QCOMPARE(int(grouper.add(line, at(1), false, &m)), kind);
        const LogGrouper::Counts &c = grouper.counts();
        QCOMPARE(c.lines, 1);
        QCOMPARE(c.explained + c.notRecognised + c.skipped + c.blank, 1);
        QCOMPARE(grouper.groupCount(),
                 kind == int(LogGrouper::LineKind::Explained) || kind == int(LogGrouper::LineKind::NotRecognised) ? 1 : 0);
        if (kind == int(LogGrouper::LineKind::Explained) || kind == int(LogGrouper::LineKind::NotRecognised)) {
            QCOMPARE(m.matched, kind == int(LogGrouper::LineKind::Explained));
            QCOMPARE(m.line, line.trimmed());
        }
    }

    // Repeated lines are one group: its count, its times (whatever order the lines come in), where its first and
    // last lines are, the client IDs and subjects of its lines. Another account, another cause or another template
    // is another group. Groups come most severe first, then largest.
    void repeatedLinesAreOneGroup()
    {
        LogGrouper grouper;
        auto line = [](const QString &time, const QString &client, const QString &account) -> QString {
            return u"[4711] "_s + time + u" [ERR] 10.0.3.17:51240 - mid:89 - \""_s + client + u"\" - "_s + kOverlap.arg(account);
        };
        grouper.add(line(u"2026/12/02 15:50:38.000001"_s, u"a"_s, u"OVL"_s), at(1));
        grouper.add(line(u"2026/12/02 15:50:37.000001"_s, u"b"_s, u"OVL"_s), at(2)); // earlier, read later
        grouper.add(line(u"2026/12/02 15:50:39.000001"_s, u"a"_s, u"OVL"_s), at(3));
        grouper.add(u"[4711] [ERR] 10.0.3.17:1 - mid:9 - \"a\" - "_s + kOverlap.arg(u"OVL"_s), at(4)); // no time
        grouper.add(line(u"2026/12/02 15:50:40.000001"_s, u"a"_s, u"OTHER"_s), at(5));
        grouper.add(u"unable to connect: create sessions stream for account \"OVL\": maximum number of streams reached (10027)"_s, at(6));
        grouper.add(
            u"[1] 2026/12/02 15:50:41.5 [WRN] 127.0.0.1:1 - mid:2 - \"k1\" - Closing because a remote connection has started with the same client ID: \"k1\""_s,
            at(7));
        grouper.add(
            u"[1] 2026/12/02 15:50:42.5 [WRN] 127.0.0.1:1 - mid:2 - \"k1\" - Closing because a remote connection has started with the same client ID: \"k1\""_s,
            at(8));

        QCOMPARE(grouper.counts().explained, 8);
        QCOMPARE(grouper.counts().explainedGroups, 4);
        const QList<LogGroup> groups = grouper.sortedGroups();
        QCOMPARE(groups.size(), 4);
        const LogGroup &ovl = groups.at(0); // critical, 4 lines
        QCOMPARE(ovl.match.account, u"OVL"_s);
        QCOMPARE(ovl.match.codes, QStringList{u"SUBJECTS_OVERLAP"_s});
        QCOMPARE(ovl.count, 4);
        QCOMPARE(ovl.firstTime, u"2026/12/02 15:50:37.000001"_s);
        QCOMPARE(ovl.lastTime, u"2026/12/02 15:50:39.000001"_s);
        QCOMPARE(ovl.untimedLines, 1);
        QCOMPARE(ovl.firstLine.line, 1);
        QCOMPARE(ovl.lastLine.line, 4);
        QCOMPARE(ovl.lastLine.source, u"test.log"_s);
        QCOMPARE(ovl.clientIds.values(), (QList<std::pair<QString, qint64>>{{u"a"_s, 3}, {u"b"_s, 1}}));
        QCOMPARE(ovl.match.clientId, u"a"_s); // the first line's
        // Then the other critical groups (one line each) in the order they came, then the warning.
        QCOMPARE(groups.at(1).match.account, u"OTHER"_s);
        QCOMPARE(groups.at(2).match.codes, QStringList{u"STREAM_LIMIT_HEADROOM"_s});
        QCOMPARE(groups.at(2).firstTime, QString());
        QCOMPARE(groups.at(3).match.severity, u"warning"_s);
        QCOMPARE(groups.at(3).count, 2);

        const QJsonObject json = ovl.toJson();
        QCOMPARE(json.value(u"count"_s).toInteger(), 4);
        QCOMPARE(json.value(u"first_seen"_s).toString(), u"2026-12-02T15:50:37.000001"_s);
        QCOMPARE(json.value(u"last_seen"_s).toString(), u"2026-12-02T15:50:39.000001"_s);
        QCOMPARE(json.value(u"first_line"_s).toObject().value(u"line"_s).toInteger(), 1);
        QCOMPARE(json.value(u"client_ids"_s).toArray().first().toObject().value(u"count"_s).toInteger(), 3);
        QCOMPARE(json.value(u"match"_s).toObject().value(u"template_id"_s).toString(), u"asm.create_sessions_stream"_s);
        QVERIFY(groups.at(2).toJson().value(u"first_seen"_s).isNull());
    }

    // A group keeps LogValueTally::kMaxValues client IDs with their counts; lines of the others are only counted.
    void valuesAreBounded()
    {
        LogGrouper grouper;
        for (int i = 0; i < 1000; ++i)
            grouper.add(kErr.arg(u"c%1"_s.arg(i % 25)) + kOverlap.arg(u"A"_s), at(i + 1));
        const LogGroup g = grouper.sortedGroups().first();
        QCOMPARE(g.count, 1000);
        QCOMPARE(g.clientIds.values().size(), LogValueTally::kMaxValues);
        QCOMPARE(g.clientIds.values().first(), std::make_pair(u"c0"_s, qint64(40)));
        QCOMPARE(g.clientIds.otherLines(), 1000 - 40 * LogValueTally::kMaxValues);
        QVERIFY(g.clientIds.toText().endsWith(u", and 600 lines with other values"_s));
    }

    // More distinct messages than the cache holds (each its own client ID) are still all counted in one group.
    void cacheOverflow()
    {
        LogGrouper grouper;
        const qint64 n = 3 * LogGrouper::kCacheSize + 7;
        for (qint64 i = 0; i < n; ++i)
            grouper.add(kErr.arg(u"id-%1"_s.arg(i)) + kOverlap.arg(u"A"_s), at(i + 1));
        for (qint64 i = 0; i < n; ++i) // and again, with the cache cleared many times over
            grouper.add(kErr.arg(u"id-%1"_s.arg(i)) + kOverlap.arg(u"A"_s), at(n + i + 1));
        QCOMPARE(grouper.groupCount(), 1);
        QCOMPARE(grouper.counts().explained, 2 * n);
        QCOMPARE(grouper.sortedGroups().first().count, 2 * n);
    }

    // Lines no template matches are grouped by shape (digits aside), at most kMaxUnrecognisedShapes; further shapes
    // share one catch-all group.
    void unrecognisedShapesAreBounded()
    {
        LogGrouper grouper;
        grouper.add(kErr.arg(u"c"_s) + u"unable to connect: odd 12 thing"_s, at(1));
        grouper.add(kErr.arg(u"d"_s) + u"unable to connect: odd 345 thing"_s, at(2));
        QCOMPARE(grouper.groupCount(), 1);
        const qsizetype shapes = LogGrouper::kMaxUnrecognisedShapes;
        // Shapes told apart by letters: "shape a", "shape b", ... "shape ba"...
        auto letters = [](qsizetype i) {
            QString word;
            do {
                word.prepend(QChar(u'a' + int(i % 26)));
                i /= 26;
            } while (i > 0);
            return word;
        };
        for (qsizetype i = 0; i < shapes + 50; ++i)
            grouper.add(kErr.arg(u"c"_s) + u"unable to connect: shape "_s + letters(i), at(i + 3));
        const LogGrouper::Counts &c = grouper.counts();
        QCOMPARE(c.notRecognised, shapes + 52);
        QCOMPARE(c.unrecognisedGroups, shapes + 1);
        const QList<LogGroup> groups = grouper.sortedGroups();
        const auto other = std::find_if(groups.cbegin(), groups.cend(), [](const LogGroup &g) { return g.otherShapes; });
        QVERIFY(other != groups.cend());
        QCOMPARE(other->count, 51);
        QCOMPARE(groups.first().count, 51); // the catch-all, the largest group of lines not recognised
        QCOMPARE(groups.at(1).count, 2); // "odd # thing"
        QVERIFY(!groups.at(1).match.matched);
        QCOMPARE(groups.at(1).clientIds.values(), (QList<std::pair<QString, qint64>>{{u"c"_s, 1}, {u"d"_s, 1}}));
    }

    // The captured logs of every version, as whole logs: nothing an MQTT client logs as an error is left
    // unrecognised, and the counts add up.
    void capturedLogsAsWholeLogs_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString &v : kVersions)
            QTest::newRow(qPrintable(v)) << v;
    }
    void capturedLogsAsWholeLogs()
    {
        QFETCH(QString, version);
        LogGrouper grouper;
        qint64 n = 0;
        qint64 templates = 0;
        for (const auto &[file, line] : readCapturedLogs(version)) {
            grouper.add(line, {file, ++n});
            templates += LogCatalogue::explain(line).matched ? 1 : 0;
        }
        const LogGrouper::Counts &c = grouper.counts();
        QCOMPARE(c.lines, n);
        QCOMPARE(c.notRecognised, 0);
        QCOMPARE(c.explained + c.skipped + c.blank, n);
        QCOMPARE(c.explained, templates); // no captured template line is at debug level
        qint64 grouped = 0;
        for (const LogGroup &g : grouper.sortedGroups())
            grouped += g.count;
        QCOMPARE(grouped, c.explained);
        QVERIFY(c.explainedGroups < c.explained);
    }
};

QTEST_GUILESS_MAIN(TestLogGrouping)
#include "tst_loggrouping.moc"
