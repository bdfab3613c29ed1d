#include "mqtt/retainedrecordfast.h"

#include <array>
#include <cstring>

#include "mqtt/fastjson.h"

namespace MqttDoctor::RetainedRecordFast {

namespace {

using namespace FastJson;

constexpr qsizetype kMaxBody = 64 * 1024 * 1024; // the reference decoder's limit
const QString kPrefix = QStringLiteral("$MQTT.rmsgs.");

struct HeaderValues
{
    Span topic, flags, origin, source;
    bool hasTopic = false, hasFlags = false, hasOrigin = false, hasSource = false;
};

// The `Nmqtt-R*` header lines as nats-server (`Key:value`) or nats.c (`Key: value`) write them:
// known keys in their exact spelling, each once, printable ASCII values. False for anything else.
bool parseHeaders(const QByteArray &block, HeaderValues &h)
{
    const char *p = block.constData();
    const char *end = p + block.size();
    if (block.size() < 10 || std::memcmp(p, "NATS/1.0\r\n", 10) != 0)
        return false;
    p += 10;
    while (p < end) {
        if (*p == '\r' || *p == '\n') {
            // The blank line(s) that end the block: each "\r\n" or "\n" (a last "\r" alone too), as the
            // reference decoder reads lines. Anything else there ("\r\r\n") is a malformed line.
            while (p < end) {
                if (*p == '\n')
                    ++p;
                else if (*p == '\r' && (end - p == 1 || p[1] == '\n'))
                    p += end - p == 1 ? 1 : 2;
                else
                    return false;
            }
            return true;
        }
        const char *colon = static_cast<const char *>(std::memchr(p, ':', size_t(end - p)));
        if (!colon)
            return false;
        const std::string_view key(p, size_t(colon - p));
        const char *v = colon + 1;
        while (v < end && (*v == ' ' || *v == '\t'))
            ++v;
        const char *e = v;
        while (e < end && *e != '\r') {
            if (static_cast<unsigned char>(*e) < 0x20 || static_cast<unsigned char>(*e) >= 0x7f)
                return false;
            ++e;
        }
        if (end - e < 2 || e[1] != '\n')
            return false;
        const char *next = e + 2;
        while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
            --e;
        const Span value{v, e, false};
        auto take = [&value](Span &slot, bool &seen) {
            if (seen)
                return false;
            slot = value;
            seen = true;
            return true;
        };
        bool ok = false;
        if (key == "Nmqtt-RTopic")
            ok = take(h.topic, h.hasTopic);
        else if (key == "Nmqtt-RFlags")
            ok = take(h.flags, h.hasFlags);
        else if (key == "Nmqtt-ROrigin")
            ok = take(h.origin, h.hasOrigin);
        else if (key == "Nmqtt-RSource")
            ok = take(h.source, h.hasSource);
        if (!ok)
            return false;
        p = next;
    }
    return false; // no blank line at the end
}

int hexByte(const Span &s)
{
    if (s.size() < 1 || s.size() > 2)
        return -1;
    int v = 0;
    for (const char *c = s.begin; c < s.end; ++c) {
        const int d = Scanner::hexValue(*c);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

// The bytes of a canonical base64 text: the standard alphabet, padded to a multiple of four, zero bits
// after the last byte. False for anything else (also the empty text), which is left to
// QByteArray::fromBase64Encoding, the reference decoder's; on canonical text both give the same bytes.
// Qt's general decoder costs several times this loop on the short payloads of retained messages.
bool canonicalBase64(const Span &s, QByteArray &out)
{
    static constexpr auto kValue = [] {
        std::array<signed char, 256> v{};
        v.fill(-1);
        for (int i = 0; i < 26; ++i) {
            v[size_t('A' + i)] = static_cast<signed char>(i);
            v[size_t('a' + i)] = static_cast<signed char>(26 + i);
        }
        for (int i = 0; i < 10; ++i)
            v[size_t('0' + i)] = static_cast<signed char>(52 + i);
        v[size_t('+')] = 62;
        v[size_t('/')] = 63;
        return v;
    }();
    const qsizetype n = s.size();
    if (n == 0 || n % 4 != 0)
        return false;
    const auto *p = reinterpret_cast<const unsigned char *>(s.begin);
    const int pad = p[n - 1] != '=' ? 0 : p[n - 2] != '=' ? 1 : 2;
    QByteArray bytes(n / 4 * 3 - pad, Qt::Uninitialized);
    char *d = bytes.data();
    const unsigned char *last = p + n - 4;
    for (; p < last; p += 4, d += 3) {
        const int a = kValue[p[0]], b = kValue[p[1]], c = kValue[p[2]], e = kValue[p[3]];
        if ((a | b | c | e) < 0)
            return false;
        const unsigned x = unsigned(a) << 18 | unsigned(b) << 12 | unsigned(c) << 6 | unsigned(e);
        d[0] = char(x >> 16);
        d[1] = char(x >> 8);
        d[2] = char(x);
    }
    // The last four: '=' only as padding (its value is -1, so one anywhere else fails the test).
    const int a = kValue[p[0]], b = kValue[p[1]];
    const int c = pad == 2 ? 0 : kValue[p[2]];
    const int e = pad >= 1 ? 0 : kValue[p[3]];
    if ((a | b | c | e) < 0 || (pad == 2 && (b & 0xf) != 0) || (pad == 1 && (c & 0x3) != 0))
        return false;
    const unsigned x = unsigned(a) << 18 | unsigned(b) << 12 | unsigned(c) << 6 | unsigned(e);
    d[0] = char(x >> 16);
    if (pad < 2)
        d[1] = char(x >> 8);
    if (pad < 1)
        d[2] = char(x);
    out = std::move(bytes);
    return true;
}

bool validQos(int flags)
{
    return ((flags >> 1) & 0x3) != 0x3;
}

std::optional<RetainedRecord> fromHeaders(const HeaderValues &h, const QByteArray &body)
{
    RetainedRecord r;
    r.encoding = RetainedRecord::Encoding::Headers;
    Span flags = h.flags;
    if (flags.size() > 0 && *flags.begin == '-') {
        r.isDeleteMarker = true;
        ++flags.begin;
    }
    const int f = hexByte(flags);
    if (f < 0 || !validQos(f) || (r.isDeleteMarker && !body.isEmpty()))
        return std::nullopt;
    r.flags = quint8(f);
    if (h.hasTopic)
        r.topic = QString::fromLatin1(h.topic.begin, h.topic.size());
    if (r.topic.isEmpty() && !r.isDeleteMarker)
        return std::nullopt;
    if (h.hasOrigin && !interned(h.origin, r.origin))
        return std::nullopt;
    if (h.hasSource && !interned(h.source, r.source))
        return std::nullopt;
    r.payload = body;
    return r;
}

std::optional<RetainedRecord> fromJson(const QByteArray &json)
{
    if (json.isEmpty() || json.size() > kMaxBody)
        return std::nullopt;
    Scanner sc(json.constData(), json.constData() + json.size());
    if (!sc.eat('{'))
        return std::nullopt;
    RetainedRecord r;
    r.encoding = RetainedRecord::Encoding::Json;
    unsigned seen = 0;
    auto once = [&seen](unsigned bit) {
        if (seen & bit)
            return false;
        seen |= bit;
        return true;
    };
    if (!sc.eat('}')) {
        do {
            Span key;
            Span v;
            if (!sc.string(key) || key.escaped || !sc.eat(':') || sc.peek('n'))
                return std::nullopt; // nulls: the reference decoder
            bool ok = true;
            if (key.is("origin") && once(1)) {
                ok = sc.string(v) && interned(v, r.origin);
            } else if (key.is("subject") && once(2)) {
                ok = sc.string(v) && toQString(v, r.subject);
            } else if (key.is("topic") && once(4)) {
                ok = sc.string(v) && toQString(v, r.topic);
            } else if (key.is("source") && once(8)) {
                ok = sc.string(v) && interned(v, r.source);
            } else if (key.is("msg") && once(16)) {
                ok = sc.string(v) && !v.escaped;
                if (ok && !canonicalBase64(v, r.payload)) {
                    auto decoded =
                        QByteArray::fromBase64Encoding(QByteArray::fromRawData(v.begin, v.size()), QByteArray::AbortOnBase64DecodingErrors);
                    ok = bool(decoded);
                    if (ok)
                        r.payload = std::move(*decoded);
                }
            } else if (key.is("flags") && once(32)) {
                ok = sc.integer(v) && *v.begin != '-' && v.size() <= 3;
                if (ok) {
                    int f = 0; // one to three digits (checked by the scanner)
                    for (const char *c = v.begin; c < v.end; ++c)
                        f = f * 10 + (*c - '0');
                    ok = f <= 255 && validQos(f);
                    r.flags = quint8(f);
                }
            } else if (key.is("origin") || key.is("subject") || key.is("topic") || key.is("source") || key.is("msg") || key.is("flags")) {
                ok = false; // a repeated field: the reference decoder decides which wins
            } else {
                ok = sc.skipValue(1); // other fields are ignored, as by the reference decoder
            }
            if (!ok)
                return std::nullopt;
        } while (sc.eat(','));
        if (!sc.eat('}'))
            return std::nullopt;
    }
    if (!sc.atEnd() || (r.topic.isEmpty() && r.subject.isEmpty()))
        return std::nullopt;
    return r;
}

} // namespace

std::optional<RetainedRecord> decode(const StoredMessage &message)
{
    std::optional<RetainedRecord> r;
    if (message.headers.isEmpty()) {
        r = fromJson(message.data);
    } else {
        HeaderValues h;
        if (!parseHeaders(message.headers, h) || (!h.hasFlags && (h.hasTopic || h.hasOrigin || h.hasSource)))
            return std::nullopt;
        r = h.hasFlags ? fromHeaders(h, message.data) : fromJson(message.data);
    }
    if (!r)
        return std::nullopt;
    r->storedSubject = message.subject;
    r->seq = message.seq;
    if (r->subject.isEmpty() && message.subject.startsWith(kPrefix))
        r->subject = message.subject.mid(kPrefix.size());
    return r;
}

} // namespace MqttDoctor::RetainedRecordFast
