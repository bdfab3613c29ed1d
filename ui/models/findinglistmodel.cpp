#include "findinglistmodel.h"

#include <QLocale>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <limits>

#include "common/duration.h"
#include "models/healthbadge.h"

namespace MqttDoctor {

namespace {

// The Stream / client column: the stream, then the client ID (or the subject when there is none).
QString whereOf(const Finding &f)
{
    QStringList parts;
    if (!f.stream.isEmpty())
        parts << f.stream;
    if (!f.clientId.isEmpty())
        parts << f.clientId;
    else if (!f.subject.isEmpty())
        parts << f.subject;
    return parts.join(QStringLiteral(" · "));
}

QString firstSeenText(const QDateTime &firstSeen)
{
    if (!firstSeen.isValid())
        return {};
    return FindingListModel::tr("%1 · open %2")
        .arg(QLocale().toString(firstSeen.toLocalTime(), QStringLiteral("yyyy-MM-dd HH:mm:ss")),
             formatAge(std::max<qint64>(0, firstSeen.secsTo(QDateTime::currentDateTimeUtc()))));
}

} // namespace

FindingListModel::FindingListModel(QObject *parent) : QAbstractTableModel(parent) {}

FindingListModel::~FindingListModel() = default;

void FindingListModel::setFindings(const FindingList &findings)
{
    beginResetModel();
    m_findings = findings;
    m_order.clear();
    ++m_sortGeneration;
    m_sorting = false;
    endResetModel();
    if (m_sortColumn != SeverityColumn || m_sortOrder != Qt::DescendingOrder)
        sort(m_sortColumn, m_sortOrder); // the order the user picked stays picked
}

void FindingListModel::setFirstSeen(const QHash<QString, QDateTime> &firstSeen)
{
    if (firstSeen.isEmpty() && m_firstSeen.isEmpty())
        return;
    m_firstSeen = firstSeen;
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, FirstSeenColumn), index(rowCount() - 1, FirstSeenColumn));
    if (m_sortColumn == FirstSeenColumn)
        sort(m_sortColumn, m_sortOrder);
}

QDateTime FindingListModel::firstSeenAt(int row) const
{
    if (m_firstSeen.isEmpty() || row < 0 || row >= m_findings.size())
        return {};
    return m_firstSeen.value(m_findings.at(sourceOf(row)).identity());
}

std::vector<qsizetype> FindingListModel::orderOf(const FindingList &findings, const QHash<QString, QDateTime> &firstSeen, int column,
                                                 Qt::SortOrder order)
{
    const qsizetype n = findings.size();
    std::vector<qsizetype> rows(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i)
        rows[size_t(i)] = i;
    // Stable, as a sort proxy is: equal keys keep the order the findings came in.
    const auto sortBy = [&](const auto &key) {
        if (order == Qt::AscendingOrder)
            std::stable_sort(rows.begin(), rows.end(), [&](qsizetype a, qsizetype b) { return key[size_t(a)] < key[size_t(b)]; });
        else
            std::stable_sort(rows.begin(), rows.end(), [&](qsizetype a, qsizetype b) { return key[size_t(b)] < key[size_t(a)]; });
    };
    if (column == SeverityColumn) {
        std::vector<int> key(static_cast<size_t>(n));
        for (qsizetype i = 0; i < n; ++i)
            key[size_t(i)] = int(findings.summaryAt(i).severity);
        sortBy(key);
    } else if (column == FirstSeenColumn) {
        // Oldest first when ascending; a finding the history does not hold sorts after every known one.
        std::vector<qint64> key(static_cast<size_t>(n), std::numeric_limits<qint64>::max());
        if (!firstSeen.isEmpty())
            for (qsizetype i = 0; i < n; ++i)
                if (const QDateTime t = firstSeen.value(findings.at(i).identity()); t.isValid())
                    key[size_t(i)] = t.toMSecsSinceEpoch();
        sortBy(key);
    } else {
        // The code is a shared string read without making the finding; the other columns make it.
        std::vector<QString> key(static_cast<size_t>(n));
        for (qsizetype i = 0; i < n; ++i)
            key[size_t(i)] = column == CodeColumn ? findings.summaryAt(i).code
                : column == TitleColumn           ? findings.at(i).title.toString()
                                                  : whereOf(findings.at(i));
        sortBy(key);
    }
    return rows;
}

void FindingListModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    // The view asks twice for one header click: the sort already running answers both.
    if (m_sorting && column == m_sortColumn && order == m_sortOrder)
        return;
    m_sortColumn = column;
    m_sortOrder = order;
    const quint64 generation = ++m_sortGeneration;
    m_sorting = false;
    if (column == SeverityColumn && order == Qt::DescendingOrder) {
        applyOrder({}); // the order they came in
        return;
    }
    if (m_findings.size() <= kSortInPlaceMax) {
        applyOrder(orderOf(m_findings, m_firstSeen, column, order));
        return;
    }
    m_sorting = true;
    // The list is immutable and shared: the worker reads its own copy of it.
    QtConcurrent::run([findings = m_findings, firstSeen = m_firstSeen, column, order] {
        return orderOf(findings, firstSeen, column, order);
    }).then(this, [this, generation](const std::vector<qsizetype> &result) {
        if (generation != m_sortGeneration)
            return; // new findings, or sorted again meanwhile
        m_sorting = false;
        applyOrder(result);
    });
}

void FindingListModel::applyOrder(std::vector<qsizetype> order)
{
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    // Each persistent index (the selection) follows its finding.
    const QModelIndexList before = persistentIndexList();
    std::vector<qsizetype> sources;
    sources.reserve(size_t(before.size()));
    for (const QModelIndex &index : before)
        sources.push_back(sourceOf(index.row()));
    m_order = std::move(order);
    QModelIndexList after;
    after.reserve(before.size());
    if (!before.isEmpty()) {
        std::vector<int> rowOf(size_t(m_findings.size()));
        for (qsizetype row = 0; row < m_findings.size(); ++row)
            rowOf[size_t(sourceOf(int(row)))] = int(row);
        for (qsizetype i = 0; i < before.size(); ++i)
            after.append(index(rowOf[size_t(sources[size_t(i)])], before.at(i).column()));
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
    emit sorted();
}

void FindingListModel::clear()
{
    setFindings({});
}

std::optional<Finding> FindingListModel::findingAt(int row) const
{
    if (row < 0 || row >= m_findings.size())
        return std::nullopt;
    return m_findings.at(sourceOf(row));
}

QString FindingListModel::summary() const
{
    if (m_findings.isEmpty())
        return tr("no findings");
    // Counted in one pass (a million findings: four passes were a noticeable pause of the GUI thread).
    qsizetype counts[int(Finding::Severity::Critical) + 1] = {};
    for (qsizetype i = 0; i < m_findings.size(); ++i)
        ++counts[int(m_findings.summaryAt(i).severity)];
    QStringList parts;
    for (Finding::Severity s :
         {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning, Finding::Severity::Info}) {
        const qsizetype n = counts[int(s)];
        if (n > 0)
            parts << QStringLiteral("%1 %2%3").arg(n).arg(Finding::severityName(s), n == 1 ? QString() : QStringLiteral("s"));
    }
    return parts.join(QStringLiteral(", "));
}

int FindingListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case CodeColumn: return tr("Code");
    case TitleColumn: return tr("Finding");
    case WhereColumn: return tr("Stream / client");
    case FirstSeenColumn: return tr("First seen");
    default: return {};
    }
}

QVariant FindingListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    // Severity and code without making the finding: what sorting asks a million rows for.
    const qsizetype source = sourceOf(index.row());
    const Finding &summary = m_findings.summaryAt(source);
    switch (role) {
    case Qt::DecorationRole: return index.column() == SeverityColumn ? QVariant(HealthBadge::severityIcon(summary.severity)) : QVariant();
    case Qt::DisplayRole:
    case SortRole:
        if (index.column() == SeverityColumn)
            return role == SortRole ? QVariant(int(summary.severity)) : QVariant(Finding::severityName(summary.severity));
        if (index.column() == CodeColumn)
            return summary.code;
        break;
    case Qt::ToolTipRole:
        if (index.column() == FirstSeenColumn && !m_firstSeen.isEmpty())
            break;
        if (index.column() != TitleColumn)
            return {};
        break;
    case FindingRole: break;
    default: return {};
    }
    // Without history the column stays empty (the findings are not made for it).
    if (index.column() == FirstSeenColumn && role != FindingRole && m_firstSeen.isEmpty())
        return {};
    const Finding f = m_findings.at(source);
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case TitleColumn: return f.title.toString();
        case WhereColumn: return whereOf(f);
        case FirstSeenColumn: {
            const QDateTime t = m_firstSeen.value(f.identity());
            return role == SortRole ? QVariant(t) : QVariant(firstSeenText(t));
        }
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == FirstSeenColumn) {
            const QDateTime t = m_firstSeen.value(f.identity());
            return t.isValid() ? tr("First seen open by the local history at %1; open since then, for %2")
                                     .arg(QLocale().toString(t.toLocalTime(), QLocale::LongFormat),
                                          formatAge(std::max<qint64>(0, t.secsTo(QDateTime::currentDateTimeUtc()))))
                               : tr("The local history has not seen this finding open");
        }
        return f.detail.toString();
    case FindingRole: return QVariant::fromValue(f);
    default: return {};
    }
}

} // namespace MqttDoctor
