#include "nats/jsackreply.h"

#include <cstring>
#include <limits>

namespace MqttDoctor {

namespace {

// A decimal token that fits an int64, as nats.c's nats_ParseInt64 reads it: digits only, not empty
// (ns timestamps have 19 digits).
bool number(const char *begin, const char *end, quint64 &out)
{
    constexpr quint64 kMax = quint64(std::numeric_limits<qint64>::max());
    if (begin == end || end - begin > 19)
        return false;
    quint64 v = 0;
    for (const char *p = begin; p < end; ++p) {
        if (*p < '0' || *p > '9')
            return false;
        const quint64 digit = quint64(*p - '0');
        if (v > (kMax - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    out = v;
    return true;
}

} // namespace

bool JsAckReply::parse(const char *reply, JsAckReply &out)
{
    static constexpr char kPrefix[] = "$JS.ACK.";
    constexpr size_t kPrefixLength = sizeof kPrefix - 1;
    if (!reply || std::strncmp(reply, kPrefix, kPrefixLength) != 0)
        return false;
    // The tokens after the prefix: 7 (v1) or at least 9 of which the first 9 count (v2: domain and
    // account hash first, anything after the pending count ignored).
    struct Token
    {
        const char *begin;
        const char *end;
    };
    Token tokens[10];
    int count = 0;
    const char *p = reply + kPrefixLength;
    for (;;) {
        const char *dot = std::strchr(p, '.');
        const char *end = dot ? dot : p + std::strlen(p);
        tokens[count++] = {p, end};
        if (!dot || count == 10)
            break;
        p = dot + 1;
    }
    if (count != 7 && count < 9)
        return false;
    const int first = count == 7 ? 0 : 2; // <stream> in v1; after <domain>.<account hash> in v2
    if (tokens[first].begin == tokens[first].end || tokens[first + 1].begin == tokens[first + 1].end)
        return false; // stream and consumer names are never empty
    quint64 values[5];
    for (int i = 0; i < 5; ++i)
        if (!number(tokens[first + 2 + i].begin, tokens[first + 2 + i].end, values[i]))
            return false;
    out.streamSequence = values[1];
    out.consumerSequence = values[2];
    out.timeNs = qint64(values[3]);
    out.pending = values[4];
    return true;
}

} // namespace MqttDoctor
