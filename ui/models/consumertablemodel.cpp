#include "consumertablemodel.h"

#include <QBrush>
#include <QColor>

#include "models/displayformat.h"

namespace MqttDoctor {

ConsumerTableModel::ConsumerTableModel(QObject *parent) : QAbstractTableModel(parent) {}

ConsumerTableModel::~ConsumerTableModel() = default;

void ConsumerTableModel::setConsumers(const QList<ConsumerRow> &rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

void ConsumerTableModel::clear()
{
    setConsumers({});
}

int ConsumerTableModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].name == name)
            return i;
    return -1;
}

int ConsumerTableModel::rowOf(const QString &stream, const QString &name) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].stream == stream && m_rows[i].name == name)
            return i;
    return -1;
}

qsizetype ConsumerTableModel::orphanCount() const
{
    return std::count_if(m_rows.cbegin(), m_rows.cend(), [](const ConsumerRow &r) { return r.isOrphan(); });
}

int ConsumerTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ConsumerTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ConsumerTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Consumer");
    case StreamColumn: return tr("Stream");
    case PendingColumn: return tr("Pending");
    case AckPendingColumn: return tr("Ack pending");
    case OwnerColumn: return tr("Owner session");
    default: return {};
    }
}

QVariant ConsumerTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ConsumerRow &r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn: return r.name;
        case StreamColumn: return r.stream;
        case PendingColumn: return DisplayFormat::count(r.numPending);
        case AckPendingColumn: return DisplayFormat::count(r.numAckPending);
        case OwnerColumn: return r.isOrphan() ? tr("orphan") : r.ownerClientId;
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == OwnerColumn)
            return r.isOrphan() ? r.orphanReason : tr("Session of %1 (hash %2)").arg(r.ownerClientId, r.hash);
        return {};
    case Qt::ForegroundRole:
        return index.column() == OwnerColumn && r.isOrphan() ? QVariant(QBrush(QColor(0xb0, 0x20, 0x20))) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == PendingColumn || index.column() == AckPendingColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
        switch (index.column()) {
        case PendingColumn: return r.numPending;
        case AckPendingColumn: return r.numAckPending;
        default: return data(index, Qt::DisplayRole);
        }
    case OrphanRole:
        return r.isOrphan();
    case StreamRole:
        return r.stream;
    case NameRole:
        return r.name;
    default:
        return {};
    }
}

} // namespace MqttDoctor
