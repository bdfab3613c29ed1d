#include "mqtt/sessionrecordfast.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <iterator>

#include "mqtt/fastjson.h"

namespace MqttDoctor::SessionRecordFast {

namespace {

using namespace FastJson;

constexpr qsizetype kMaxBody = 64 * 1024 * 1024; // the reference decoder's limit
constexpr int kMaxConfigKeys = 48;

enum class FieldKind { Any, String, Enum, Signed, Unsigned, Bool };

struct KnownField
{
    const char *name;
    qsizetype length;
    FieldKind kind;
};

template<size_t N>
constexpr KnownField field(const char (&name)[N], FieldKind kind)
{
    return {name, qsizetype(N - 1), kind};
}

// The ConsumerConfig fields whose type Go checks on unmarshal (as the reference decoder does).
constexpr KnownField kKnownFields[] = {field("durable_name", FieldKind::String),
                                       field("name", FieldKind::String),
                                       field("description", FieldKind::String),
                                       field("filter_subject", FieldKind::String),
                                       field("deliver_subject", FieldKind::String),
                                       field("deliver_group", FieldKind::String),
                                       field("sample_freq", FieldKind::String),
                                       field("opt_start_time", FieldKind::String),
                                       field("deliver_policy", FieldKind::Enum),
                                       field("ack_policy", FieldKind::Enum),
                                       field("replay_policy", FieldKind::Enum),
                                       field("ack_wait", FieldKind::Signed),
                                       field("max_deliver", FieldKind::Signed),
                                       field("max_waiting", FieldKind::Signed),
                                       field("max_ack_pending", FieldKind::Signed),
                                       field("idle_heartbeat", FieldKind::Signed),
                                       field("max_batch", FieldKind::Signed),
                                       field("max_expires", FieldKind::Signed),
                                       field("max_bytes", FieldKind::Signed),
                                       field("inactive_threshold", FieldKind::Signed),
                                       field("num_replicas", FieldKind::Signed),
                                       field("opt_start_seq", FieldKind::Unsigned),
                                       field("rate_limit_bps", FieldKind::Unsigned),
                                       field("flow_control", FieldKind::Bool),
                                       field("headers_only", FieldKind::Bool),
                                       field("mem_storage", FieldKind::Bool),
                                       field("direct", FieldKind::Bool)};
static_assert(std::size(kKnownFields) <= 32, "one bit per known field");

constexpr bool named(const KnownField &f, const char *name)
{
    qsizetype i = 0;
    for (; i < f.length && name[i] != '\0'; ++i)
        if (f.name[i] != name[i])
            return false;
    return i == f.length && name[i] == '\0';
}
constexpr int kDurableName = 0;
constexpr int kDeliverSubject = 4;
static_assert(named(kKnownFields[kDurableName], "durable_name") && named(kKnownFields[kDeliverSubject], "deliver_subject"));

// knownField() finds a key's only candidate in one step: a slot picked by the key's length, first and
// last byte (a hash without collisions among the known fields, checked at compile time), then one compare.
constexpr size_t kFieldSlots = 64;
constexpr size_t fieldSlot(qsizetype length, unsigned char first, unsigned char last)
{
    return size_t(4 * (length + first) + 3 * last) % kFieldSlots;
}
constexpr KnownField kNoField = {"", 0, FieldKind::Any};
constexpr auto kFieldAt = [] {
    std::array<signed char, kFieldSlots> at{};
    at.fill(-1);
    for (size_t i = 0; i < std::size(kKnownFields); ++i) {
        const KnownField &f = kKnownFields[i];
        at[fieldSlot(f.length, static_cast<unsigned char>(f.name[0]), static_cast<unsigned char>(f.name[f.length - 1]))] =
            static_cast<signed char>(i);
    }
    return at;
}();
static_assert(std::ranges::count_if(kFieldAt, [](signed char i) { return i >= 0; }) == std::ssize(kKnownFields),
              "two known fields share a slot: change the multipliers in fieldSlot()");

// The position of a known field in kKnownFields, or -1.
int knownField(const Span &key)
{
    const qsizetype n = key.size();
    if (n == 0)
        return -1;
    const int i = kFieldAt[fieldSlot(n, static_cast<unsigned char>(key.begin[0]), static_cast<unsigned char>(key.begin[n - 1]))];
    const KnownField &f = i >= 0 ? kKnownFields[i] : kNoField;
    return f.length == n && sameBytes(f.name, key.begin, size_t(n)) ? i : -1;
}

bool enumAllowed(const Span &key, const Span &value)
{
    if (key.is("deliver_policy"))
        return value.is("all") || value.is("last") || value.is("new") || value.is("by_start_sequence") || value.is("by_start_time")
            || value.is("last_per_subject") || value.is("undefined");
    if (key.is("ack_policy"))
        return value.is("none") || value.is("all") || value.is("explicit");
    return value.is("instant") || value.is("original");
}

// One ConsumerConfig object, validated like the reference decoder; a slice of `body` on success.
bool consumerConfig(Scanner &sc, const QByteArray &body, ConsumerConfigJson &out)
{
    if (!sc.peek('{'))
        return false;
    const qsizetype start = sc.offset();
    sc.eat('{');
    struct Key
    {
        const char *begin;
        qsizetype size;
    };
    Key others[kMaxConfigKeys]; // the keys that are not known fields (no initializers: most configs have none)
    int count = 0;
    int otherCount = 0;
    quint32 seen = 0; // known fields met, one bit each
    QString durable;
    ConsumerConfigJson::ValueSpan durableAt, deliverAt;
    if (!sc.eat('}')) {
        do {
            Span key;
            if (!sc.string(key) || key.escaped || count == kMaxConfigKeys || !sc.eat(':'))
                return false;
            ++count;
            // A duplicate key: the reference decoder decides which wins.
            const int known = knownField(key);
            if (known >= 0) {
                if (seen & (quint32(1) << known))
                    return false;
                seen |= quint32(1) << known;
            } else {
                for (int i = 0; i < otherCount; ++i)
                    if (others[i].size == key.size() && std::memcmp(others[i].begin, key.begin, size_t(key.size())) == 0)
                        return false;
                others[otherCount++] = {key.begin, key.size()};
            }
            if (sc.peek('n')) { // null is allowed for every field
                if (!sc.literal("null"))
                    return false;
                continue;
            }
            Span v;
            switch (known >= 0 ? kKnownFields[known].kind : FieldKind::Any) {
            case FieldKind::Any:
                if (!sc.skipValue(1))
                    return false;
                break;
            case FieldKind::String:
                if (!sc.string(v))
                    return false;
                if (known == kDurableName && !toQString(v, durable))
                    return false;
                if (!v.escaped && (known == kDurableName || known == kDeliverSubject))
                    (known == kDurableName ? durableAt : deliverAt) = {v.begin - body.constData(), v.size()};
                break;
            case FieldKind::Enum:
                if (!sc.string(v) || !enumAllowed(key, v))
                    return false;
                break;
            case FieldKind::Signed:
                if (!sc.integer(v))
                    return false;
                break;
            case FieldKind::Unsigned:
                if (!sc.integer(v) || *v.begin == '-')
                    return false;
                break;
            case FieldKind::Bool:
                if (!(sc.peek('t') ? sc.literal("true") : sc.literal("false")))
                    return false;
                break;
            }
        } while (sc.eat(','));
        if (!sc.eat('}'))
            return false;
    }
    out = ConsumerConfigJson::fromSliceShared(body, start, sc.offset() - start, std::move(durable), durableAt, deliverAt);
    return true;
}

} // namespace

std::optional<SessionRecord> decodeBody(const QByteArray &json)
{
    if (json.isEmpty() || json.size() > kMaxBody)
        return std::nullopt;
    Scanner sc(json.constData(), json.constData() + json.size());
    if (!sc.eat('{'))
        return std::nullopt;
    SessionRecord r;
    unsigned seen = 0;
    auto once = [&seen](unsigned bit) {
        if (seen & bit)
            return false;
        seen |= bit;
        return true;
    };
    if (sc.eat('}'))
        return sc.atEnd() ? std::optional<SessionRecord>(r) : std::nullopt;
    do {
        Span key;
        if (!sc.string(key) || key.escaped || !sc.eat(':'))
            return std::nullopt;
        if (sc.peek('n')) // nulls: the reference decoder
            return std::nullopt;
        Span v;
        if (key.is("origin") && once(1)) {
            if (!sc.string(v) || !interned(v, r.origin))
                return std::nullopt;
        } else if (key.is("id") && once(2)) {
            if (!sc.string(v) || !toQString(v, r.id))
                return std::nullopt;
        } else if (key.is("clean") && once(4)) {
            const bool isTrue = sc.peek('t');
            if (!(isTrue ? sc.literal("true") : sc.literal("false")))
                return std::nullopt;
            r.clean = isTrue;
        } else if (key.is("subs") && once(8)) {
            if (!sc.eat('{'))
                return std::nullopt;
            if (!sc.eat('}')) {
                do {
                    QString subject;
                    if (!sc.string(v) || !interned(v, subject) || subject.isEmpty() || !sc.eat(':'))
                        return std::nullopt;
                    Span q;
                    if (!sc.integer(q) || q.size() != 1 || *q.begin > '2' || r.subs.contains(subject))
                        return std::nullopt;
                    r.subs.insert(subject, *q.begin - '0');
                } while (sc.eat(','));
                if (!sc.eat('}'))
                    return std::nullopt;
            }
        } else if (key.is("cons") && once(16)) {
            if (!sc.eat('{'))
                return std::nullopt;
            if (!sc.eat('}')) {
                do {
                    QString sid;
                    if (!sc.string(v) || !interned(v, sid) || !sc.eat(':') || r.cons.contains(sid))
                        return std::nullopt;
                    ConsumerConfigJson config;
                    if (!consumerConfig(sc, json, config))
                        return std::nullopt;
                    r.cons.insert(sid, config);
                } while (sc.eat(','));
                if (!sc.eat('}'))
                    return std::nullopt;
            }
        } else if (key.is("pubrel") && once(32)) {
            ConsumerConfigJson config;
            if (!consumerConfig(sc, json, config))
                return std::nullopt;
            r.pubrel = std::move(config);
        } else {
            return std::nullopt; // unknown or repeated field: kept/decided by the reference decoder
        }
    } while (sc.eat(','));
    if (!sc.eat('}') || !sc.atEnd())
        return std::nullopt;
    return r;
}

bool headerForm(const QByteArray &block, SessionRecord::HeaderForm &form, std::optional<quint64> &expectedLastSequence)
{
    expectedLastSequence.reset();
    if (block.isEmpty()) {
        form = SessionRecord::HeaderForm::None;
        return true;
    }
    static constexpr char kStatus[] = "NATS/1.0";
    static constexpr char kExpected[] = "Nats-Expected-Last-Subject-Sequence:";
    const char *p = block.constData();
    const char *end = p + block.size();
    if (block.size() < 8 || std::memcmp(p, kStatus, 8) != 0)
        return false;
    p += 8;
    // Only whole CRLF pairs (the forms nats-server stores); anything else, such as a bare CR or LF,
    // goes to the reference decoder, which says what is wrong with it.
    auto onlyLineEnds = [end](const char *from) {
        if ((end - from) % 2 != 0)
            return false;
        for (; from < end; from += 2)
            if (from[0] != '\r' || from[1] != '\n')
                return false;
        return true;
    };
    if (onlyLineEnds(p)) {
        form = SessionRecord::HeaderForm::Empty;
        return true;
    }
    if (end - p < 2 || p[0] != '\r' || p[1] != '\n')
        return false;
    p += 2;
    const qsizetype keyLen = qsizetype(sizeof(kExpected) - 1);
    if (end - p < keyLen || std::memcmp(p, kExpected, size_t(keyLen)) != 0)
        return false;
    p += keyLen;
    auto skipBlanks = [end](const char *from) { // nats.c writes `Key: value`, nats-server `Key:value`
        while (from < end && (*from == ' ' || *from == '\t'))
            ++from;
        return from;
    };
    p = skipBlanks(p);
    quint64 n = 0;
    int digits = 0;
    for (; p < end && *p >= '0' && *p <= '9' && digits < 19; ++p, ++digits)
        n = n * 10 + quint64(*p - '0');
    p = skipBlanks(p);
    if (digits == 0 || end - p < 2 || p[0] != '\r' || p[1] != '\n' || !onlyLineEnds(p))
        return false;
    form = SessionRecord::HeaderForm::ExpectedLastSequence;
    expectedLastSequence = n;
    return true;
}

} // namespace MqttDoctor::SessionRecordFast
