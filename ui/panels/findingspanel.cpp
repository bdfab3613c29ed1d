#include "findingspanel.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "controllers/accountdatacontroller.h"
#include "diagnosis/findingcatalogue.h"
#include "models/findinglistmodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"
#include "models/errortext.h"

namespace MqttDoctor {

namespace {

QString jsonText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented)).trimmed();
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Indented)).trimmed();
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 15);
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    return QStringLiteral("—");
}

} // namespace

FindingsPanel::FindingsPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_summary(new QLabel(this)), m_notice(new NoticeLabel(this)),
      m_progress(new LoadProgressWidget(this)), m_model(new FindingListModel(this)), m_table(new QTableView(this)),
      m_details(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("findingsPanel"));
    m_summary->setObjectName(QStringLiteral("findingsSummary"));
    m_notice->setObjectName(QStringLiteral("findingsNotice"));
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);

    m_table->setObjectName(QStringLiteral("findingsTable"));
    m_table->setModel(m_model);
    // The findings come most severe first (Checks::diagnose's order), which is what sorting by severity,
    // descending, shows: the indicator starts there, and the model sorts (on a worker when there are
    // many) only when another order is picked.
    m_table->horizontalHeader()->setSortIndicator(FindingListModel::SeverityColumn, Qt::DescendingOrder);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(FindingListModel::SeverityColumn, 90);
    m_table->setColumnWidth(FindingListModel::CodeColumn, 210);
    m_table->setColumnWidth(FindingListModel::TitleColumn, 290);
    m_table->setColumnWidth(FindingListModel::WhereColumn, 140);

    m_details->setObjectName(QStringLiteral("findingDetails"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Select a finding to see what it means, the evidence, the server log lines it "
                                     "explains and how to repair it."));

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_notice);
    layout->addWidget(m_progress);
    layout->addWidget(splitter, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FindingsPanel::showSelected);
    connect(&controller, &AccountDataController::findingsLoaded, this, &FindingsPanel::handleLoaded);
    connect(&controller, &AccountDataController::failed, this,
            [this](AccountDataController::Load load, const QString &account, const Error &error) {
                if (load == AccountDataController::Load::Findings)
                    handleFailed(account, error);
            });
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, [this] { m_controller.cancel(AccountDataController::Load::Findings); });
}

FindingsPanel::~FindingsPanel() = default;

void FindingsPanel::setAccount(const QString &account, bool reload)
{
    if (account == m_account && !reload && (m_loaded || m_controller.isLoading(AccountDataController::Load::Findings)))
        return;
    if (account != m_account)
        m_model->clear();
    m_account = account;
    m_loaded = false;
    m_notice->clearNotice();
    m_summary->setText(tr("Checking account %1…").arg(account));
    m_progress->start(tr("Checking %1").arg(account));
    m_controller.loadFindings(account);
}

void FindingsPanel::handleLoaded(const QString &account, const FindingList &findings, const QList<CoverageGap> &gaps)
{
    if (account != m_account)
        return;
    m_progress->finish();
    m_loaded = true;
    m_model->setFindings(findings);
    // Never "no problems" about what could not be looked at: the gaps that may hide problems come first,
    // as a warning; the others (no system connection) as information.
    const bool verdictOpen = CoverageGap::anyLeavesVerdictOpen(gaps);
    m_verdictOpen = verdictOpen;
    if (findings.isEmpty())
        m_summary->setText(verdictOpen ? tr("Account %1: no problems found in what could be checked; not everything could be").arg(account)
                                       : tr("Account %1: no problems found").arg(account));
    else
        m_summary->setText(tr("Account %1: %2").arg(account, m_model->summary()));
    QStringList open;
    QStringList other;
    for (const CoverageGap &g : gaps)
        (g.leavesVerdictOpen() ? open : other) << g.text();
    if (!open.isEmpty())
        m_notice->showNotice(tr("Not checked:\n%1").arg((open + other).join(QLatin1Char('\n'))), NoticeLabel::Kind::Warning);
    else
        m_notice->showNotice(other.join(QLatin1Char('\n')), NoticeLabel::Kind::Info);
    m_table->resizeColumnToContents(FindingListModel::SeverityColumn);
    if (!findings.isEmpty())
        m_table->selectRow(0);
    showSelected();
}

void FindingsPanel::handleFailed(const QString &account, const Error &error)
{
    if (account != m_account)
        return;
    m_progress->finish();
    m_loaded = true;
    m_verdictOpen = true;
    m_summary->setText(tr("Account %1 could not be checked").arg(account));
    m_notice->showNotice(ErrorText::withHint(error), NoticeLabel::Kind::Error);
}

bool FindingsPanel::selectCode(const QString &code)
{
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->index(row, FindingListModel::CodeColumn).data().toString() == code) {
            m_table->selectRow(row);
            return true;
        }
    }
    return false;
}

void FindingsPanel::showSelected()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const std::optional<Finding> finding = rows.isEmpty() ? std::nullopt : m_model->findingAt(rows.first().row());
    m_details->setHtml(finding ? detailsHtml(*finding, m_controller.changesAllowed()) : QString());
}

QString FindingsPanel::detailsHtml(const Finding &f, bool changesAllowed)
{
    const auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    QString html = QStringLiteral("<h3>%1</h3><p><b>%2</b> · %3</p><p>%4</p>")
                       .arg(esc(f.title), esc(f.code), esc(Finding::severityName(f.severity)), esc(f.detail));
    if (!f.expected.isNull() || !f.actual.isNull()) {
        html += QStringLiteral("<h4>%1</h4><table cellspacing=6><tr><th align=left>%2</th><th align=left>%3</th></tr>"
                               "<tr><td valign=top><pre>%4</pre></td><td valign=top><pre>%5</pre></td></tr></table>")
                    .arg(tr("Evidence"), tr("Expected"), tr("Actual"), esc(jsonText(f.expected)), esc(jsonText(f.actual)));
    }
    if (!f.explains.isEmpty()) {
        html += QStringLiteral("<h4>%1</h4><ul>").arg(tr("Server log lines it explains"));
        for (const QString &line : f.explains)
            html += QStringLiteral("<li><code>%1</code></li>").arg(esc(line));
        html += QStringLiteral("</ul>");
    }
    const FindingCatalogue::Entry *entry = FindingCatalogue::entry(f.code);
    html += QStringLiteral("<h4>%1</h4>").arg(tr("Repair"));
    if (!f.repair.isEmpty()) {
        html += QStringLiteral("<p>%1 <code>%2</code></p>").arg(tr("Repair action:"), esc(f.repair));
        if (!changesAllowed)
            html += QStringLiteral("<p><b>%1</b> %2</p>")
                        .arg(esc(tr("Changes are off:")),
                             esc(tr("this connection is read-only. To repair from here, turn on \"Allow changes\" in the "
                                    "connection settings (Connect…); the command-line tool needs --allow-changes.")));
    } else {
        html += QStringLiteral("<p>%1</p>").arg(tr("No automatic repair: what to do instead is below."));
    }
    if (entry && !entry->guidance.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(entry->guidance));
    else if (f.repair.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(f.detail));
    return html;
}

QString FindingsPanel::detailsText() const
{
    return m_details->toPlainText();
}

QString FindingsPanel::summaryText() const
{
    return m_summary->text();
}

QString FindingsPanel::noticeText() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

} // namespace MqttDoctor
