#include "logline.h"

#include <QByteArray>
#include <QDate>
#include <QRegularExpression>

namespace MqttDoctor {

namespace {

// Compiled up front: a shared, already compiled expression can be matched from several threads at once.
QRegularExpression compiled(const QString &pattern)
{
    QRegularExpression re(pattern);
    re.optimize();
    return re;
}

// Up to the first level token: whatever came before it (syslog, journald, a file name from grep) is dropped.
const QRegularExpression &levelPrefix()
{
    static const QRegularExpression re =
        compiled(QStringLiteral("^.*?(?:\\[(\\d+)\\]\\s+)?(?:(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+)?"
                                "\\[(ERR|WRN|INF|DBG|TRC|FTL)\\](?:\\s+|$)"));
    return re;
}

// The same without a level token: "[pid] date " only.
const QRegularExpression &bareTimePrefix()
{
    static const QRegularExpression re =
        compiled(QStringLiteral("^(?:\\[(\\d+)\\]\\s+)?(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+"));
    return re;
}

bool isAsciiSpace(QChar c)
{
    const char16_t u = c.unicode();
    return u == u' ' || (u >= u'\t' && u <= u'\r'); // \s of the expressions: space, \t, \n, \v, \f, \r
}

bool isAsciiDigit(QChar c)
{
    return c.unicode() >= u'0' && c.unicode() <= u'9';
}

/** The number of ASCII digits at `from`. */
qsizetype digitsAt(QStringView s, qsizetype from)
{
    qsizetype i = from;
    while (i < s.size() && isAsciiDigit(s[i]))
        ++i;
    return i - from;
}

qsizetype skipSpaces(QStringView s, qsizetype from)
{
    while (from < s.size() && isAsciiSpace(s[from]))
        ++from;
    return from;
}

/** "dddd/dd/dd" + blanks + "dd:dd:dd" + optional ".d+" + optional "Z" at `from`: its end, or -1. */
qsizetype dateTimeEnd(QStringView s, qsizetype from)
{
    auto digitsExactly = [&](qsizetype at, qsizetype n) { return digitsAt(s, at) >= n && at + n <= s.size(); };
    auto charAt = [&](qsizetype at, char16_t c) { return at < s.size() && s[at] == c; };
    qsizetype i = from;
    if (!digitsExactly(i, 4) || !charAt(i + 4, u'/') || !digitsExactly(i + 5, 2) || !charAt(i + 7, u'/') || !digitsExactly(i + 8, 2))
        return -1;
    i += 10;
    const qsizetype blanks = skipSpaces(s, i);
    if (blanks == i)
        return -1;
    i = blanks;
    if (!digitsExactly(i, 2) || !charAt(i + 2, u':') || !digitsExactly(i + 3, 2) || !charAt(i + 5, u':') || !digitsExactly(i + 6, 2))
        return -1;
    i += 8;
    if (charAt(i, u'.') && digitsAt(s, i + 1) > 0)
        i += 1 + digitsAt(s, i + 1);
    if (charAt(i, u'Z'))
        ++i;
    return i;
}

/**
 * The usual prefix, read by hand: `[pid] date time [LVL] ` with the pid and the date optional, at the start of the
 * line. Gives what levelPrefix() gives for such lines (its lazy `^.*?` first tries the start); false for any other
 * shape, which the expression then handles.
 */
bool standardPrefix(QStringView s, LogLine &l, qsizetype &end)
{
    qsizetype i = 0;
    if (s.startsWith(u'[')) {
        const qsizetype n = digitsAt(s, 1);
        if (n > 0 && 1 + n < s.size() && s[1 + n] == u']' && 2 + n < s.size() && isAsciiSpace(s[2 + n])) {
            l.pid = s.mid(1, n).toString();
            i = skipSpaces(s, 2 + n);
        }
    }
    if (const qsizetype t = dateTimeEnd(s, i); t > 0 && t < s.size() && isAsciiSpace(s[t])) {
        l.timestamp = s.mid(i, t - i).toString();
        i = skipSpaces(s, t);
    }
    static const char16_t *const levels[] = {u"ERR", u"WRN", u"INF", u"DBG", u"TRC", u"FTL"};
    if (i + 5 > s.size() || s[i] != u'[' || s[i + 4] != u']' || (i + 5 < s.size() && !isAsciiSpace(s[i + 5]))) {
        l.pid.clear();
        l.timestamp.clear();
        return false;
    }
    const QStringView token = s.mid(i + 1, 3);
    for (const char16_t *level : levels) {
        if (token == QStringView(level, 3)) {
            l.level = token.toString();
            end = skipSpaces(s, i + 5);
            return true;
        }
    }
    l.pid.clear();
    l.timestamp.clear();
    return false;
}

/**
 * The client part `127.0.0.1:45696 - mid:30 - "fresh1" - `, read by hand: an address without blanks, " - ", the
 * kind and number, optionally " - " and a Go-quoted name, then " - ". Returns the length of the part (0: none) and
 * the capture positions. Only MQTT clients carry the quoted client ID in this position.
 */
struct ClientPart
{
    qsizetype length = 0;
    QStringView address, kind, number, quoted;
};

ClientPart clientPart(QStringView s)
{
    static const char16_t *const kinds[] = {u"mid_ws", u"mid", u"cid", u"wid", u"lid_ws", u"lid", u"rid", u"gid"};
    ClientPart c;
    qsizetype i = 0;
    while (i < s.size() && !isAsciiSpace(s[i]))
        ++i;
    if (i == 0 || !s.mid(i).startsWith(u" - "))
        return c;
    const QStringView address = s.first(i);
    i += 3;
    QStringView kind;
    for (const char16_t *k : kinds) {
        const QStringView candidate(k);
        if (s.mid(i).startsWith(candidate) && i + candidate.size() < s.size() && s[i + candidate.size()] == u':') {
            kind = candidate;
            break;
        }
    }
    if (kind.isEmpty())
        return c;
    i += kind.size() + 1;
    const qsizetype n = digitsAt(s, i);
    if (n == 0)
        return c;
    const QStringView number = s.mid(i, n);
    i += n;
    if (s.mid(i).startsWith(u" - \"")) {
        // A quoted name runs to the first quote no backslash escapes (a backslash never escapes a line end).
        qsizetype q = i + 4;
        while (q < s.size() && s[q] != u'"') {
            if (s[q] == u'\\') {
                if (q + 1 >= s.size() || s[q + 1] == u'\n')
                    break;
                ++q;
            }
            ++q;
        }
        if (q < s.size() && s[q] == u'"' && s.mid(q + 1).startsWith(u" - ")) {
            c.quoted = s.mid(i + 3, q + 1 - (i + 3));
            c.length = q + 4;
        }
    }
    if (c.length == 0) {
        if (!s.mid(i).startsWith(u" - "))
            return c;
        c.length = i + 3;
    }
    c.address = address;
    c.kind = kind;
    c.number = number;
    return c;
}

int hexValue(QChar c)
{
    const char16_t u = c.unicode();
    if (u >= u'0' && u <= u'9')
        return u - u'0';
    if (u >= u'a' && u <= u'f')
        return u - u'a' + 10;
    if (u >= u'A' && u <= u'F')
        return u - u'A' + 10;
    return -1;
}

} // namespace

std::optional<QString> LogLine::unquoteGo(QStringView quoted)
{
    if (quoted.size() < 2 || quoted.front() != u'"' || quoted.back() != u'"')
        return std::nullopt;
    const QStringView body = quoted.mid(1, quoted.size() - 2);
    // Go escapes invalid UTF-8 as \xNN, so collect bytes and decode once at the end.
    QByteArray bytes;
    bytes.reserve(body.size());
    for (qsizetype i = 0; i < body.size(); ++i) {
        const QChar c = body[i];
        if (c == u'"')
            return std::nullopt; // an unescaped quote inside: not one %q value
        if (c != u'\\') {
            // Copy a run of plain characters in one go, keeping surrogate pairs together.
            qsizetype j = i;
            while (j < body.size() && body[j] != u'\\' && body[j] != u'"')
                ++j;
            bytes += body.mid(i, j - i).toUtf8();
            i = j - 1;
            continue;
        }
        if (++i >= body.size())
            return std::nullopt;
        const QChar e = body[i];
        auto hexDigits = [&](int n) -> std::optional<uint> {
            if (i + n >= body.size())
                return std::nullopt;
            uint v = 0;
            for (int k = 1; k <= n; ++k) {
                const int h = hexValue(body[i + k]);
                if (h < 0)
                    return std::nullopt;
                v = v * 16 + uint(h);
            }
            i += n;
            return v;
        };
        switch (e.unicode()) {
        case u'"': bytes += '"'; break;
        case u'\\': bytes += '\\'; break;
        case u'\'': bytes += '\''; break;
        case u'a': bytes += '\a'; break;
        case u'b': bytes += '\b'; break;
        case u'f': bytes += '\f'; break;
        case u'n': bytes += '\n'; break;
        case u'r': bytes += '\r'; break;
        case u't': bytes += '\t'; break;
        case u'v': bytes += '\v'; break;
        case u'x': {
            const auto v = hexDigits(2);
            if (!v)
                return std::nullopt;
            bytes += char(*v);
            break;
        }
        case u'u':
        case u'U': {
            const auto v = hexDigits(e == u'u' ? 4 : 8);
            if (!v || *v > 0x10FFFF)
                return std::nullopt;
            const char32_t cp = char32_t(*v);
            bytes += QString::fromUcs4(&cp, 1).toUtf8();
            break;
        }
        default:
            if (e >= u'0' && e <= u'7') { // \NNN octal (accepted by strconv.Unquote)
                if (i + 2 >= body.size())
                    return std::nullopt;
                uint v = 0;
                for (int k = 0; k < 3; ++k) {
                    const QChar d = body[i + k];
                    if (d < u'0' || d > u'7')
                        return std::nullopt;
                    v = v * 8 + uint(d.unicode() - u'0');
                }
                if (v > 255)
                    return std::nullopt;
                bytes += char(v);
                i += 2;
                break;
            }
            return std::nullopt;
        }
    }
    return QString::fromUtf8(bytes);
}

std::optional<qint64> LogLine::timeMicros(QStringView timestamp)
{
    const qsizetype end = dateTimeEnd(timestamp, 0);
    if (end < 0 || end != timestamp.size())
        return std::nullopt;
    auto number = [&](qsizetype at, qsizetype n) { return timestamp.mid(at, n).toInt(); };
    const int year = number(0, 4), month = number(5, 2), day = number(8, 2);
    const qsizetype t = skipSpaces(timestamp, 10);
    const int hour = number(t, 2), minute = number(t + 3, 2), second = number(t + 6, 2);
    if (hour > 23 || minute > 59 || second > 60)
        return std::nullopt;
    qint64 micros = 0;
    if (t + 8 < timestamp.size() && timestamp[t + 8] == u'.') {
        // The fraction's first six digits are microseconds; fewer are padded, more are cut.
        const QStringView fraction = timestamp.mid(t + 9, digitsAt(timestamp, t + 9));
        for (qsizetype i = 0; i < 6; ++i)
            micros = micros * 10 + (i < fraction.size() ? fraction[i].unicode() - u'0' : 0);
    }
    const QDate date(year, month, day);
    if (!date.isValid())
        return std::nullopt;
    const qint64 days = date.toJulianDay() - QDate(1970, 1, 1).toJulianDay();
    return ((days * 24 + hour) * 60 + minute) * 60 * 1000000LL + qint64(second) * 1000000LL + micros;
}

LogLine LogLine::parse(const QString &line)
{
    LogLine l;
    qsizetype end = line.size();
    while (end > 0 && line.at(end - 1).isSpace())
        --end;
    l.raw = line.left(end);
    QStringView rest = QStringView(l.raw).trimmed();
    if (rest.startsWith(u'\xFEFF'))
        rest = rest.mid(1).trimmed();

    if (qsizetype prefixEnd = 0; standardPrefix(rest, l, prefixEnd)) {
        rest = rest.mid(prefixEnd);
    } else if (const auto m = levelPrefix().match(rest); m.hasMatch()) {
        l.pid = m.captured(1);
        l.timestamp = m.captured(2);
        l.level = m.captured(3);
        rest = rest.mid(m.capturedEnd(0));
    } else if (const auto t = bareTimePrefix().match(rest); t.hasMatch()) {
        l.pid = t.captured(1);
        l.timestamp = t.captured(2);
        rest = rest.mid(t.capturedEnd(0));
    }
    if (rest.startsWith(QLatin1String("nats-server: ")))
        rest = rest.mid(13);

    if (const ClientPart c = clientPart(rest); c.length > 0) {
        l.clientAddress = c.address.toString();
        l.clientKind = c.kind.toString();
        l.clientNumber = c.number.toLongLong();
        if (!c.quoted.isEmpty() && l.isMqttClient()) {
            if (const auto id = unquoteGo(c.quoted)) {
                l.clientId = *id;
                l.hasClientId = true;
            }
        }
        rest = rest.mid(c.length);
    }
    l.message = rest.trimmed().toString();
    return l;
}

} // namespace MqttDoctor
