#include "logexplainerdialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "diagnosis/logcatalogue.h"
#include "models/iconfactory.h"

namespace MqttDoctor {

namespace {

constexpr int kMatchIndexRole = Qt::UserRole + 1;

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

/** The icon also when the row is selected (the style would tint a painted icon into a blot). */
QIcon keepWhenSelected(const QIcon &icon)
{
    QIcon out = icon;
    out.addPixmap(icon.pixmap(16, 16), QIcon::Selected);
    return out;
}

QIcon iconFor(const LogLineMatch &m, const QStyle *style)
{
    if (!m.matched)
        return style->standardIcon(QStyle::SP_MessageBoxQuestion);
    if (m.severity == QLatin1String("critical") || m.severity == QLatin1String("error"))
        return IconFactory::icon(IconFactory::Kind::Error);
    if (m.severity == QLatin1String("warning"))
        return IconFactory::icon(IconFactory::Kind::Warning);
    return style->standardIcon(QStyle::SP_MessageBoxInformation);
}

QString detailsHtml(const LogLineMatch &m)
{
    const QString line = QStringLiteral("<pre style=\"white-space: pre-wrap;\">%1</pre>").arg(esc(m.line));
    if (!m.matched)
        return line
            + QStringLiteral("<p>%1</p>")
                  .arg(esc(
                      LogExplainerDialog::tr("No template of the catalogue matches this line. Only nats-server's MQTT and JetStream setup, "
                                             "session and retained-message lines are explained; nothing is guessed.")));
    QString rows;
    const auto row = [&rows](const QString &label, const QString &value) {
        if (!value.isEmpty())
            rows += QStringLiteral("<tr><td style=\"padding-right:10px; color:#555;\"><nobr>%1</nobr></td><td>%2</td></tr>")
                        .arg(esc(label), value);
    };
    row(LogExplainerDialog::tr("Template"),
        QStringLiteral("<code>%1</code><br/><span style=\"color:#555;\">%2 · %3</span>")
            .arg(esc(m.templateText), esc(m.templateId), esc(m.versions.join(QStringLiteral(", ")))));
    QString severity = esc(m.severity);
    if (m.connectRefused)
        severity += esc(LogExplainerDialog::tr(": the MQTT CONNECT failed, the client got no CONNACK"));
    row(LogExplainerDialog::tr("Severity"), severity);
    row(LogExplainerDialog::tr("Account"), esc(m.account));
    row(LogExplainerDialog::tr("Client ID"), esc(m.clientId));
    row(LogExplainerDialog::tr("Stream"), esc(m.stream));
    row(LogExplainerDialog::tr("Subject"), esc(m.subject));
    if (m.sequence > 0)
        row(LogExplainerDialog::tr("Sequence"), QString::number(m.sequence));
    QString error = esc(m.errorText);
    if (m.errorCode > 0)
        error += QStringLiteral(" &nbsp;<b>[%1]</b>").arg(esc(LogExplainerDialog::tr("JetStream error %1").arg(m.errorCode)));
    row(LogExplainerDialog::tr("Error"), error);
    row(LogExplainerDialog::tr("Findings"),
        m.codes.isEmpty() ? esc(LogExplainerDialog::tr("none (no finding of the catalogue applies)"))
                          : QStringLiteral("<b>%1</b>").arg(esc(m.codes.join(QStringLiteral(", ")))));
    row(LogExplainerDialog::tr("Meaning"), esc(m.meaning));
    row(LogExplainerDialog::tr("What to do"), esc(m.advice));
    return line + QStringLiteral("<table>%1</table>").arg(rows);
}

} // namespace

LogExplainerDialog::LogExplainerDialog(QWidget *parent)
    : QDialog(parent), m_input(new QPlainTextEdit(this)), m_summary(new QLabel(this)), m_list(new QTreeWidget(this)),
      m_details(new QTextBrowser(this)), m_goToAccount(new QPushButton(tr("&Go to Account"), this)), m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("logExplainerDialog"));
    setWindowTitle(tr("Explain Log Lines"));
    setWindowIcon(IconFactory::appIcon());

    auto *intro = new QLabel(tr("Paste nats-server log lines (for example the output of "
                                "<code>grep -E '\\[(ERR|WRN)\\]' nats-server.log</code>). Each line is matched against "
                                "the server's MQTT and JetStream messages of every version."),
                             this);
    intro->setWordWrap(true);
    m_input->setObjectName(QStringLiteral("logInput"));
    m_input->setPlaceholderText(tr("[1234] 2024/05/01 10:00:00.000000 [ERR] 127.0.0.1:51234 - mid:7 - \"sensor-1\" - "
                                   "unable to connect: …"));
    m_input->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_input->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_summary->setObjectName(QStringLiteral("explainSummary"));

    m_list->setObjectName(QStringLiteral("matchList"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setHeaderLabels({tr("Line"), tr("Template"), tr("Account"), tr("Client ID"), tr("Error"), tr("Findings")});
    m_list->header()->setStretchLastSection(true);
    m_details->setObjectName(QStringLiteral("matchDetails"));
    m_details->setOpenLinks(false);
    m_goToAccount->setObjectName(QStringLiteral("goToAccountButton"));
    m_goToAccount->setEnabled(false);

    auto *results = new QSplitter(Qt::Horizontal, this);
    results->addWidget(m_list);
    results->addWidget(m_details);
    results->setStretchFactor(0, 2);
    results->setStretchFactor(1, 3);
    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(m_input);
    vertical->addWidget(results);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 3);
    vertical->setSizes({130, 430});
    results->setSizes({470, 510});

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_goToAccount, QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(vertical, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(250);
    connect(m_input, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &LogExplainerDialog::explain);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &LogExplainerDialog::showSelected);
    connect(m_goToAccount, &QPushButton::clicked, this, [this] {
        if (const LogLineMatch *m = selectedMatch(); m && !m->account.isEmpty())
            emit accountRequested(m->account, m->codes);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(1000, 640);
    explain();
}

LogExplainerDialog::~LogExplainerDialog() = default;

void LogExplainerDialog::setLogText(const QString &text)
{
    m_input->setPlainText(text);
    explain();
}

QString LogExplainerDialog::logText() const
{
    return m_input->toPlainText();
}

void LogExplainerDialog::explain()
{
    m_debounce->stop();
    QStringList lines;
    QList<int> numbers;
    const QStringList all = m_input->toPlainText().split(u'\n');
    bool truncated = false;
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (all.at(i).trimmed().isEmpty())
            continue;
        if (lines.size() == kMaxLines) {
            truncated = true;
            break;
        }
        lines << all.at(i);
        numbers << int(i + 1);
    }
    m_matches = LogCatalogue::explainAll(lines);

    m_list->clear();
    qsizetype matched = 0;
    for (qsizetype i = 0; i < m_matches.size(); ++i) {
        const LogLineMatch &m = m_matches.at(i);
        matched += m.matched ? 1 : 0;
        auto *item = new QTreeWidgetItem(m_list);
        item->setData(LineColumn, kMatchIndexRole, int(i));
        item->setText(LineColumn, QString::number(numbers.value(int(i))));
        item->setIcon(LineColumn, keepWhenSelected(iconFor(m, style())));
        item->setText(TemplateColumn, m.matched ? m.templateId : tr("not recognised"));
        item->setToolTip(TemplateColumn, m.matched ? m.templateText : m.line);
        item->setText(AccountColumn, m.account);
        item->setText(ClientIdColumn, m.clientId);
        item->setText(ErrorCodeColumn, m.errorCode > 0 ? QString::number(m.errorCode) : QString());
        item->setText(FindingsColumn, m.codes.join(QStringLiteral(", ")));
    }
    for (int c = LineColumn; c < FindingsColumn; ++c)
        m_list->resizeColumnToContents(c);

    if (m_matches.isEmpty())
        m_summary->setText(tr("Paste log lines above."));
    else
        m_summary->setText(
            tr("%n line(s): %1 matched, %2 not recognised.", nullptr, int(m_matches.size())).arg(matched).arg(m_matches.size() - matched)
            + (truncated ? u' ' + tr("Only the first %1 lines were read.").arg(kMaxLines) : QString()));
    // Show the first recognised line: it is what the operator pasted the log for.
    int first = -1;
    for (qsizetype i = 0; i < m_matches.size() && first < 0; ++i)
        if (m_matches.at(i).matched)
            first = int(i);
    selectMatch(first >= 0 ? first : 0);
    showSelected();
}

void LogExplainerDialog::selectMatch(int index)
{
    m_list->setCurrentItem(index >= 0 && index < m_list->topLevelItemCount() ? m_list->topLevelItem(index) : nullptr);
}

const LogLineMatch *LogExplainerDialog::selectedMatch() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!item)
        return nullptr;
    const int index = item->data(LineColumn, kMatchIndexRole).toInt();
    return index >= 0 && index < m_matches.size() ? &m_matches.at(index) : nullptr;
}

void LogExplainerDialog::showSelected()
{
    const LogLineMatch *m = selectedMatch();
    m_details->setHtml(m ? detailsHtml(*m) : QString());
    m_goToAccount->setEnabled(m && !m->account.isEmpty());
    m_goToAccount->setToolTip(m && !m->account.isEmpty() ? tr("Show account %1 in the main window").arg(m->account)
                                                         : tr("The selected line names no account"));
}

} // namespace MqttDoctor
