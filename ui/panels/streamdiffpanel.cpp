#include "streamdiffpanel.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTextBlock>
#include <QTreeView>
#include <QVBoxLayout>

#include "models/streamdiffmodel.h"
#include "mqtt/layouts.h"
#include "widgets/diffhighlighter.h"

namespace MqttDoctor {

StreamDiffPanel::StreamDiffPanel(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_model(new StreamDiffModel(this)), m_tree(new QTreeView(this)),
      m_diffTitle(new QLabel(this)), m_diff(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("streamDiffPanel"));
    m_summary->setObjectName(QStringLiteral("streamDiffSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_tree->setObjectName(QStringLiteral("streamDiffTree"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    const int charWidth = m_tree->fontMetrics().averageCharWidth();
    m_tree->setColumnWidth(StreamDiffModel::NameColumn, 40 * charWidth);
    m_tree->setColumnWidth(StreamDiffModel::ExpectedColumn, 34 * charWidth);

    QFont bold = m_diffTitle->font();
    bold.setBold(true);
    m_diffTitle->setFont(bold);
    m_diff->setObjectName(QStringLiteral("streamDiffText"));
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    new DiffHighlighter(m_diff->document());

    auto *diffPane = new QWidget(this);
    auto *diffLayout = new QVBoxLayout(diffPane);
    diffLayout->setContentsMargins(0, 4, 0, 0);
    diffLayout->addWidget(m_diffTitle);
    diffLayout->addWidget(m_diff);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_tree);
    splitter->addWidget(diffPane);
    splitter->setChildrenCollapsible(false);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this, &StreamDiffPanel::showDiff);
    connect(m_model, &QAbstractItemModel::modelReset, this, &StreamDiffPanel::showDiff);
    showDiff();
}

StreamDiffPanel::~StreamDiffPanel() = default;

void StreamDiffPanel::setAccount(const AccountInfo &account, const QList<ServerInfo> &servers)
{
    const QString selected = selectedStream();
    const QList<StreamInfo> streams = account.mqttStreams();
    if (!account.jetstream || !account.streamsKnown) {
        m_model->clear();
        m_summary->setText(account.jetstream ? tr("The account's streams are not known: nothing to compare.")
                                             : tr("JetStream is off for this account: it has no MQTT streams to compare."));
        return;
    }
    const LayoutChoice choice = Layouts::choose(servers, {}, account.streams);
    m_model->setComparison(choice, streams);
    m_tree->expandAll();

    QString basis;
    switch (choice.basis) {
    case LayoutChoice::Basis::Versions:
        basis = tr("the MQTT servers run nats-server %1").arg(choice.versions.join(QStringLiteral(", ")));
        break;
    case LayoutChoice::Basis::Streams: basis = tr("no server version is known; inferred from the existing streams"); break;
    case LayoutChoice::Basis::Default: basis = tr("no server version is known; the newest layout"); break;
    }
    const int problems = m_model->problemStreams();
    const QString layout = MqttLayout::kindName(choice.layout.kind());
    m_summary->setText(problems == 0
                           ? tr("Every MQTT stream matches the %1 layout (%2), R%3.").arg(layout, basis).arg(choice.layout.replicas())
                           : tr("%1 of %2 MQTT streams differ from the %3 layout (%4), R%5. Differences are highlighted; "
                                "the repair wizard (Tools › Repair…) can fix most of them.")
                                 .arg(problems)
                                 .arg(m_model->rowCount())
                                 .arg(layout, basis)
                                 .arg(choice.layout.replicas()));
    if (!selected.isEmpty())
        selectStream(selected);
}

bool StreamDiffPanel::selectStream(const QString &name)
{
    const int row = m_model->streamRow(name);
    if (row < 0)
        return false;
    const QModelIndex index = m_model->index(row, 0);
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_tree->scrollTo(index);
    return true;
}

QString StreamDiffPanel::selectedStream() const
{
    return m_tree->currentIndex().data(StreamDiffModel::StreamNameRole).toString();
}

QString StreamDiffPanel::summaryText() const
{
    return m_summary->text();
}

QString StreamDiffPanel::diffText() const
{
    return m_diff->toPlainText();
}

void StreamDiffPanel::showDiff()
{
    const QString stream = selectedStream();
    const int row = m_model->streamRow(stream);
    QString text;
    if (row >= 0) {
        text = m_model->diffText(row);
        m_diffTitle->setText(tr("%1: changes that make it as expected (-actual +expected)").arg(stream));
        if (text.isEmpty())
            text = tr("# %1: %2").arg(stream, StreamDiffModel::statusText(m_model->status(row)));
    } else {
        text = m_model->allDiffText();
        m_diffTitle->setText(tr("Every difference (-actual +expected)"));
        if (text.isEmpty() && m_model->rowCount() > 0)
            text = tr("# no differences");
    }
    if (text != m_diff->toPlainText())
        m_diff->setPlainText(text);
}

} // namespace MqttDoctor
