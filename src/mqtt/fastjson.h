#pragma once

// Internal to the record decoders' fast paths (sessionrecordfast.cpp, retainedrecordfast.cpp): a
// JSON scanner over UTF-8 bytes that accepts only a strict subset of JSON (printable ASCII strings
// with simple or \uXXXX escapes, plain integers of at most 18 digits, true/false/null, shallow
// nesting). Every function returns false outside that subset, and the caller hands the input to the
// reference decoder (QJsonDocument), which decides. Never reads outside the given bytes.

#include <QString>

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace MqttDoctor::FastJson {

inline constexpr int kMaxDepth = 16; // deeper values go to the reference decoder

// Whether n bytes at a and b are equal. Keys and enum values are a few bytes long: word compares
// inline cost less than a call to memcmp with a length known only at run time.
inline bool sameBytes(const char *a, const char *b, size_t n)
{
    const auto word = [](const char *p) {
        std::uint64_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    };
    const auto half = [](const char *p) {
        std::uint32_t w;
        std::memcpy(&w, p, sizeof w);
        return w;
    };
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8)
            if (word(a + i) != word(b + i))
                return false;
        return word(a + n - 8) == word(b + n - 8); // the last eight bytes, overlapping the loop's
    }
    if (n >= 4)
        return half(a) == half(b) && half(a + n - 4) == half(b + n - 4);
    for (size_t i = 0; i < n; ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

struct Span
{
    const char *begin = nullptr;
    const char *end = nullptr;
    bool escaped = false;
    qsizetype size() const { return end - begin; }
    // Compared with a literal whose length the compiler knows (no strlen per key).
    template<size_t N>
    bool is(const char (&literal)[N]) const
    {
        return !escaped && size() == qsizetype(N - 1) && sameBytes(begin, literal, N - 1);
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
        // nats-server writes no whitespace: that case is one test, inlined; the loop is not.
        if (m_p<m_end &&static_cast<unsigned char>(*m_p)> ' ')
            return;
        skipWsLoop();
    }
    bool peek(char c) // c is never whitespace
    {
        if (m_p < m_end && *m_p == c) // the usual case first: c with no whitespace in front
            return true;
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
        for (;;) {
            m_p = plainRunEnd(m_p, m_end);
            if (m_p == m_end)
                return false;
            if (*m_p == '"') {
                s.end = m_p++;
                return true;
            }
            if (*m_p != '\\') // a control byte, DEL or a byte of UTF-8
                return false;
            s.escaped = true;
            if (++m_p >= m_end)
                return false;
            switch (*m_p) {
            case 'u':
                if (m_end - m_p < 5)
                    return false;
                for (int i = 1; i <= 4; ++i)
                    if (hexValue(m_p[i]) < 0)
                        return false;
                m_p += 5;
                break;
            case '"':
            case '\\':
            case '/':
            case 'b':
            case 'f':
            case 'n':
            case 'r':
            case 't': ++m_p; break;
            default: return false;
            }
        }
    }

    // The first byte in [p, end) that a string cannot take as it is ('"', '\\', a control byte, or one
    // of 0x7f and above), or end. Values of session records are tens of bytes long: eight bytes a
    // step, in a 64-bit word, then the last few one at a time (never reading at or past end).
    static const char *plainRunEnd(const char *p, const char *end)
    {
        constexpr std::uint64_t kOnes = 0x0101010101010101;
        for (qsizetype words = (end - p) / 8; words > 0; --words, p += 8) {
            const std::uint64_t w = firstByteLowest(p);
            // Bit 7 of a byte of a term is set when that byte is special; a plain byte neither sets it
            // nor borrows or carries, so no term marks a byte before the first special one (a borrow or
            // carry from a special byte only marks later bytes, which are not looked at).
            const std::uint64_t special = (w // 0x80 and above
                                           | (w - kOnes * 0x20) // below 0x20
                                           | (w + kOnes) // 0x7f
                                           | ((w ^ (kOnes * '"')) - kOnes) // '"'
                                           | ((w ^ (kOnes * '\\')) - kOnes)) // '\\'
                & (kOnes * 0x80);
            if (special != 0)
                return p + std::countr_zero(special) / 8;
        }
        for (; p < end; ++p) {
            const auto c = static_cast<unsigned char>(*p);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
                return p;
        }
        return end;
    }

    // Eight bytes from p as a word whose least significant byte is p[0].
    static std::uint64_t firstByteLowest(const char *p)
    {
        std::uint64_t w = 0;
        if constexpr (std::endian::native == std::endian::little) {
            std::memcpy(&w, p, sizeof w);
        } else {
            for (int i = 0; i < 8; ++i)
                w |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
        }
        return w;
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

    template<size_t N>
    bool literal(const char (&word)[N])
    {
        skipWs();
        constexpr qsizetype n = N - 1;
        if (m_end - m_p < n || !sameBytes(m_p, word, n))
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
    void skipWsLoop()
    {
        while (m_p < m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

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
        default: { // 'u', four hex digits checked by the scanner
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
