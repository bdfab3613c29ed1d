#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

class QIODevice;

namespace MqttDoctor {

/**
 * Reads a log line by line from a device (a file, standard input) in blocks, whatever its size: memory stays at one
 * block and one line. A line longer than the cap keeps only its first `maxLineBytes` bytes (the rest, up to the next
 * line end, is read and dropped); binary input is only lines like any other. Line ends are "\n" and "\r\n"; a last
 * line without one counts. Single-threaded.
 */
class LogLineReader final
{
public:
    /** Longer lines are cut here: nats-server's MQTT lines are well under 2 KiB. */
    static constexpr qsizetype kDefaultMaxLineBytes = 16 * 1024;

    explicit LogLineReader(QIODevice *device, qsizetype maxLineBytes = kDefaultMaxLineBytes);

    /**
     * The next line without its line end, valid until the next call; false at the end of the input or on a read
     * error (failed()). `truncated` says the line was longer than the cap.
     */
    bool next(QByteArrayView &line, bool &truncated);

    /** The 1-based number of the line next() returned last. */
    qint64 lineNumber() const { return m_lineNumber; }
    /** Bytes read so far. */
    qint64 bytesRead() const { return m_bytesRead; }
    bool failed() const { return !m_error.isEmpty(); }
    QString errorString() const { return m_error; }

private:
    /** Reads more into the buffer after what is kept; false at the end or on an error. */
    bool fill();

    QIODevice *m_device;
    qsizetype m_maxLineBytes;
    QByteArray m_buffer;
    qsizetype m_start = 0; ///< where the unread part of the buffer begins
    qsizetype m_end = 0; ///< where it ends
    QByteArray m_line; ///< a line cut at the cap, or one that crossed the end of the buffer
    bool m_atEnd = false;
    qint64 m_lineNumber = 0;
    qint64 m_bytesRead = 0;
    QString m_error;
};

} // namespace MqttDoctor
