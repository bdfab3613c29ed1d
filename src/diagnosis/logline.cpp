#include "logline.h"

#include <QByteArray>
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
    static const QRegularExpression re = compiled(
        QStringLiteral("^.*?(?:\\[(\\d+)\\]\\s+)?(?:(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+)?"
                       "\\[(ERR|WRN|INF|DBG|TRC|FTL)\\](?:\\s+|$)"));
    return re;
}

// The same without a level token: "[pid] date " only.
const QRegularExpression &bareTimePrefix()
{
    static const QRegularExpression re = compiled(
        QStringLiteral("^(?:\\[(\\d+)\\]\\s+)?(\\d{4}/\\d{2}/\\d{2}\\s+\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z?)\\s+"));
    return re;
}

// "127.0.0.1:45696 - mid:30 - "fresh1" - ". Only MQTT clients carry the quoted client ID in this position.
const QRegularExpression &clientPrefix()
{
    static const QRegularExpression re = compiled(
        QStringLiteral("^(\\S+) - (mid_ws|mid|cid|wid|lid_ws|lid|rid|gid):(\\d+)(?: - (\"(?:[^\"\\\\]|\\\\.)*\"))? - "));
    return re;
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
            return std::nullopt;  // an unescaped quote inside: not one %q value
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
            if (e >= u'0' && e <= u'7') {  // \NNN octal (accepted by strconv.Unquote)
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

    if (const auto m = levelPrefix().match(rest); m.hasMatch()) {
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

    if (const auto c = clientPrefix().match(rest); c.hasMatch()) {
        l.clientAddress = c.captured(1);
        l.clientKind = c.captured(2);
        l.clientNumber = c.captured(3).toLongLong();
        if (c.hasCaptured(4) && l.isMqttClient()) {
            if (const auto id = unquoteGo(c.capturedView(4))) {
                l.clientId = *id;
                l.hasClientId = true;
            }
        }
        rest = rest.mid(c.capturedEnd(0));
    }
    l.message = rest.trimmed().toString();
    return l;
}

} // namespace MqttDoctor
