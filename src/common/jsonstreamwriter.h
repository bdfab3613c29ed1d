#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>

class QTextStream;

namespace MqttDoctor {

/**
 * Writes one JSON object as it is produced, member by member and array element by element, in the
 * same text QJsonDocument::toJson(Indented) gives for the whole document (4-space indentation), so
 * that a command's output need not exist twice in memory (as a document tree and as its text).
 * Like QJsonObject, readers expect an object's keys in sorted order: give them in that order.
 */
class JsonStreamWriter final
{
public:
    explicit JsonStreamWriter(QTextStream &out);
    ~JsonStreamWriter();
    JsonStreamWriter(const JsonStreamWriter &) = delete;
    JsonStreamWriter &operator=(const JsonStreamWriter &) = delete;

    /** The top-level object, or an object as an array element (`key` empty) or member. */
    void beginObject(const QString &key = {});
    void endObject();
    void beginArray(const QString &key = {});
    void endArray();
    /** A member of the current object (`key`), or an element of the current array (`key` empty). */
    void value(const QString &key, const QJsonValue &value);
    /** Finishes the document (closes what is open, final newline) and flushes. */
    void finish();

private:
    void separate();
    QByteArray keyText(const QString &key) const;
    void open(const QString &key, bool array);
    void close();
    void write(const QByteArray &bytes);
    QByteArray indent() const { return QByteArray(4 * m_open.size(), ' '); }

    QTextStream &m_out;
    struct Level
    {
        bool array = false;
        bool empty = true;
    };
    QList<Level> m_open;
    bool m_finished = false;
    // The last value's text: a run of equal values (one layout for a thousand accounts) is written once.
    QJsonValue m_lastValue;
    qsizetype m_lastDepth = -1;
    QByteArray m_lastText;
};

} // namespace MqttDoctor
