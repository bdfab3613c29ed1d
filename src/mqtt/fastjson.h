#pragma once

// Internal to the record decoders' fast paths (sessionrecordfast.cpp, retainedrecordfast.cpp): a
// JSON scanner over UTF-8 bytes that accepts only a strict subset of JSON (printable ASCII strings
// with simple or \uXXXX escapes, plain integers of at most 18 digits, true/false/null, shallow
// nesting). Every function returns false outside that subset, and the caller hands the input to the
// reference decoder (QJsonDocument), which decides. Never reads outside the given bytes.

#include <QString>

#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace MqttDoctor::FastJson {

inline constexpr int kMaxDepth = 16;  // deeper values go to the reference decoder

struct Span
{
    const char *begin = nullptr;
    const char *end = nullptr;
    bool escaped = false;
    qsizetype size() const { return end - begin; }
    bool is(const char *literal) const
    {
        const size_t n = std::strlen(literal);
        return !escaped && size_t(size()) == n && std::memcmp(begin, literal, n) == 0;
    }
};

// Every member returns false when the input is outside the fast subset (or invalid): the caller
// gives up and the reference decoder takes over.
class Scanner
{
public:
    Scanner(const char *begin, const char *end) : m_begin(begin), m_p(begin), m_end(end) {}

    void skipWs()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    bool peek(char c)
    {
        skipWs();
        return m_p < m_end && *m_p == c;
    }
    bool eat(char c)
    {
        if (!peek(c))
            return false;
        ++m_p;
        return true;
    }
    bool atEnd()
    {
        skipWs();
        return m_p == m_end;
    }
    qsizetype offset() const { return m_p - m_begin; }

    // A string of printable ASCII (no DEL) with simple or \uXXXX escapes; the span excludes the quotes.
    bool string(Span &s)
    {
        if (!eat('"'))
            return false;
        s.begin = m_p;
        s.escaped = false;
        while (m_p < m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                s.end = m_p++;
                return true;
            }
            if (c < 0x20 || c >= 0x7f)
                return false;
            if (c == '\\') {
                s.escaped = true;
                if (++m_p >= m_end)
                    return false;
                const char e = *m_p;
                if (e == 'u') {
                    if (m_end - m_p < 5)
                        return false;
                    for (int i = 1; i <= 4; ++i)
                        if (hexValue(m_p[i]) < 0)
                            return false;
                    m_p += 5;
                    continue;
                }
                if (!std::strchr("\"\\/bfnrt", e) || e == '\0')
                    return false;
            }
            ++m_p;
        }
        return false;
    }

    // A plain integer: optional '-', 1..18 digits, no leading zero, no fraction or exponent.
    bool integer(Span &s)
    {
        skipWs();
        s.begin = m_p;
        s.escaped = false;
        if (m_p < m_end && *m_p == '-')
            ++m_p;
        const char *digits = m_p;
        while (m_p < m_end && *m_p >= '0' && *m_p <= '9')
            ++m_p;
        const qsizetype n = m_p - digits;
        if (n == 0 || n > 18 || (n > 1 && *digits == '0'))
            return false;
        if (m_p < m_end && (*m_p == '.' || *m_p == 'e' || *m_p == 'E'))
            return false;
        s.end = m_p;
        return true;
    }

    bool literal(const char *word)
    {
        skipWs();
        const size_t n = std::strlen(word);
        if (size_t(m_end - m_p) < n || std::memcmp(m_p, word, n) != 0)
            return false;
        m_p += n;
        return true;
    }

    // Any value of the fast subset, skipped (syntax checked).
    bool skipValue(int depth)
    {
        if (depth > kMaxDepth)
            return false;
        skipWs();
        if (m_p >= m_end)
            return false;
        Span s;
        switch (*m_p) {
        case '"': return string(s);
        case 't': return literal("true");
        case 'f': return literal("false");
        case 'n': return literal("null");
        case '{': {
            ++m_p;
            if (eat('}'))
                return true;
            do {
                if (!string(s) || !eat(':') || !skipValue(depth + 1))
                    return false;
            } while (eat(','));
            return eat('}');
        }
        case '[': {
            ++m_p;
            if (eat(']'))
                return true;
            do {
                if (!skipValue(depth + 1))
                    return false;
            } while (eat(','));
            return eat(']');
        }
        default: return integer(s);
        }
    }

    static int hexValue(char c)
    {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    }

private:
    const char *m_begin;
    const char *m_p;
    const char *m_end;
};

// The text of a string span; false for escapes the fast path leaves to the reference decoder
// (surrogates and control characters).
inline bool toQString(const Span &s, QString &out)
{
    if (!s.escaped) {
        out = QString::fromLatin1(s.begin, s.size());
        return true;
    }
    out.resize(s.size());
    QChar *d = out.data();
    qsizetype n = 0;
    for (const char *p = s.begin; p < s.end; ++p) {
        if (*p != '\\') {
            d[n++] = QLatin1Char(*p);
            continue;
        }
        const char e = *++p;
        char16_t u = 0;
        switch (e) {
        case '"': u = u'"'; break;
        case '\\': u = u'\\'; break;
        case '/': u = u'/'; break;
        case 'b': u = u'\b'; break;
        case 'f': u = u'\f'; break;
        case 'n': u = u'\n'; break;
        case 'r': u = u'\r'; break;
        case 't': u = u'\t'; break;
        default: {  // 'u', four hex digits checked by the scanner
            for (int i = 1; i <= 4; ++i)
                u = char16_t(u * 16 + Scanner::hexValue(p[i]));
            p += 4;
            if (u < 0x20 || (u >= 0xD800 && u <= 0xDFFF))
                return false;
        }
        }
        d[n++] = QChar(u);
    }
    out.truncate(n);
    return true;
}

// Records repeat the same strings (the origin of their server, the subjects a fleet of devices
// subscribes to): one QString per distinct text and thread, shared by every record. Bounded.
inline bool interned(const Span &s, QString &out)
{
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
    };
    thread_local std::unordered_map<std::string, QString, Hash, std::equal_to<>> cache;
    // In front of it, the texts met last in a few slots picked by length and three bytes: a record's
    // origin, subjects and sids are found again without hashing the whole text.
    struct Recent
    {
        std::string key;
        QString value;
    };
    thread_local std::array<Recent, 64> recent;
    const std::string_view raw(s.begin, size_t(s.size()));
    const size_t n = raw.size();
    Recent *slot = nullptr;
    if (n != 0 && !s.escaped) {
        const auto byte = [&raw](size_t i) { return size_t(static_cast<unsigned char>(raw[i])); };
        slot = &recent[(n * 31 + byte(0) * 7 + byte(n / 2) * 3 + byte(n - 1) * 13) % recent.size()];
        if (slot->key == raw) {
            out = slot->value;
            return true;
        }
    }
    const auto it = cache.find(raw);
    if (it != cache.end()) {
        out = it->second;
    } else {
        if (!toQString(s, out))
            return false;
        if (cache.size() >= 4096)
            cache.clear();
        cache.emplace(std::string(raw), out);
    }
    if (slot) {
        slot->key.assign(raw);
        slot->value = out;
    }
    return true;
}

} // namespace MqttDoctor::FastJson
