#include "loglinereader.h"

#include <cstring>

#include <QIODevice>

namespace MqttDoctor {

namespace {

constexpr qsizetype kBlockBytes = 256 * 1024;

QByteArrayView withoutCarriageReturn(QByteArrayView line)
{
    return line.endsWith('\r') ? line.chopped(1) : line;
}

} // namespace

LogLineReader::LogLineReader(QIODevice *device, qsizetype maxLineBytes) : m_device(device), m_maxLineBytes(qMax<qsizetype>(1, maxLineBytes))
{
    m_buffer.resize(kBlockBytes);
}

bool LogLineReader::fill()
{
    m_start = m_end = 0;
    if (m_atEnd || !m_device)
        return false;
    const qint64 n = m_device->read(m_buffer.data(), m_buffer.size());
    if (n < 0) {
        m_error = m_device->errorString();
        if (m_error.isEmpty())
            m_error = QStringLiteral("read error");
        m_atEnd = true;
        return false;
    }
    if (n == 0) {
        m_atEnd = true;
        return false;
    }
    m_end = qsizetype(n);
    m_bytesRead += n;
    return true;
}

bool LogLineReader::next(QByteArrayView &line, bool &truncated)
{
    truncated = false;
    m_line.resize(0); // keeps its capacity
    bool started = false;
    for (;;) {
        if (m_start == m_end && !fill()) {
            if (!started || failed())
                return false;
            ++m_lineNumber; // the last line, without a line end
            line = withoutCarriageReturn(m_line);
            return true;
        }
        const char *begin = m_buffer.constData() + m_start;
        const qsizetype available = m_end - m_start;
        const auto *newline = static_cast<const char *>(std::memchr(begin, '\n', size_t(available)));
        const qsizetype length = newline ? qsizetype(newline - begin) : available;
        if (!started && newline) {
            // The whole line is in the buffer: no copy.
            started = true;
            m_start += length + 1;
            ++m_lineNumber;
            truncated = length > m_maxLineBytes;
            line = truncated ? QByteArrayView(begin, m_maxLineBytes) : withoutCarriageReturn(QByteArrayView(begin, length));
            return true;
        }
        started = true;
        const qsizetype room = m_maxLineBytes - m_line.size();
        if (length > room)
            truncated = true;
        if (room > 0)
            m_line.append(begin, qMin(length, room));
        if (newline) {
            m_start += length + 1;
            ++m_lineNumber;
            line = truncated ? QByteArrayView(m_line) : withoutCarriageReturn(m_line);
            return true;
        }
        m_start = m_end; // the line goes on in the next block
    }
}

} // namespace MqttDoctor
