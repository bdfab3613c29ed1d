// The record decoders' JSON scanner (FastJson): its string scan, eight bytes a step, against the
// byte-at-a-time scan it replaced, at and across word boundaries and at the end of the input; and
// the short compares that replaced memcmp.
#include <QRandomGenerator>
#include <QTest>

#include <cstring>
#include <memory>

#include "mqtt/fastjson.h"

using namespace MqttDoctor::FastJson;

namespace {

// The byte-at-a-time Scanner::string() that the word-at-a-time one replaced (kept here as it was,
// whitespace skip and opening quote included): what the new one must still give.
bool byteWiseString(const char *begin, const char *end, Span &s, const char *&after)
{
    const char *p = begin;
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        ++p;
    if (p >= end || *p != '"')
        return false;
    ++p;
    s.begin = p;
    s.escaped = false;
    while (p < end) {
        const auto c = static_cast<unsigned char>(*p);
        if (c == '"') {
            s.end = p++;
            after = p;
            return true;
        }
        if (c < 0x20 || c >= 0x7f)
            return false;
        if (c == '\\') {
            s.escaped = true;
            if (++p >= end)
                return false;
            const char e = *p;
            if (e == 'u') {
                if (end - p < 5)
                    return false;
                for (int i = 1; i <= 4; ++i)
                    if (Scanner::hexValue(p[i]) < 0)
                        return false;
                p += 5;
                continue;
            }
            if (!std::strchr("\"\\/bfnrt", e) || e == '\0')
                return false;
        }
        ++p;
    }
    return false;
}

// One scan's outcome, as offsets from the start of the input (span and position after the string
// only when it succeeded: on failure the caller gives up and looks at nothing else).
struct Outcome
{
    bool ok = false;
    qsizetype begin = -1, end = -1, after = -1;
    bool escaped = false;
    bool operator==(const Outcome &) const = default;
};

QByteArray describe(const Outcome &o)
{
    if (!o.ok)
        return QByteArray("rejected");
    return QByteArray("ok [") + QByteArray::number(o.begin) + ',' + QByteArray::number(o.end) + ") after " + QByteArray::number(o.after)
        + (o.escaped ? " escaped" : "");
}

Outcome scanned(const char *begin, const char *end)
{
    Scanner sc(begin, end);
    Span s;
    Outcome o;
    o.ok = sc.string(s);
    if (o.ok)
        o = {true, s.begin - begin, s.end - begin, sc.offset(), s.escaped};
    return o;
}

Outcome scanned(const QByteArray &input)
{
    return scanned(input.constData(), input.constData() + input.size());
}

Outcome byteWise(const char *begin, const char *end)
{
    Span s;
    const char *after = nullptr;
    Outcome o;
    o.ok = byteWiseString(begin, end, s, after);
    if (o.ok)
        o = {true, s.begin - begin, s.end - begin, after - begin, s.escaped};
    return o;
}

// Both scans of `input`, which is copied into a buffer of exactly its size (an ASan build reports a
// read past the end) and then in front of bytes that are not part of it: a plain byte and a quote,
// quotes, a control byte (a scan that looked past the end would find a quote or stop elsewhere).
// Returns an empty string when all agree, else what differs.
QByteArray mismatch(const QByteArray &input)
{
    const qsizetype n = input.size();
    const std::unique_ptr<char[]> exact(new char[size_t(std::max<qsizetype>(n, 1))]);
    std::memcpy(exact.get(), input.constData(), size_t(n));
    const Outcome expected = byteWise(input.constData(), input.constData() + n);
    const Outcome got = scanned(exact.get(), exact.get() + n);
    if (got != expected)
        return QByteArray("input ") + input.toPercentEncoding() + ": expected " + describe(expected) + ", got " + describe(got);
    for (const QByteArray &fence : {QByteArray("a\"a\"a\"a\"a\"a\"a\"a\""), QByteArray(16, '"'), QByteArray(16, '\x01')}) {
        const QByteArray fenced = input + fence;
        const Outcome beforeFence = scanned(fenced.constData(), fenced.constData() + n);
        if (beforeFence != expected)
            return QByteArray("input ") + input.toPercentEncoding() + ": expected " + describe(expected) + ", before "
                + fence.toPercentEncoding() + ' ' + describe(beforeFence);
    }
    return QByteArray();
}

} // namespace

