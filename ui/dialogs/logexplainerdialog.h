#pragma once

#include <QDialog>
#include <QList>

#include "diagnosis/loglinematch.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTextBrowser;
class QTimer;
class QTreeWidget;

namespace MqttDoctor {

/**
 * Paste nats-server log lines, see what each means (LogCatalogue::explain, as the CLI's `explain`):
 * the template, the account, client ID, stream, JetStream error code, the related finding codes and
 * what to do. "Go to Account" asks the main window to show the account of the selected line.
 *
 * The catalogue is pure and fast, so matching runs on the GUI thread, at most kMaxLines lines (the
 * CLI's limit) shortly after the text stops changing. GUI thread.
 */
class LogExplainerDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogExplainerDialog)

public:
    enum Column { LineColumn, TemplateColumn, AccountColumn, ClientIdColumn, ErrorCodeColumn, FindingsColumn };
    static constexpr qsizetype kMaxLines = 10000;

    explicit LogExplainerDialog(QWidget *parent = nullptr);
    ~LogExplainerDialog() override;

    /** Replaces the pasted text and explains it at once. */
    void setLogText(const QString &text);
    QString logText() const;
    /** The matches of the non-blank lines, in order (unmatched ones included). */
    QList<LogLineMatch> matches() const { return m_matches; }
    /** Selects the row of matches()[index]. */
    void selectMatch(int index);
    /** The selected line's match, or nullptr. */
    const LogLineMatch *selectedMatch() const;

    /** Explains the current text now (also runs by itself after typing or pasting). */
    void explain();

Q_SIGNALS:
    /** "Go to Account": show this account (and these findings) in the main window. */
    void accountRequested(const QString &account, const QStringList &findingCodes);

private:
    void showSelected();

    QPlainTextEdit *m_input;
    QLabel *m_summary;
    QTreeWidget *m_list;
    QTextBrowser *m_details;
    QPushButton *m_goToAccount;
    QTimer *m_debounce;
    QList<LogLineMatch> m_matches;
};

} // namespace MqttDoctor
