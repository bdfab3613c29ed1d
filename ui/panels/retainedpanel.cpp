#include "retainedpanel.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "actions/rowactions.h"
#include "controllers/accountdatacontroller.h"
#include "models/retainedtablemodel.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;
using Mode = RetainedTableModel::PayloadMode;

RetainedPanel::RetainedPanel(AccountDataController &controller, QWidget *parent)
    : QWidget(parent), m_controller(controller), m_filter(new QLineEdit(this)), m_mode(new QComboBox(this)),
      m_loadState(new PanelLoadState(controller, Load::Retained, QStringLiteral("retained"), this)), m_model(new RetainedTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)), m_table(new QTableView(this)), m_payload(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("retainedPanel"));
    m_filter->setObjectName(QStringLiteral("retainedFilter"));
    m_filter->setPlaceholderText(tr("Filter by topic"));
    m_filter->setClearButtonEnabled(true);
    m_mode->setObjectName(QStringLiteral("payloadMode"));
    m_mode->addItem(tr("Text"), QVariant::fromValue(Mode::Text));
    m_mode->addItem(tr("Hex"), QVariant::fromValue(Mode::Hex));
    m_mode->addItem(tr("JSON"), QVariant::fromValue(Mode::Json));
    auto *reload = new QPushButton(tr("Reload"), this);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RetainedTableModel::SortRole);
    m_proxy->setFilterKeyColumn(RetainedTableModel::TopicColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setObjectName(QStringLiteral("retainedTable"));
    m_table->setModel(m_proxy);
    m_table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_table->horizontalHeader()->setSortIndicatorClearable(true);
    m_table->setSortingEnabled(true);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int charWidth = m_table->fontMetrics().averageCharWidth();
    const int widths[RetainedTableModel::ColumnCount] = {34, 5, 10, 50, 16};
    for (int column = 0; column < RetainedTableModel::ColumnCount; ++column)
        m_table->setColumnWidth(column, widths[column] * charWidth + 16);

    m_payload->setObjectName(QStringLiteral("retainedPayload"));
    m_payload->setReadOnly(true);
    m_payload->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_payload->setPlaceholderText(tr("Select a retained message to see its whole payload."));

    m_rowActions = new RowActions(
        m_table, QStringLiteral("retained"),
        RowActions::ClearRetained | RowActions::ClearRetainedMatching | RowActions::CopyTopic | RowActions::CopyPayload
            | RowActions::CopyJson | RowActions::BackUp,
        [this](RowSelection::Detail detail) {
            const QList<int> rows = RowSelection::sourceRows(m_proxy, RowSelection::selectedRows(m_table->selectionModel()), m_model);
            return RowSelection::ofRetained(*m_model, rows, m_loadState->account(), detail);
        },
        RowActions::ClearRetained);

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_filter, 1);
    tools->addWidget(new QLabel(tr("Payload as:"), this));
    tools->addWidget(m_mode);
    tools->addWidget(m_rowActions->makeToolButton(this));
    tools->addWidget(reload);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_payload);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(tools);
    layout->addWidget(m_loadState->status());
    layout->addWidget(m_loadState->notice());
    layout->addWidget(m_loadState->progress());
    layout->addWidget(splitter, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_proxy->setFilterFixedString(text.trimmed());
        updateStatus();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        m_model->setPayloadMode(m_mode->currentData().value<Mode>());
        showSelected();
    });
    connect(reload, &QPushButton::clicked, this, &RetainedPanel::reload);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &RetainedPanel::showSelected);
    connect(&controller, &AccountDataController::retainedBatch, this,
            [this](const QString &account, const QList<RetainedEntry> &batch, quint64 done, quint64 total) {
                if (!m_loadState->accepts(account))
                    return;
                if (m_quiet) {
                    m_pending.append(batch);
                } else {
                    QList<RetainedEntry> rows = batch;
                    m_model->appendBatch(std::move(rows));
                }
                m_loadState->progress()->setProgress(done, total);
                updateStatus();
            });
    connect(&controller, &AccountDataController::retainedFinished, this, &RetainedPanel::handleFinished);
    connect(m_loadState, &PanelLoadState::loadFailed, this, &RetainedPanel::handleFailed);
    updateStatus();
}

