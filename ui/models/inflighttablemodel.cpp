#include "models/inflighttablemodel.h"

#include <QBrush>
#include <QPalette>

#include "common/duration.h"
#include "models/healthbadge.h"

namespace MqttDoctor {

namespace {

QString packetIds(const QList<int> &ids)
{
    QStringList out;
    for (int id : ids.mid(0, 8))
        out << QString::number(id);
    if (ids.size() > 8)
        out << QStringLiteral("…");
    return out.join(QStringLiteral(", "));
}

} // namespace

InflightTableModel::InflightTableModel(QObject *parent) : QAbstractTableModel(parent) {}

InflightTableModel::~InflightTableModel() = default;

void InflightTableModel::setInflight(const AccountInflight &inflight)
{
    beginResetModel();
    m_inflight = inflight;
    endResetModel();
}

void InflightTableModel::clear()
{
    setInflight({});
}

int InflightTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_inflight.sessions.size() + m_inflight.orphans.size());
}

int InflightTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString InflightTableModel::age(const QDateTime &t) const
{
    return t.isValid() ? formatAge(qMax<qint64>(0, t.secsTo(m_inflight.now))) : QStringLiteral("-");
}

QVariant InflightTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const int row = index.row();
    if (!isOrphanRow(row))
        return sessionData(m_inflight.sessions.at(row), index.column(), role);
    return orphanData(m_inflight.orphans.at(row - m_inflight.sessions.size()), index.column(), role);
}

QVariant InflightTableModel::sessionData(const AccountInflight::Session &s, int column, int role) const
{
    if (role == Qt::TextAlignmentRole && (column == QueuedColumn || column == Qos2InColumn || column == PubRelColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case ClientIdColumn: return s.clientId.isEmpty() ? tr("(hash %1)").arg(s.hash) : s.clientId;
    case QueuedColumn: return s.queuedTotal;
    case OldestQueuedColumn:
        return s.oldestQueued ? tr("%1  %2 (seq %3)").arg(age(s.oldestQueued->time), s.oldestQueued->topic).arg(s.oldestQueued->seq)
                              : QStringLiteral("-");
    case Qos2InColumn:
        return s.qos2Incoming == 0 ? QStringLiteral("0") : tr("%1 (packets %2)").arg(s.qos2Incoming).arg(packetIds(s.qos2PacketIds));
    case PubRelColumn:
        return s.pubrelPending == 0 ? QStringLiteral("0") : tr("%1 (packets %2)").arg(s.pubrelPending).arg(packetIds(s.pubrelPacketIds));
    case OldestColumn: return s.oldest().isValid() ? tr("%1 ago").arg(age(s.oldest())) : QStringLiteral("-");
    case NoteColumn: {
        QStringList parts;
        if (s.qos2Incoming > 0)
            parts << tr("QoS 2 published, no PUBREL yet");
        if (s.pubrelPending > 0)
            parts << tr("PUBREL sent, no PUBCOMP yet");
        if (s.queuedTotal > 0)
            parts << tr("messages waiting for delivery or acknowledgement");
        return parts.join(QStringLiteral("; "));
    }
    default: return {};
    }
}

QVariant InflightTableModel::orphanData(const Qos2Records::Orphans &o, int column, int role) const
{
    if (role == Qt::DecorationRole && column == ClientIdColumn)
        return HealthBadge::icon(o.stream == QLatin1String("$MQTT_out") ? HealthBadge::Health::Warning : HealthBadge::Health::Error);
    if (role == Qt::TextAlignmentRole && (column == QueuedColumn || column == Qos2InColumn || column == PubRelColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const bool incoming = o.stream != QLatin1String("$MQTT_out");
    switch (column) {
    case ClientIdColumn: return incoming ? tr("%1 (gone)").arg(o.clientId) : tr("hash %1 (gone)").arg(o.hash);
    case QueuedColumn: return QStringLiteral("-");
    case OldestQueuedColumn: return QStringLiteral("-");
    case Qos2InColumn: return incoming ? tr("%1 (packets %2)").arg(o.sequences.size()).arg(packetIds(o.packetIds)) : QStringLiteral("0");
    case PubRelColumn: return incoming ? QStringLiteral("0") : tr("%1 (packets %2)").arg(o.sequences.size()).arg(packetIds(o.packetIds));
    case OldestColumn: return o.oldest.isValid() ? tr("%1 ago").arg(age(o.oldest)) : QStringLiteral("-");
    case NoteColumn:
        return tr("QOS2_ORPHANED: %1 record(s) in %2 whose session no longer exists; Repair backs them up and deletes them")
            .arg(o.sequences.size())
            .arg(o.stream);
    default: return {};
    }
}

QVariant InflightTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case QueuedColumn: return tr("Messages its durables on $MQTT_msgs have not had acknowledged (pending + delivered, unacknowledged)");
        case Qos2InColumn: return tr("QoS 2 messages the client published and has not released with PUBREL ($MQTT_qos2in)");
        case PubRelColumn: return tr("PUBRELs the server sent and the client has not completed with PUBCOMP ($MQTT_out)");
        case OldestColumn: return tr("How long the oldest of its messages in flight has been stored");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ClientIdColumn: return tr("Client ID");
    case QueuedColumn: return tr("Queued");
    case OldestQueuedColumn: return tr("Oldest queued");
    case Qos2InColumn: return tr("QoS 2 in (no PUBREL)");
    case PubRelColumn: return tr("PUBREL (no PUBCOMP)");
    case OldestColumn: return tr("Oldest");
    case NoteColumn: return tr("What it means");
    default: return {};
    }
}

} // namespace MqttDoctor
