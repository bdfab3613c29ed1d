#include "inflightpanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "controllers/accountdatacontroller.h"
#include "models/inflighttablemodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"
#include "models/errortext.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

InflightPanel::InflightPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_status(new QLabel(this)), m_notice(new NoticeLabel(this)),
      m_progress(new LoadProgressWidget(this)), m_model(new InflightTableModel(this)), m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("inflightPanel"));
    m_status->setObjectName(QStringLiteral("inflightStatus"));
    m_notice->setObjectName(QStringLiteral("inflightNotice"));
    auto *reload = new QPushButton(tr("Reload"), this);
    m_table->setObjectName(QStringLiteral("inflightTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[InflightTableModel::ColumnCount] = {21, 7, 27, 20, 22, 8, 30};
    for (int column = 0; column < InflightTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_status, 1);
    tools->addWidget(reload);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_notice);
    layout->addWidget(m_progress);
    layout->addWidget(m_table, 1);

    connect(reload, &QPushButton::clicked, this, &InflightPanel::reload);
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, [this] { m_controller.cancel(Load::AccountInflight); });
    connect(&controller, &AccountDataController::accountInflightLoaded, this, &InflightPanel::handleLoaded);
    connect(&controller, &AccountDataController::failed, this, [this](Load load, const QString &account, const Error &error) {
        if (load == Load::AccountInflight)
            handleFailed(account, error);
    });
    m_status->setText(tr("Not loaded yet"));
}

InflightPanel::~InflightPanel() = default;

void InflightPanel::setAccount(const QString &account)
{
    if (account == m_account && (m_loaded || m_loading))
        return;
    if (m_loading)
        m_controller.cancel(Load::AccountInflight);
    m_account = account;
    m_loading = m_loaded = false;
    m_model->clear();
    m_progress->finish();
    m_notice->clearNotice();
    m_status->setText(tr("Not loaded yet"));
}

void InflightPanel::ensureLoaded()
{
    if (!m_loaded && !m_loading)
        reload();
}

void InflightPanel::reload()
{
    m_notice->clearNotice();
    m_loading = true;
    m_loaded = false;
    m_progress->start(tr("Reading what is in flight (message gets, no consumer)"));
    m_status->setText(tr("Loading…"));
    m_controller.loadAccountInflight(m_account);
}

void InflightPanel::handleLoaded(const QString &account, const AccountInflight &inflight)
{
    if (account != m_account || !m_loading)
        return;
    m_loading = false;
    m_loaded = true;
    m_progress->finish();
    m_model->setInflight(inflight);
    const QLocale locale;
    QString status = inflight.sessions.isEmpty() ? tr("No session has messages in flight")
                                                 : tr("%1 sessions with messages in flight, oldest first").arg(locale.toString(inflight.sessions.size()));
    if (!inflight.orphans.isEmpty())
        status += inflight.orphans.size() == 1 ? tr("; 1 gone session left QoS 2 records behind (QOS2_ORPHANED)")
                                               : tr("; %1 gone sessions left QoS 2 records behind (QOS2_ORPHANED)").arg(locale.toString(inflight.orphans.size()));
    m_status->setText(status);
    if (!inflight.notes.isEmpty())
        m_notice->showNotice(inflight.notes.join(QLatin1Char('\n')), NoticeLabel::Kind::Info);
    emit loadFinished();
}

void InflightPanel::handleFailed(const QString &account, const Error &error)
{
    if (account != m_account || !m_loading)
        return;
    m_loading = false;
    m_loaded = true;
    m_progress->finish();
    m_status->setText(tr("Not loaded"));
    m_notice->showNotice(tr("What is in flight in %1 could not be read: %2%3")
                             .arg(account.isEmpty() ? tr("this account") : account, error.message(),
                                  ErrorText::hintSuffix(error)),
                         NoticeLabel::Kind::Error);
    emit loadFinished();
}

QString InflightPanel::statusText() const
{
    return m_status->text();
}

QString InflightPanel::noticeText() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

} // namespace MqttDoctor