RetainedPanel::~RetainedPanel() = default;

void RetainedPanel::setAccount(const QString &account)
{
    if (!m_loadState->setAccount(account))
        return;
    m_quiet = false;
    m_pending.clear();
    m_model->clear();
    m_payload->clear();
    updateStatus();
}

void RetainedPanel::ensureLoaded()
{
    if (m_loadState->needsLoad())
        reload();
}

void RetainedPanel::reload()
{
    m_quiet = m_model->rowCount() > 0;
    m_pending.clear();
    if (!m_quiet) {
        m_model->clear();
        m_payload->clear();
    }
    m_loadState->begin(m_quiet ? tr("Refreshing retained messages") : tr("Loading retained messages"));
    m_controller.loadRetained(m_loadState->account());
    updateStatus();
}

void RetainedPanel::handleFinished(const QString &account, bool cancelled, const QString &note)
{
    if (!m_loadState->accepts(account))
        return;
    if (m_quiet && !cancelled) // a canceled refresh keeps the rows it had
        applyRefresh();
    dropPending();
    m_loadState->finish();
    m_loadState->notice()->showNotice(note, NoticeLabel::Kind::Info);
    updateStatus();
    emit loadFinished();
}

void RetainedPanel::applyRefresh()
{
    const QString topic = selectedTopic();
    const int scroll = m_table->verticalScrollBar()->value();
    m_model->replaceAll(std::exchange(m_pending, {}));
    if (!topic.isEmpty() && !selectTopic(topic))
        m_payload->clear(); // the message is gone (or filtered out)
    m_table->verticalScrollBar()->setValue(scroll);
}

void RetainedPanel::dropPending()
{
    m_quiet = false;
    m_pending.clear();
}

void RetainedPanel::handleFailed(const Error &error)
{
    dropPending(); // a failed refresh keeps the rows it had
    m_loadState->fail(tr("The retained messages of %1 could not be read: %2%3"), error);
    updateStatus();
    emit loadFinished();
}

bool RetainedPanel::selectTopic(const QString &topic)
{
    const int row = m_model->rowOf(topic);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

QString RetainedPanel::selectedTopic() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.data(RetainedTableModel::TopicRole).toString() : QString();
}

void RetainedPanel::showSelected()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const RetainedEntry *entry = current.isValid() ? m_model->entryAt(m_proxy->mapToSource(current).row()) : nullptr;
    if (!entry) {
        m_payload->clear();
        return;
    }
    if (!entry->record) {
        m_payload->setPlainText(entry->problem);
        return;
    }
    const RetainedRecord &r = *entry->record;
    m_payload->setPlainText(tr("%1 · QoS %2 · %3 bytes · %4 encoding · seq %5\n\n%6")
                                .arg(r.topic)
                                .arg(r.qos())
                                .arg(r.payload.size())
                                .arg(r.encodingName())
                                .arg(entry->seq)
                                .arg(RetainedTableModel::formatPayload(r.payload, m_model->payloadMode(), 0, true)));
}

void RetainedPanel::updateStatus()
{
    const QLocale locale;
    const int total = m_model->rowCount();
    QString text = isLoading() && m_quiet
        ? tr("Refreshing… %1 retained messages read, %2 shown until done").arg(locale.toString(m_pending.size()), locale.toString(total))
        : isLoading() ? tr("Loading… %1 retained messages so far").arg(locale.toString(total))
        : !isLoaded() ? tr("Not loaded yet")
        : total == 0  ? tr("No retained messages")
                      : tr("%1 retained messages").arg(locale.toString(total));
    if (m_proxy->rowCount() != total)
        text += tr(" · %1 shown").arg(locale.toString(m_proxy->rowCount()));
    m_loadState->status()->setText(text);
}

QString RetainedPanel::payloadText() const
{
    return m_payload->toPlainText();
}

} // namespace MqttDoctor
