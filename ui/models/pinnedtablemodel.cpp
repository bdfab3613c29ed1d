#include "pinnedtablemodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QLocale>

#include "models/displayformat.h"

namespace MqttDoctor {

PinnedTableModel::PinnedTableModel(QObject *parent) : QAbstractTableModel(parent) {}

PinnedTableModel::~PinnedTableModel() = default;

void PinnedTableModel::setHolders(const QList<InterestHolder> &holders)
{
    beginResetModel();
    m_rows = holders;
    endResetModel();
}

void PinnedTableModel::setFlagged(const QSet<QString> &clientIds)
{
    m_flagged = clientIds;
    if (!m_rows.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
}

void PinnedTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

qsizetype PinnedTableModel::flaggedCount() const
{
    qsizetype n = 0;
    for (const InterestHolder &h : m_rows)
        n += !h.clientId.isEmpty() && m_flagged.contains(h.clientId);
    return n;
}

QString PinnedTableModel::holderName(const InterestHolder &holder)
{
    if (!holder.clientId.isEmpty())
        return holder.clientId;
    return holder.hash.isEmpty() ? holder.durables.value(0) : tr("(hash %1)").arg(holder.hash);
}

int PinnedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PinnedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

namespace {

QString pinnedKindText(InterestHolder::Kind kind)
{
    switch (kind) {
    case InterestHolder::Kind::Session: return PinnedTableModel::tr("session");
    case InterestHolder::Kind::ConnectedClient: return PinnedTableModel::tr("clean session (connected)");
    case InterestHolder::Kind::Orphan: return PinnedTableModel::tr("orphan (no record)");
    case InterestHolder::Kind::UndecodableRecord: return PinnedTableModel::tr("undecodable record");
    case InterestHolder::Kind::NotMqtt: return PinnedTableModel::tr("not an MQTT durable");
    }
    return {};
}

} // namespace

QVariant PinnedTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const InterestHolder &h = m_rows.at(index.row());
    const bool flagged = !h.clientId.isEmpty() && m_flagged.contains(h.clientId);
    switch (role) {
    case ClientIdRole: return h.kind == InterestHolder::Kind::Session ? h.clientId : QString();
    case FlaggedRole: return flagged;
    case Qt::DisplayRole:
        switch (index.column()) {
        case HolderColumn: return holderName(h);
        case KindColumn: return pinnedKindText(h.kind);
        case ConnectedColumn: return !h.connected ? tr("unknown") : *h.connected ? tr("yes") : tr("no");
        case WrittenColumn:
            return h.written.isValid() ? h.written.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("–");
        case MessagesColumn: return DisplayFormat::count(h.messages);
        case UnackedColumn: return DisplayFormat::count(h.unacknowledged);
        case BytesColumn: return DisplayFormat::bytes(h.bytes);
        case DurablesColumn: return h.durables.join(QStringLiteral(", "));
        }
        return {};
    case SortRole:
        switch (index.column()) {
        case HolderColumn: return holderName(h);
        case KindColumn: return int(h.kind);
        case ConnectedColumn: return !h.connected ? -1 : int(*h.connected);
        case WrittenColumn: return h.written;
        case MessagesColumn: return h.messages;
        case UnackedColumn: return h.unacknowledged;
        case BytesColumn: return h.bytes;
        case DurablesColumn: return h.durables.join(QStringLiteral(", "));
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == MessagesColumn || index.column() == UnackedColumn || index.column() == BytesColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (flagged) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ToolTipRole:
        if (flagged)
            return tr("INTEREST_PINNED: offline, and its durables hold more messages than the threshold. Repair deletes the "
                      "session (backed up first).");
        if (index.column() == BytesColumn)
            return tr("Estimated: its messages times the stream's average message size (the servers report no bytes per consumer).");
        return {};
    default: return {};
    }
}

QVariant PinnedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case HolderColumn: return tr("Client ID / hash");
    case KindColumn: return tr("Kind");
    case ConnectedColumn: return tr("Connected");
    case WrittenColumn: return tr("Record written");
    case MessagesColumn: return tr("Messages");
    case UnackedColumn: return tr("Unacked");
    case BytesColumn: return tr("Bytes (est.)");
    case DurablesColumn: return tr("Durables");
    }
    return {};
}

} // namespace MqttDoctor
