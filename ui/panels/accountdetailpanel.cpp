#include "accountdetailpanel.h"

#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include "models/displayformat.h"
#include "models/streamtablemodel.h"
#include "nats/clusterjson.h"

namespace MqttDoctor {

namespace {

QLabel *valueLabel(QWidget *parent, const char *objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QString::fromLatin1(objectName));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

} // namespace

AccountDetailPanel::AccountDetailPanel(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_jetstream(valueLabel(this, "accountJetStream")),
      m_usage(valueLabel(this, "accountUsage")), m_limits(valueLabel(this, "accountLimits")), m_streams(valueLabel(this, "accountStreams")),
      m_source(valueLabel(this, "accountSource")), m_place(valueLabel(this, "accountMqttState")), m_notice(new QLabel(this)),
      m_tableTitle(new QLabel(tr("MQTT streams"), this)), m_model(new StreamTableModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_table(new QTableView(this)), m_jsonTitle(new QLabel(this)), m_json(new QPlainTextEdit(this)),
      m_splitter(new QSplitter(Qt::Vertical, this))
{
    setObjectName(QStringLiteral("accountDetailPanel"));
    m_title->setObjectName(QStringLiteral("accountTitle"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    QFont bold = m_tableTitle->font();
    bold.setBold(true);
    m_tableTitle->setFont(bold);

    m_notice->setObjectName(QStringLiteral("accountNotice"));
    m_notice->setWordWrap(true);
    m_notice->setFrameShape(QFrame::StyledPanel);
    m_notice->setMargin(8);
    m_notice->setAutoFillBackground(true);
    QPalette pal = m_notice->palette();
    pal.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xe0));
    pal.setColor(QPalette::WindowText, QColor(0x5a, 0x3d, 0x00));
    m_notice->setPalette(pal);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StreamTableModel::SortRole);
    m_table->setObjectName(QStringLiteral("streamTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(StreamTableModel::NameColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Widths are fitted by fitColumns(): ResizeToContents would reserve sort-arrow room in every
    // header, which pushes the last columns out of sight.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);

    m_json->setObjectName(QStringLiteral("streamJson"));
    m_json->setReadOnly(true);
    m_json->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setPlaceholderText(tr("Select a stream to see its configuration, state and consumers as the server reports them."));
    m_jsonTitle->setFont(bold);

    auto *jsonPane = new QWidget(this);
    auto *jsonLayout = new QVBoxLayout(jsonPane);
    jsonLayout->setContentsMargins(0, 4, 0, 0);
    jsonLayout->addWidget(m_jsonTitle);
    jsonLayout->addWidget(m_json);
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_tableTitle);
    tableLayout->addWidget(m_table);
    m_splitter->addWidget(tablePane);
    m_splitter->addWidget(jsonPane);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 3);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &AccountDetailPanel::showSelectedStream);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &AccountDetailPanel::showSelectedStream);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AccountDetailPanel::showSelectedStream);
    connect(m_model, &QAbstractItemModel::modelReset, this, &AccountDetailPanel::fitColumns);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &AccountDetailPanel::fitColumns);
    connect(m_table->horizontalHeader(), &QHeaderView::sortIndicatorChanged, this, &AccountDetailPanel::fitColumns);

    auto *form = new QFormLayout;
    form->setLabelAlignment(Qt::AlignLeft);
    form->addRow(tr("JetStream:"), m_jetstream);
    form->addRow(tr("Usage:"), m_usage);
    form->addRow(tr("Limits:"), m_limits);
    form->addRow(tr("Streams:"), m_streams);
    form->addRow(tr("Read from:"), m_source);
    form->addRow(tr("MQTT state in:"), m_place);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(form);
    layout->addWidget(m_notice);
    layout->addSpacing(6);
    layout->addWidget(m_splitter, 1);
}

AccountDetailPanel::~AccountDetailPanel() = default;

