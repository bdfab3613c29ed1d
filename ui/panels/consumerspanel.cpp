#include "consumerspanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

#include "actions/rowactions.h"
#include "controllers/accountdatacontroller.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

ConsumersPanel::ConsumersPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller),
      m_loadState(new PanelLoadState(controller, Load::Consumers, QStringLiteral("consumer"), this)), m_model(new ConsumerTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this))
{
    setObjectName(QStringLiteral("consumersPanel"));
    auto *reload = new QPushButton(tr("Reload"), this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ConsumerTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("consumerTable"));
    m_table->setModel(m_proxy);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSortIndicatorClearable(true);
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[ConsumerTableModel::ColumnCount] = {34, 12, 10, 12, 24};
    for (int column = 0; column < ConsumerTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    // The actions take the sessions that own the selected durables.
    m_rowActions = new RowActions(m_table, QStringLiteral("consumers"),
                                  RowActions::DeleteSessions | RowActions::Disconnect | RowActions::DropBacklog | RowActions::CopyClientId
                                      | RowActions::CopyJson | RowActions::ShowInSessions,
                                  [this](RowSelection::Detail detail) {
                                      const QList<int> rows =
                                          RowSelection::sourceRows(m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_model);
                                      return RowSelection::ofConsumers(*m_model, rows, m_loadState->account(), detail);
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

    connect(reload, &QPushButton::clicked, this, [this] {
        m_controller.refresh(m_loadState->account()); // a new snapshot of the account, for every view of it
        this->reload();
    });
    connect(&controller, &AccountDataController::consumersLoaded, this, &ConsumersPanel::handleLoaded);
    connect(this, &ConsumersPanel::loadFinished, this, [this] {
        if (!m_reveal.isEmpty())
            revealOwner(std::exchange(m_reveal, QString()));
    });
    connect(m_loadState, &PanelLoadState::loadFailed, this, &ConsumersPanel::handleFailed);
}

ConsumersPanel::~ConsumersPanel() = default;

void ConsumersPanel::setAccount(const QString &account)
{
    if (m_loadState->setAccount(account)) {
        m_model->clear();
        m_reveal.clear();
    }
}

void ConsumersPanel::ensureLoaded()
{
    if (m_loadState->needsLoad())
        reload();
}

void ConsumersPanel::reload()
{
    const bool quiet = m_model->rowCount() > 0; // the rows stay until the new list arrives
    m_loadState->begin(quiet ? tr("Refreshing consumers and their sessions") : tr("Loading consumers and their sessions"));
    if (quiet)
        m_loadState->status()->setText(tr("Refreshing… %1 consumers shown until done").arg(QLocale().toString(m_model->rowCount())));
    m_controller.loadConsumers(m_loadState->account());
}

void ConsumersPanel::handleLoaded(const QString &account, const QList<ConsumerRow> &rows)
{
    if (!m_loadState->accepts(account))
        return;
    m_loadState->finish();
    // The selection and scroll position as they are now (the person may have moved on meanwhile).
    const auto [stream, name] = selectedConsumer();
    const int scroll = m_table->verticalScrollBar()->value();
    m_model->setConsumers(rows);
    if (!name.isEmpty())
        selectConsumer(stream, name);
    m_table->verticalScrollBar()->setValue(scroll);
    const QLocale locale;
    m_loadState->status()->setText(
        rows.isEmpty()
            ? tr("No consumers on $MQTT_msgs or $MQTT_out")
            : tr("%1 consumers, %2 orphaned").arg(locale.toString(rows.size()), locale.toString(qint64(m_model->orphanCount()))));
    emit loadFinished();
}

void ConsumersPanel::handleFailed(const Error &error)
{
    m_loadState->fail(tr("The consumers of %1 could not be read: %2%3"), error);
    emit loadFinished();
}

bool ConsumersPanel::selectConsumer(const QString &stream, const QString &name)
{
    const int row = m_model->rowOf(stream, name);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

int ConsumersPanel::revealOwner(const QString &clientId)
{
    if (isLoading() || !isLoaded()) {
        m_reveal = clientId; // when the list is in
        return 0;
    }
    QItemSelection rows;
    QModelIndex first;
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QModelIndex index = m_proxy->index(row, 0);
        const int source = m_proxy->mapToSource(index).row();
        if (m_model->consumers().at(source).ownerClientId != clientId)
            continue;
        rows.select(index, index.siblingAtColumn(ConsumerTableModel::ColumnCount - 1));
        if (!first.isValid())
            first = index;
    }
    if (!first.isValid()) {
        m_loadState->notice()->showNotice(tr("No durable of client ID \"%1\" in account %2.").arg(clientId, m_loadState->account()),
                                          NoticeLabel::Kind::Info);
        return 0;
    }
    m_table->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    m_table->selectionModel()->select(rows, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(first);
    m_table->setFocus();
    return int(m_table->selectionModel()->selectedRows().size());
}

std::pair<QString, QString> ConsumersPanel::selectedConsumer() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid())
        return {};
    return {current.data(ConsumerTableModel::StreamRole).toString(), current.data(ConsumerTableModel::NameRole).toString()};
}

} // namespace MqttDoctor
