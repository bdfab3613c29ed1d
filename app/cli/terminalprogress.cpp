#include "terminalprogress.h"

#include <unistd.h>

#include <QTextStream>

namespace MqttDoctor::Cli {

namespace {
constexpr int kMinIntervalMs = 100;
constexpr int kMaxWidth = 100;
} // namespace

TerminalProgress::TerminalProgress(QTextStream &err) : m_err(err), m_shown(isatty(STDERR_FILENO) == 1) {}

TerminalProgress::~TerminalProgress()
{
    clear();
}

void TerminalProgress::update(const QString &text)
{
    if (!m_shown)
        return;
    QMutexLocker lock(&m_mutex);
    if (m_sinceLast.isValid() && m_sinceLast.elapsed() < kMinIntervalMs)
        return;
    m_sinceLast.start();
    const QString line = text.left(kMaxWidth);
    m_err << '\r' << line.leftJustified(m_width) << Qt::flush;
    m_width = line.size();
}

void TerminalProgress::clear()
{
    if (!m_shown)
        return;
    QMutexLocker lock(&m_mutex);
    if (m_width == 0)
        return;
    m_err << '\r' << QString(m_width, QLatin1Char(' ')) << '\r' << Qt::flush;
    m_width = 0;
}

} // namespace MqttDoctor::Cli