void AccountDetailPanel::setAccount(const AccountInfo &account)
{
    // A refresh of the same account keeps the selected stream.
    QString keep;
    if (account.name == m_account.name && m_table->selectionModel()->hasSelection()) {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        if (const StreamInfo *s = rows.isEmpty() ? nullptr : m_model->streamAt(m_proxy->mapToSource(rows.first()).row()))
            keep = s->name;
    }
    m_account = account;
    const QString name = account.name.isEmpty() ? tr("(connected user's account)") : account.name;
    m_title->setText(account.isSystem ? tr("Account %1 (system account)").arg(name) : tr("Account %1").arg(name));
    m_jetstream->setText(DisplayFormat::jetStreamState(account));

    const bool js = account.jetstream;
    m_usage->setText(js ? tr("file storage %1, memory %2").arg(DisplayFormat::bytes(account.storage), DisplayFormat::bytes(account.memory))
                        : QStringLiteral("—"));
    m_limits->setText(limitsText());

    const QList<StreamInfo> mqtt = account.mqttStreams();
    qsizetype legacy = 0;
    for (const StreamInfo &s : mqtt)
        legacy += s.isLegacySession() ? 1 : 0;
    if (!js)
        m_streams->setText(QStringLiteral("—"));
    else if (!account.streamsKnown)
        m_streams->setText(tr("not known"));
    else
        m_streams->setText(tr("%1 in all, %2; %3 consumers")
                               .arg(DisplayFormat::count(account.streamCount), DisplayFormat::mqttStreamCount(mqtt.size()),
                                    DisplayFormat::count(account.consumerCount)));
    if (account.source == QLatin1String("jsz"))
        m_source->setText(tr("the system account's view (JSZ)"));
    else if (account.source == QLatin1String("api"))
        m_source->setText(tr("the account's own JetStream API"));
    else if (account.source == QLatin1String("accountz"))
        m_source->setText(tr("the server's account list (ACCOUNTZ)"));
    else
        m_source->setText(account.source.isEmpty() ? QStringLiteral("—") : account.source);

    const QString place = DisplayFormat::mqttStatePlace(account);
    m_place->setText(place.isEmpty() ? QStringLiteral("—") : place);

    QString notice;
    if (account.jetstreamKnown && !js) {
        notice = tr("JetStream is disabled for this account, so its MQTT clients cannot connect: nats-server keeps MQTT "
                    "sessions, retained messages and QoS state in JetStream. Enable JetStream in the account's "
                    "configuration (jetstream: enabled) and reload the server.");
    } else if (!account.jetstreamKnown) {
        notice = tr("Whether JetStream is enabled could not be read. Connect with a system user or the account's own "
                    "credentials to see it.");
    } else if (account.streamsKnown && mqtt.isEmpty()) {
        notice = tr("No MQTT streams yet: nats-server creates them when the first MQTT client of this account connects.");
    } else if (legacy > 0) {
        notice = tr("%1 legacy per-session stream(s) ($MQTT_sess_*) from an older nats-server. Current servers keep "
                    "every session in $MQTT_sess.")
                     .arg(legacy);
    }
    m_notice->setText(notice);
    m_notice->setVisible(!notice.isEmpty());

    const bool showTable = js && !mqtt.isEmpty();
    m_splitter->setVisible(showTable);
    m_model->setStreams(mqtt);
    if (!keep.isEmpty())
        selectStream(keep);
    fitColumns();
    fitTableHeight();
    showSelectedStream();
}

void AccountDetailPanel::selectStream(const QString &name)
{
    const int row = m_model->rowOf(name);
    if (row < 0) {
        m_table->clearSelection();
        return;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void AccountDetailPanel::showSelectedStream()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    const StreamInfo *stream = rows.isEmpty() ? nullptr : m_model->streamAt(m_proxy->mapToSource(rows.first()).row());
    if (!stream) {
        m_jsonTitle->setText(tr("Stream details"));
        m_json->clear();
        return;
    }
    m_jsonTitle->setText(stream->source == QLatin1String("jsz") ? tr("%1 as the system view (JSZ) reports it").arg(stream->name)
                                                                : tr("%1 as the server reports it").arg(stream->name));
    const QString json = QString::fromUtf8(QJsonDocument(ClusterJson::stream(*stream)).toJson(QJsonDocument::Indented));
    if (json != m_json->toPlainText())
        m_json->setPlainText(json);
}

void AccountDetailPanel::fitColumns()
{
    QHeaderView *header = m_table->horizontalHeader();
    const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    QFont headerFont = header->font();
    headerFont.setBold(true); // some styles draw header labels bold
    const QFontMetrics metrics(headerFont);
    for (int column = 0; column < StreamTableModel::ColumnCount; ++column) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        int width = metrics.horizontalAdvance(title) + 4 * margin;
        if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
            width += header->defaultSectionSize() / 4 + margin;
        const QAbstractItemView *view = m_table;
        width = std::max(width, view->sizeHintForColumn(column));
        header->resizeSection(column, width);
    }
}

void AccountDetailPanel::fitTableHeight()
{
    // The table gets the rows it has (a handful of MQTT streams); the JSON pane the rest.
    const int rows = std::max(1, m_model->rowCount());
    const int tableHeight = m_table->horizontalHeader()->sizeHint().height() + rows * m_table->verticalHeader()->defaultSectionSize()
        + 2 * m_table->frameWidth() + m_table->horizontalScrollBar()->sizeHint().height();
    const int wanted = m_tableTitle->sizeHint().height() + tableHeight + 8;
    const int total = std::max(m_splitter->height(), wanted * 3);
    m_splitter->setSizes({wanted, total - wanted});
}

QString AccountDetailPanel::selectedStreamJson() const
{
    return m_json->toPlainText();
}

QString AccountDetailPanel::limitsText() const
{
    if (!m_account.jetstream)
        return QStringLiteral("—");
    if (!m_account.limitsKnown)
        return tr("not in the system view; add the account's credentials to the profile to read them");
    const auto n = [this](const char *key) { return m_account.limits.value(QLatin1String(key)).toInteger(-1); };
    return tr("memory %1 · file %2 · streams %3 · consumers %4")
        .arg(DisplayFormat::limit(n("max_memory"), true), DisplayFormat::limit(n("max_storage"), true),
             DisplayFormat::limit(n("max_streams"), false), DisplayFormat::limit(n("max_consumers"), false));
}

} // namespace MqttDoctor
