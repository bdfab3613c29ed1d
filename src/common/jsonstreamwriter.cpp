#include "jsonstreamwriter.h"

#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace MqttDoctor {

JsonStreamWriter::JsonStreamWriter(QTextStream &out) : m_out(out) {}

JsonStreamWriter::~JsonStreamWriter()
{
    finish();
}

char *JsonStreamWriter::Buffer::grow(qsizetype n)
{
    const qsizetype grown = std::max<qsizetype>({2 * capacity, size + n, 128 * 1024});
    std::unique_ptr<char[]> bigger(new char[size_t(grown)]);
    if (size > 0)
        std::memcpy(bigger.get(), data.get(), size_t(size));
    data = std::move(bigger);
    capacity = grown;
    return data.get() + size;
}

void JsonStreamWriter::flushIfFull()
{
    if (m_buffer.size >= 64 * 1024)
        flush();
}

void JsonStreamWriter::flush()
{
    if (m_buffer.size == 0)
        return;
    // Bytes straight to the device: no UTF-16 copy of a big document.
    if (QIODevice *device = m_out.device()) {
        m_out.flush();
        device->write(m_buffer.data.get(), m_buffer.size);
    } else {
        m_out << QString::fromUtf8(m_buffer.data.get(), m_buffer.size);
    }
    m_buffer.size = 0;
}

char *JsonStreamWriter::escapeInto(char *out, QStringView text)
{
    // As QJsonDocument escapes: quote, backslash and control characters; everything else as UTF-8.
    static const char hex[] = "0123456789abcdef";
    const char16_t *c = text.utf16();
    const char16_t *const end = c + text.size();
    for (; c != end; ++c) {
        const char16_t u = *c;
        if (u >= 0x20 && u < 0x80 && u != u'"' && u != u'\\') {
            *out++ = char(u);
        } else if (u < 0x80) {
            *out++ = '\\';
            switch (u) {
            case u'"': *out++ = '"'; break;
            case u'\\': *out++ = '\\'; break;
            case u'\b': *out++ = 'b'; break;
            case u'\f': *out++ = 'f'; break;
            case u'\n': *out++ = 'n'; break;
            case u'\r': *out++ = 'r'; break;
            case u'\t': *out++ = 't'; break;
            default:
                *out++ = 'u';
                *out++ = '0';
                *out++ = '0';
                *out++ = hex[u >> 4];
                *out++ = hex[u & 0xf];
            }
        } else if (u < 0x800) {
            *out++ = char(0xc0 | (u >> 6));
            *out++ = char(0x80 | (u & 0x3f));
        } else if (QChar::isHighSurrogate(u) && c + 1 != end && QChar::isLowSurrogate(c[1])) {
            const char32_t cp = QChar::surrogateToUcs4(u, c[1]);
            ++c;
            *out++ = char(0xf0 | (cp >> 18));
            *out++ = char(0x80 | ((cp >> 12) & 0x3f));
            *out++ = char(0x80 | ((cp >> 6) & 0x3f));
            *out++ = char(0x80 | (cp & 0x3f));
        } else if (QChar::isSurrogate(u)) {
            // A lone surrogate is no character: escaped, as QJsonDocument does.
            *out++ = '\\';
            *out++ = 'u';
            *out++ = hex[u >> 12];
            *out++ = hex[(u >> 8) & 0xf];
            *out++ = hex[(u >> 4) & 0xf];
            *out++ = hex[u & 0xf];
        } else {
            *out++ = char(0xe0 | (u >> 12));
            *out++ = char(0x80 | ((u >> 6) & 0x3f));
            *out++ = char(0x80 | (u & 0x3f));
        }
    }
    return out;
}

void JsonStreamWriter::writeEscaped(QStringView text)
{
    // Written in place: room for the worst case (6 bytes per UTF-16 unit), then cut to what was used.
    char *const start = m_buffer.room(6 * text.size() + 2);
    char *out = start;
    *out++ = '"';
    out = escapeInto(out, text);
    *out++ = '"';
    m_buffer.size += out - start;
}

QByteArray JsonStreamWriter::escaped(QStringView text)
{
    QByteArray out(6 * text.size(), Qt::Uninitialized);
    out.truncate(escapeInto(out.data(), text) - out.data());
    return out;
}

void JsonStreamWriter::beginString(const QString &key)
{
    separate();
    appendIndent();
    writeKey(key);
    m_buffer.append('"');
}

void JsonStreamWriter::textPiece(QStringView text)
{
    char *const start = m_buffer.room(6 * text.size());
    m_buffer.size += escapeInto(start, text) - start;
}

void JsonStreamWriter::endString()
{
    m_buffer.append('"');
    flushIfFull();
}

