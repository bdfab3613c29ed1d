#pragma once

#include <QElapsedTimer>
#include <QMutex>
#include <QString>

class QTextStream;

namespace MqttDoctor::Cli {

/**
 * One self-overwriting progress line on standard error, shown only when standard error is a terminal
 * (never in a pipe or a log), at most ten updates a second. update() may be called from several
 * threads; clear() removes the line before the command prints its result.
 */
class TerminalProgress final
{
public:
    explicit TerminalProgress(QTextStream &err);
    ~TerminalProgress();
    TerminalProgress(const TerminalProgress &) = delete;
    TerminalProgress &operator=(const TerminalProgress &) = delete;

    bool isShown() const { return m_shown; }
    void update(const QString &text);
    void clear();

private:
    QTextStream &m_err;
    bool m_shown;
    QMutex m_mutex;
    QElapsedTimer m_sinceLast;
    qsizetype m_width = 0; ///< of the line on screen, to blank it
};

} // namespace MqttDoctor::Cli
