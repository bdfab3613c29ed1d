#include "sessiontablemodel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace MqttDoctor {

SessionTableModel::SessionTableModel(QObject *parent) : QAbstractTableModel(parent) {}

SessionTableModel::~SessionTableModel() = default;

void SessionTableModel::appendBatch(QList<SessionEntry> &&batch)
{
    if (batch.isEmpty())
        return;
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(batch.size()) - 1);
    for (const SessionEntry &e : batch)
        m_problemRows += e.problems.isEmpty() ? 0 : 1;
    m_entries.append(std::move(batch));
    endInsertRows();
}

void SessionTableModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    m_entries.squeeze();
    m_problemRows = 0;
    endResetModel();
}

const SessionEntry *SessionTableModel::entryAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

int SessionTableModel::rowOf(const QString &clientId) const
{
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].record && m_entries[i].clientId == clientId)
            return i;
    return -1;
}

int SessionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int SessionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SessionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ConsumersColumn)
        return tr("Durable consumers that exist, of those the session record names");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ClientIdColumn: return tr("Client ID");
    case HashColumn: return tr("Hash");
    case ConnectedColumn: return tr("Connected");
    case CleanColumn: return tr("Clean");
    case SubscriptionsColumn: return tr("Subscriptions");
    case ConsumersColumn: return tr("Consumers");
    case LastWrittenColumn: return tr("Last written");
    case ProblemsColumn: return tr("Problems");
    default: return {};
    }
}

QString SessionTableModel::consumersText(const SessionEntry &entry)
{
    const auto ok = std::count_if(entry.consumers.cbegin(), entry.consumers.cend(), [](const SessionConsumer &c) { return c.exists; });
    return QStringLiteral("%1/%2").arg(ok).arg(entry.consumers.size());
}

QString SessionTableModel::connectedText(const SessionEntry &entry)
{
    if (!entry.connected)
        return QStringLiteral("?");
    return *entry.connected ? tr("yes") : tr("no");
}

QVariant SessionTableModel::displayData(const SessionEntry &e, int column) const
{
    switch (column) {
    case ClientIdColumn: return e.record ? e.clientId : tr("(undecodable)");
    case HashColumn: return e.hash;
    case ConnectedColumn: return connectedText(e);
    case CleanColumn: return e.clean ? tr("yes") : tr("no");
    case SubscriptionsColumn: {
        QStringList filters;
        for (const SessionRecord::Subscription &s : e.subscriptions)
            filters << QStringLiteral("%1 (QoS %2)").arg(s.mqttFilter).arg(s.qos);
        return filters.join(QStringLiteral(", "));
    }
    case ConsumersColumn: return consumersText(e);
    case LastWrittenColumn: return e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case ProblemsColumn: return e.problems.join(QStringLiteral("; "));
    default: return {};
    }
}

QVariant SessionTableModel::sortData(const SessionEntry &e, int column) const
{
    switch (column) {
    case ConnectedColumn: return e.connected ? (*e.connected ? 2 : 1) : 0;
    case CleanColumn: return e.clean;
    case SubscriptionsColumn: return qint64(e.subscriptions.size());
    case ConsumersColumn: {
        const auto ok = std::count_if(e.consumers.cbegin(), e.consumers.cend(), [](const SessionConsumer &c) { return c.exists; });
        // By missing consumers, then by how many the record names.
        return qint64(e.consumers.size() - ok) * 1000000 + qint64(e.consumers.size());
    }
    case LastWrittenColumn: return e.time.toMSecsSinceEpoch();
    case ProblemsColumn: return qint64(e.problems.size());
    default: return displayData(e, column);
    }
}

QVariant SessionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SessionEntry &e = m_entries[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(e, index.column());
    case Qt::ToolTipRole:
        if (index.column() == ProblemsColumn && !e.problems.isEmpty())
            return e.problems.join(QLatin1Char('\n'));
        if (index.column() == SubscriptionsColumn)
            return displayData(e, index.column());
        return {};
    case Qt::ForegroundRole:
        if (index.column() == ProblemsColumn && !e.problems.isEmpty())
            return QBrush(QColor(0xb0, 0x20, 0x20));
        if (index.column() == ClientIdColumn && !e.record)
            return QBrush(QColor(0xb0, 0x20, 0x20));
        return {};
    case SortRole:
        return sortData(e, index.column());
    case ClientIdRole:
        return e.clientId;
    case HashRole:
        return e.hash;
    case ProblemCountRole:
        return int(e.problems.size());
    default:
        return {};
    }
}

} // namespace MqttDoctor
