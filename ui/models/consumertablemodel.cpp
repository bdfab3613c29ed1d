#include "consumertablemodel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

#include "models/displayformat.h"

namespace MqttDoctor {

ConsumerTableModel::ConsumerTableModel(QObject *parent) : QAbstractTableModel(parent) {}

ConsumerTableModel::~ConsumerTableModel() = default;

QList<ConsumerRow> ConsumerTableModel::rowsFor(const QList<ConsumerOwner> &owners)
{
    using Kind = ConsumerOwner::Kind;
    QList<ConsumerRow> rows;
    rows.reserve(owners.size());
    for (const ConsumerOwner &o : owners) {
        ConsumerRow row;
        row.name = o.name;
        row.stream = o.stream;
        row.numPending = o.numPending;
        row.numAckPending = o.numAckPending;
        row.hash = o.hash;
        row.owner = o.kind;
        row.ownerClientId = o.clientId;
        switch (o.kind) {
        case Kind::Session: row.note = tr("Session of %1 (hash %2)").arg(o.clientId, o.hash); break;
        case Kind::ConnectedClient:
            row.note = tr("No record names it, but %1 (hash %2) is connected: a clean-session client's durables live only while "
                          "it is connected")
                           .arg(o.clientId, o.hash);
            break;
        case Kind::UndecodableRecord:
            row.note = tr("The record on hash %1 cannot be decoded: its repair (SESSION_UNDECODABLE) removes this durable too").arg(o.hash);
            break;
        case Kind::NotMqtt:
            row.note = tr("Not a name the MQTT gateway gives its durables (<hash>_<id> or $MQTT_PUBREL_<hash>): not the "
                          "gateway's, so not an orphan of it");
            break;
        case Kind::Orphan:
            row.replacing = o.replacing;
            if (!o.replacing.isEmpty()) {
                row.note = tr("Stands in for %1, which the record of %2 names and which no longer exists (SESSION_DURABLE_REPLACED: "
                              "adopt_durable points the record at this one and keeps its messages)")
                               .arg(o.replacing, o.clientId);
                break;
            }
            row.note = o.recordOnHash.isEmpty()
                ? tr("No session record on hash %1: its client's session is gone").arg(o.hash)
                : tr("The session record on hash %1 (%2) does not name this consumer").arg(o.hash, o.recordOnHash);
            if (o.connectedUnknown)
                row.note += tr(" (connected clients unknown without a system connection: a connected clean-session client "
                               "with this hash would own it)");
            break;
        }
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(),
              [](const ConsumerRow &a, const ConsumerRow &b) { return a.stream != b.stream ? a.stream < b.stream : a.name < b.name; });
    return rows;
}

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

QString ConsumerTableModel::ownerText(const ConsumerRow &r)
{
    switch (r.owner) {
    case ConsumerOwner::Kind::Session: return r.ownerClientId;
    case ConsumerOwner::Kind::ConnectedClient: return tr("%1 (connected)").arg(r.ownerClientId);
    case ConsumerOwner::Kind::UndecodableRecord: return tr("undecodable record");
    case ConsumerOwner::Kind::NotMqtt: return tr("not the gateway's");
    case ConsumerOwner::Kind::Orphan:
        return r.replacing.isEmpty() ? tr("orphan") : tr("%1 (stands in for %2)").arg(r.ownerClientId, r.replacing);
    }
    return {};
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
        case OwnerColumn: return ownerText(r);
        default: return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == OwnerColumn)
            return r.note;
        return {};
    case Qt::ForegroundRole: return index.column() == OwnerColumn && r.isOrphan() ? QVariant(QBrush(QColor(0xb0, 0x20, 0x20))) : QVariant();
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
    case OrphanRole: return r.isOrphan();
    case StreamRole: return r.stream;
    case NameRole: return r.name;
    default: return {};
    }
}

} // namespace MqttDoctor
