#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <cstring>
#include <memory>
#include <vector>

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
    /**
     * The same for one scalar, written straight from the C++ value (no QJsonValue, no document): what a
     * command writes per record of a stream of a million. Text as QJsonDocument writes it.
     */
    void string(const QString &key, QStringView text);
    void number(const QString &key, qint64 n);
    void boolean(const QString &key, bool b);
    void null(const QString &key);
    /** A string, or null when `text` is empty. */
    void stringOrNull(const QString &key, QStringView text);
    /** An array of strings. */
    void strings(const QString &key, const QStringList &list);
    /**
     * A string written in pieces (a text made from a pattern, without making it first): beginString(),
     * then pieces, then endString(). escapedPiece() takes text already escaped by escaped() (a pattern's
     * fixed text, escaped once); textPiece() escapes as string() does.
     */
    void beginString(const QString &key);
    void textPiece(QStringView text);
    void escapedPiece(const QByteArray &escapedText) { m_buffer.append(escapedText.constData(), escapedText.size()); }
    void endString();
    /** `text` as string() writes it between the quotes: UTF-8, JSON escapes where QJsonDocument makes them. */
    static QByteArray escaped(QStringView text);
    /** Writes what is buffered (64 KiB at a time otherwise); finish() flushes too. */
    void flush();
    /** Finishes the document (closes what is open, final newline) and flushes. */
    void finish();

private:
    void separate();
    void open(const QString &key, bool array);
    void close();
    void flushIfFull();
    void scalar(const QString &key, const char *text, qsizetype size);
    void writeKey(const QString &key);
    void appendIndent();
    void writeEscaped(QStringView text);
    /** The escaped text without its quotes at `out` (room for 6 bytes per UTF-16 unit); returns its end. */
    static char *escapeInto(char *out, QStringView text);
    /** A value's text at the current depth, without key, straight into the buffer. */
    void writeBare(const QJsonValue &value);

    QTextStream &m_out;
    // The text not yet written: small appends to a QByteArray cost more than the rest of a record's
    // writing, so a plain block that only grows (for one value longer than it).
    struct Buffer
    {
        std::unique_ptr<char[]> data;
        qsizetype size = 0;
        qsizetype capacity = 0;
        /** Room for `n` more bytes at data.get() + size (may move what is there). Inline: called per piece. */
        char *room(qsizetype n) { return size + n <= capacity ? data.get() + size : grow(n); }
        char *grow(qsizetype n);
        void append(const char *text, qsizetype n) { std::memcpy(room(n), text, size_t(n)), size += n; }
        void append(char c) { *room(1) = c, ++size; }
    };
    Buffer m_buffer;
    struct Level
    {
        bool array = false;
        bool empty = true;
    };
    std::vector<Level> m_open; ///< a plain vector: asked for its last level per value, never shared
    bool m_finished = false;
    // The last value's text: a run of equal values (one layout for a thousand accounts) is written once.
    QJsonValue m_lastValue;
    qsizetype m_lastDepth = -1;
    QByteArray m_lastText;
};

} // namespace MqttDoctor
