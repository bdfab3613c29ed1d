#include "inflightpanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "controllers/accountdatacontroller.h"
#include "models/inflighttablemodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

InflightPanel::InflightPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller),
      m_loadState(new PanelLoadState(controller, Load::AccountInflight, QStringLiteral("inflight"), this)),
      m_model(new InflightTableModel(this)), m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("inflightPanel"));
    auto *reload = new QPushButton(tr("Reload"), this);
    m_table->setObjectName(QStringLiteral("inflightTable"));
    m_table->setModel(m_model);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[InflightTableModel::ColumnCount] = {21, 7, 27, 20, 22, 8, 30};
    for (int column = 0; column < InflightTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    m_rowActions =
        new RowActions(m_table, QStringLiteral("inflight"),
                       RowActions::DropBacklog | RowActions::DeleteSessions | RowActions::Disconnect | RowActions::CopyClientId
                           | RowActions::CopyJson | RowActions::BackUp | RowActions::ShowInSessions | RowActions::ShowInConsumers,
                       [this](RowSelection::Detail detail) {
                           return RowSelection::ofInflight(*m_model, RowSelection::selectedRows(m_table->selectionModel()),
                                                           m_loadState->account(), detail);
                       });

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_loadState->status(), 1);
    tools->addWidget(m_rowActions->makeToolButton(this));
    tools->addWidget(reload);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_loadState->notice());
    layout->addWidget(m_loadState->progress());
    layout->addWidget(m_table, 1);

    connect(reload, &QPushButton::clicked, this, &InflightPanel::reload);
    connect(&controller, &AccountDataController::accountInflightLoaded, this, &InflightPanel::handleLoaded);
    connect(m_loadState, &PanelLoadState::loadFailed, this, &InflightPanel::handleFailed);
}

InflightPanel::~InflightPanel() = default;

void InflightPanel::setAccount(const QString &account)
{
    if (m_loadState->setAccount(account))
        m_model->clear();
}

void InflightPanel::ensureLoaded()
{
    if (m_loadState->needsLoad())
        reload();
}

void InflightPanel::reload()
{
    m_loadState->begin(tr("Reading what is in flight (message gets, no consumer)"));
    m_controller.loadAccountInflight(m_loadState->account());
}

void InflightPanel::handleLoaded(const QString &account, const AccountInflight &inflight)
{
    if (!m_loadState->accepts(account))
        return;
    m_loadState->finish();
    m_model->setInflight(inflight);
    const QLocale locale;
    QString status = inflight.sessions.isEmpty()
        ? tr("No session has messages in flight")
        : tr("%1 sessions with messages in flight, oldest first").arg(locale.toString(inflight.sessions.size()));
    if (!inflight.orphans.isEmpty())
        status += inflight.orphans.size() == 1
            ? tr("; 1 gone session left QoS 2 records behind (QOS2_ORPHANED)")
            : tr("; %1 gone sessions left QoS 2 records behind (QOS2_ORPHANED)").arg(locale.toString(inflight.orphans.size()));
    m_loadState->status()->setText(status);
    if (!inflight.notes.isEmpty())
        m_loadState->notice()->showNotice(inflight.notes.join(QLatin1Char('\n')), NoticeLabel::Kind::Info);
    emit loadFinished();
}

void InflightPanel::handleFailed(const Error &error)
{
    m_loadState->fail(tr("What is in flight in %1 could not be read: %2%3"), error);
    emit loadFinished();
}

} // namespace MqttDoctor