void JsonStreamWriter::appendIndent()
{
    const qsizetype n = 4 * qsizetype(m_open.size());
    std::memset(m_buffer.room(n), ' ', size_t(n));
    m_buffer.size += n;
}

void JsonStreamWriter::writeKey(const QString &key)
{
    if (key.isEmpty() || m_open.empty() || m_open.back().array)
        return;
    writeEscaped(key);
    m_buffer.append(": ", 2);
}

void JsonStreamWriter::scalar(const QString &key, const char *text, qsizetype size)
{
    separate();
    appendIndent();
    writeKey(key);
    m_buffer.append(text, size);
    flushIfFull();
}

void JsonStreamWriter::string(const QString &key, QStringView text)
{
    separate();
    appendIndent();
    writeKey(key);
    writeEscaped(text);
    flushIfFull();
}

void JsonStreamWriter::number(const QString &key, qint64 n)
{
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, n).ptr;
    scalar(key, text, end - text);
}

void JsonStreamWriter::boolean(const QString &key, bool b)
{
    b ? scalar(key, "true", 4) : scalar(key, "false", 5);
}

void JsonStreamWriter::null(const QString &key)
{
    scalar(key, "null", 4);
}

void JsonStreamWriter::stringOrNull(const QString &key, QStringView text)
{
    text.isEmpty() ? null(key) : string(key, text);
}

void JsonStreamWriter::strings(const QString &key, const QStringList &list)
{
    beginArray(key);
    for (const QString &s : list)
        string({}, s);
    endArray();
}

void JsonStreamWriter::separate()
{
    if (m_open.empty())
        return;
    Level &level = m_open.back();
    if (!level.empty)
        m_buffer.append(',');
    m_buffer.append('\n');
    level.empty = false;
}

void JsonStreamWriter::open(const QString &key, bool array)
{
    separate();
    if (!m_open.empty()) {
        appendIndent();
        writeKey(key);
    }
    m_buffer.append(array ? '[' : '{');
    m_open.push_back({array, true});
}

void JsonStreamWriter::close()
{
    const bool array = m_open.back().array;
    m_open.pop_back();
    m_buffer.append('\n');
    appendIndent();
    m_buffer.append(array ? ']' : '}');
}

void JsonStreamWriter::beginObject(const QString &key)
{
    open(key, false);
}

void JsonStreamWriter::beginArray(const QString &key)
{
    open(key, true);
}

void JsonStreamWriter::endObject()
{
    close();
    flushIfFull();
}

void JsonStreamWriter::endArray()
{
    close();
    flushIfFull();
}

void JsonStreamWriter::writeBare(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        m_buffer.append('{');
        m_open.push_back({false, true});
        for (auto it = object.begin(); it != object.end(); ++it) {
            separate();
            appendIndent();
            writeKey(it.key());
            writeBare(it.value());
        }
        close();
        break;
    }
    case QJsonValue::Array: {
        const QJsonArray array = value.toArray();
        m_buffer.append('[');
        m_open.push_back({true, true});
        for (const QJsonValue &element : array) {
            separate();
            appendIndent();
            writeBare(element);
        }
        close();
        break;
    }
    case QJsonValue::String: writeEscaped(value.toString()); break;
    case QJsonValue::Bool: value.toBool() ? m_buffer.append("true", 4) : m_buffer.append("false", 5); break;
    case QJsonValue::Double: {
        // As QJsonDocument writes numbers: integers exactly, other doubles shortest, non-finite ones null.
        const double d = value.toDouble();
        const qint64 i = value.toInteger();
        if (double(i) == d) {
            char text[24];
            m_buffer.append(text, std::to_chars(text, text + sizeof text, i).ptr - text);
        } else if (std::isfinite(d)) {
            const QByteArray text = QByteArray::number(d, 'g', QLocale::FloatingPointShortest);
            m_buffer.append(text.constData(), text.size());
        } else {
            m_buffer.append("null", 4);
        }
        break;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined: m_buffer.append("null", 4); break;
    }
}

void JsonStreamWriter::value(const QString &key, const QJsonValue &value)
{
    separate();
    appendIndent();
    writeKey(key);
    // A run of equal values (one layout for a thousand accounts) is made once.
    const qsizetype depth = qsizetype(m_open.size());
    if (depth == m_lastDepth && value == m_lastValue) {
        m_buffer.append(m_lastText.constData(), m_lastText.size());
    } else {
        const qsizetype start = m_buffer.size;
        writeBare(value);
        m_lastText = QByteArray(m_buffer.data.get() + start, m_buffer.size - start);
        m_lastValue = value;
        m_lastDepth = depth;
    }
    flushIfFull();
}

void JsonStreamWriter::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    while (!m_open.empty())
        close();
    m_buffer.append('\n');
    flush();
    m_out.flush();
}

} // namespace MqttDoctor