class TestFastJson : public QObject
{
    Q_OBJECT

private slots:
    // Every byte value at every position 0..17 of strings of 0..18 bytes, closed or not, followed by
    // nothing or by more JSON: the first byte that ends a run is found wherever it sits in a word.
    void everyByteAtEveryPosition()
    {
        for (int length = 1; length <= 18; ++length) {
            for (int pos = 0; pos < length; ++pos) {
                for (int byte = 0; byte < 256; ++byte) {
                    QByteArray text(length, 'a');
                    text[pos] = char(byte);
                    for (const QByteArray &input : QList<QByteArray>{'"' + text, '"' + text + '"', '"' + text + "\",\"k\":1}",
                                                                     '"' + text + "\\n\"", '"' + text + "0123456789abcdef\""}) {
                        const QByteArray diff = mismatch(input);
                        QVERIFY2(diff.isEmpty(), diff.constData());
                    }
                }
            }
        }
    }

    // A special byte right after another byte of any value, across the word boundaries: no false hit
    // before the first special byte, whatever follows it.
    void everyPairAcrossWordBoundaries()
    {
        for (int pos : {0, 5, 6, 7, 8, 9, 14, 15, 16}) {
            for (int first = 0; first < 256; ++first) {
                for (int second = 0; second < 256; ++second) {
                    const QByteArray input = '"' + QByteArray(pos, 'x') + char(first) + char(second) + "yz\"";
                    const QByteArray diff = mismatch(input);
                    QVERIFY2(diff.isEmpty(), diff.constData());
                }
            }
        }
    }

    // Strings that end, closed or not, exactly at the end of the input, at every length around the
    // word size; and an input that ends inside an escape.
    void endOfInput()
    {
        for (int length = 0; length <= 33; ++length) {
            const QByteArray text(length, 'q');
            for (const QByteArray &input :
                 QList<QByteArray>{'"' + text, '"' + text + '"', '"' + text + '\\', '"' + text + "\\u", '"' + text + "\\u00",
                                   '"' + text + "\\u004", '"' + text + "\\u0041", '"' + text + "\\u0041\"", '"' + text + "\\\""}) {
                const QByteArray diff = mismatch(input);
                QVERIFY2(diff.isEmpty(), diff.constData());
            }
            // Spot checks of the reference itself: closed at the end is a string, open is not.
            const Outcome closed = scanned(QByteArray('"' + text + '"'));
            QVERIFY(closed.ok);
            QCOMPARE(closed.end - closed.begin, qsizetype(length));
            QCOMPARE(closed.after, qsizetype(length + 2));
            QVERIFY(!scanned(QByteArray('"' + text)).ok);
        }
        QVERIFY(!scanned(QByteArray()).ok);
    }

    // Escapes, valid and not, starting at every position 0..17 (so across word boundaries).
    void escapesAtEveryPosition()
    {
        const QList<QByteArray> escapes = {
            "\\\"",    "\\\\",           "\\/",    "\\b",     "\\f",     "\\n", "\\r", "\\t",     "\\u0041",
            "\\u00e9", "\\uD83D\\uDE00", "\\u12",  "\\u12g4", "\\uABCD", "\\x", "\\a", "\\U0041", QByteArray("\\\0", 2),
            "\\\x7f",  "\\\x80",         "\\\xff", "\\ ",     "\\"};
        for (int pos = 0; pos <= 17; ++pos) {
            for (const QByteArray &escape : escapes) {
                const QByteArray text = QByteArray(pos, 'e') + escape;
                for (const QByteArray &input : QList<QByteArray>{'"' + text + '"', '"' + text + "tail\"", '"' + text}) {
                    const QByteArray diff = mismatch(input);
                    QVERIFY2(diff.isEmpty(), diff.constData());
                }
            }
        }
        const Outcome o = scanned(QByteArray("\"ab\\ncd\""));
        QVERIFY(o.ok && o.escaped);
        QCOMPARE(o.end, qsizetype(7));
    }

    // Random strings mixing plain bytes, the bytes that end a run and escapes, at random offsets of a
    // buffer (so at every alignment).
    void randomStrings()
    {
        QRandomGenerator rng(4242);
        static const char kPieces[][8] = {"a",    "Z",    " ",    "~",        "\"",   "\\", "\\n", "\\u0041", "\\u00",
                                          "\x1f", "\x7f", "\x80", "\xc3\xa9", "\xff", "\t", "{",   ":"};
        for (int i = 0; i < 20000; ++i) {
            QByteArray input(int(rng.bounded(3)), ' ');
            input += '"';
            for (int k = int(rng.bounded(40)); k > 0; --k) {
                const bool plain = rng.bounded(4) != 0;
                input += plain ? QByteArray(1, char('a' + rng.bounded(26))) : QByteArray(kPieces[rng.bounded(int(std::size(kPieces)))]);
            }
            if (rng.bounded(2) == 0)
                input += '"';
            const QByteArray diff = mismatch(input);
            QVERIFY2(diff.isEmpty(), diff.constData());
        }
    }

