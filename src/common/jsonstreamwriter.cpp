#include "jsonstreamwriter.h"

#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace MqttDoctor {

namespace {

// The indented text of one value as an element one level inside a container: the lines between
// the brackets of an indented one-element array, without their line breaks at either end.
QByteArray elementText(const QJsonValue &value)
{
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Indented);
    // "[\n" + element + "\n]\n"
    return text.mid(2, text.size() - 5);
}

} // namespace

JsonStreamWriter::JsonStreamWriter(QTextStream &out) : m_out(out) {}

JsonStreamWriter::~JsonStreamWriter()
{
    finish();
}

void JsonStreamWriter::write(const QByteArray &bytes)
{
    // Bytes straight to the device: no UTF-16 copy of a big document.
    if (QIODevice *device = m_out.device()) {
        m_out.flush();
        device->write(bytes);
    } else {
        m_out << QString::fromUtf8(bytes);
    }
}

void JsonStreamWriter::separate()
{
    if (m_open.isEmpty())
        return;
    write(m_open.last().empty ? QByteArrayLiteral("\n") : QByteArrayLiteral(",\n"));
    m_open.last().empty = false;
}

QByteArray JsonStreamWriter::keyText(const QString &key) const
{
    if (key.isEmpty() || m_open.isEmpty() || m_open.last().array)
        return {};
    // The key as JSON text (escaped as QJsonDocument escapes it), then ": " as Indented writes it.
    const QByteArray member = QJsonDocument(QJsonObject{{key, QJsonValue::Null}}).toJson(QJsonDocument::Compact);
    return member.mid(1, member.size() - 7) + ": ";  // {"key":null} -> "key"
}

void JsonStreamWriter::open(const QString &key, bool array)
{
    separate();
    if (!m_open.isEmpty())
        write(indent() + keyText(key));
    write(array ? QByteArrayLiteral("[") : QByteArrayLiteral("{"));
    m_open.append({array, true});
}

void JsonStreamWriter::close()
{
    const bool array = m_open.last().array;
    m_open.removeLast();
    write('\n' + indent() + (array ? ']' : '}'));
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
}

void JsonStreamWriter::endArray()
{
    close();
}

void JsonStreamWriter::value(const QString &key, const QJsonValue &value)
{
    separate();
    // One level inside a container, then as deep as the current one is.
    const qsizetype depth = 4 * m_open.size();
    if (depth != m_lastDepth || value != m_lastValue) {
        m_lastText = elementText(value);
        if (depth > 4) {
            const QByteArray pad(depth - 4, ' ');
            m_lastText.replace("\n", QByteArray("\n" + pad));
            m_lastText.prepend(pad);
        }
        m_lastValue = value;
        m_lastDepth = depth;
    }
    QByteArray text = m_lastText;
    text.insert(depth, keyText(key));
    write(text);
}

void JsonStreamWriter::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    while (!m_open.isEmpty())
        close();
    write(QByteArrayLiteral("\n"));
    m_out.flush();
}

} // namespace MqttDoctor
