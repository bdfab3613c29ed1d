#include "mqtt/retainedrecordfast.h"

#include <cstring>

#include "mqtt/fastjson.h"

namespace MqttDoctor::RetainedRecordFast {

namespace {

using namespace FastJson;

constexpr qsizetype kMaxBody = 64 * 1024 * 1024;  // the reference decoder's limit
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
        if (*p == '\r' || *p == '\n') {  // the blank line(s) that end the block
            for (; p < end; ++p)
                if (*p != '\r' && *p != '\n')
                    return false;
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
    return false;  // no blank line at the end
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
                return std::nullopt;  // nulls: the reference decoder
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
                if (ok) {
                    auto decoded = QByteArray::fromBase64Encoding(QByteArray::fromRawData(v.begin, v.size()),
                                                                  QByteArray::AbortOnBase64DecodingErrors);
                    ok = bool(decoded);
                    if (ok)
                        r.payload = std::move(*decoded);
                }
            } else if (key.is("flags") && once(32)) {
                ok = sc.integer(v) && *v.begin != '-' && v.size() <= 3;
                if (ok) {
                    const int f = QByteArrayView(v.begin, v.size()).toInt();
                    ok = f <= 255 && validQos(f);
                    r.flags = quint8(f);
                }
            } else if (key.is("origin") || key.is("subject") || key.is("topic") || key.is("source") || key.is("msg")
                       || key.is("flags")) {
                ok = false;  // a repeated field: the reference decoder decides which wins
            } else {
                ok = sc.skipValue(1);  // other fields are ignored, as by the reference decoder
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