    // plainRunEnd() itself, on random bytes at every length and start offset: the first byte that is
    // '"', '\\', below 0x20 or 0x7f and above, else the end.
    void plainRunEnd()
    {
        QRandomGenerator rng(99);
        QByteArray buffer(80, '\0');
        for (int i = 0; i < 20000; ++i) {
            for (char &c : buffer)
                c = rng.bounded(8) == 0 ? char(rng.bounded(256)) : char(0x20 + rng.bounded(0x5f));
            const int from = int(rng.bounded(20));
            const int to = from + int(rng.bounded(50));
            const char *begin = buffer.constData() + from;
            const char *end = buffer.constData() + to;
            const char *expected = begin;
            while (expected < end) {
                const auto c = static_cast<unsigned char>(*expected);
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
                    break;
                ++expected;
            }
            QCOMPARE(Scanner::plainRunEnd(begin, end) - begin, expected - begin);
        }
    }

    // sameBytes() and Span::is() agree with memcmp at every length up to 24 and a difference at every
    // position.
    void sameBytes()
    {
        const QByteArray a = "abcdefghijklmnopqrstuvwxyz";
        for (size_t n = 0; n <= 24; ++n) {
            const QByteArray copy(a.constData(), a.size());
            QVERIFY(MqttDoctor::FastJson::sameBytes(a.constData(), copy.constData(), n));
            for (size_t at = 0; at < n; ++at) {
                QByteArray b = a;
                b[qsizetype(at)] = char(b[qsizetype(at)] ^ 0x20);
                QCOMPARE(MqttDoctor::FastJson::sameBytes(a.constData(), b.constData(), n), false);
                QCOMPARE(MqttDoctor::FastJson::sameBytes(a.constData(), b.constData(), at), true);
            }
        }
        const char text[] = "max_ack_pendingX";
        const Span key{text, text + 15, false};
        QVERIFY(key.is("max_ack_pending"));
        QVERIFY(!key.is("max_ack_pendinG"));
        QVERIFY(!key.is("max_ack_pendin"));
        QVERIFY(!key.is("max_ack_pendingX"));
        const Span escapedKey{text, text + 15, true};
        QVERIFY(!escapedKey.is("max_ack_pending")); // escaped text never equals a literal
        const Span empty{text, text, false};
        QVERIFY(empty.is(""));
    }

    // The literals, whole, cut by the end of the input, or misspelt.
    void literals()
    {
        auto literal = [](const QByteArray &input, const char *word) {
            Scanner sc(input.constData(), input.constData() + input.size());
            const bool ok = std::strcmp(word, "true") == 0 ? sc.literal("true")
                : std::strcmp(word, "false") == 0          ? sc.literal("false")
                                                           : sc.literal("null");
            return ok ? sc.offset() : qsizetype(-1);
        };
        QCOMPARE(literal("true", "true"), qsizetype(4));
        QCOMPARE(literal(" \tfalse,", "false"), qsizetype(7));
        QCOMPARE(literal("null}", "null"), qsizetype(4));
        QCOMPARE(literal("tru", "true"), qsizetype(-1));
        QCOMPARE(literal("fals", "false"), qsizetype(-1));
        QCOMPARE(literal("nul", "null"), qsizetype(-1));
        QCOMPARE(literal("nulL", "null"), qsizetype(-1));
        QCOMPARE(literal("", "true"), qsizetype(-1));
        QCOMPARE(literal("truefalse", "true"), qsizetype(4)); // the caller checks what follows
    }

    // Whitespace is still skipped in front of every token, also when the usual case (none) is tested first.
    void whitespace()
    {
        const QByteArray input = " \r\n\t{ \"a\" :\t[ 1 , true ,null,\"x\" ] } ";
        Scanner sc(input.constData(), input.constData() + input.size());
        QVERIFY(sc.skipValue(1));
        QVERIFY(sc.atEnd());
        const QByteArray tight = "{\"a\":[1,true,null,\"x\"]}";
        Scanner tsc(tight.constData(), tight.constData() + tight.size());
        QVERIFY(tsc.peek('{'));
        QVERIFY(!tsc.peek('['));
        QVERIFY(tsc.skipValue(1));
        QVERIFY(tsc.atEnd());
        const QByteArray blank = " \n";
        Scanner bsc(blank.constData(), blank.constData() + blank.size());
        QVERIFY(!bsc.peek('{'));
        QVERIFY(bsc.atEnd());
    }
};

QTEST_GUILESS_MAIN(TestFastJson)
#include "tst_fastjson.moc"
