#include "clienteventmodel.h"

#include <QBrush>
#include <QColor>

namespace MqttDoctor {

namespace {
constexpr qint64 kMinuteMs = 60000;
constexpr qint64 kKeptMinutes = 180;
} // namespace

ClientEventModel::ClientEventModel(QObject *parent) : QAbstractTableModel(parent) {}

ClientEventModel::~ClientEventModel() = default;

void ClientEventModel::append(const QList<MqttClientEvent> &events)
{
    if (events.isEmpty())
        return;
    // The oldest go first when the list is full: one removal for the whole batch.
    const qsizetype overflow = m_events.size() + events.size() - kMaxEvents;
    if (overflow > 0) {
        const int drop = int(std::min(overflow, m_events.size()));
        if (drop > 0) {
            beginRemoveRows({}, 0, drop - 1);
            m_events.remove(0, drop);
            endRemoveRows();
        }
    }
    const QList<MqttClientEvent> added = events.size() > kMaxEvents ? events.mid(events.size() - kMaxEvents) : events;
    beginInsertRows({}, int(m_events.size()), int(m_events.size() + added.size()) - 1);
    m_events += added;
    endInsertRows();
    for (const MqttClientEvent &e : events) {
        const qint64 minute = e.time.toMSecsSinceEpoch() / kMinuteMs;
        Minute &m = m_minutes[e.account][minute];
        (e.kind == MqttClientEvent::Kind::Connect ? m.connects : m.disconnects) += 1;
        QMap<qint64, Minute> &minutes = m_minutes[e.account];
        while (!minutes.isEmpty() && minutes.firstKey() < minute - kKeptMinutes)
            minutes.erase(minutes.begin());
    }
}

void ClientEventModel::clear()
{
    beginResetModel();
    m_events.clear();
    m_minutes.clear();
    endResetModel();
}

QList<ClientEventModel::Minute> ClientEventModel::perMinute(const QString &account, const QDateTime &now, int minutes) const
{
    QList<Minute> out(minutes);
    const qint64 last = now.toMSecsSinceEpoch() / kMinuteMs;
    const auto add = [&](const QMap<qint64, Minute> &byMinute) {
        for (auto it = byMinute.lowerBound(last - minutes + 1); it != byMinute.cend() && it.key() <= last; ++it) {
            Minute &m = out[int(it.key() - (last - minutes + 1))];
            m.connects += it->connects;
            m.disconnects += it->disconnects;
        }
    };
    if (account.isEmpty())
        for (const auto &byMinute : m_minutes)
            add(byMinute);
    else
        add(m_minutes.value(account));
    return out;
}

int ClientEventModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_events.size());
}

int ClientEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClientEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn: return tr("Time");
    case AccountColumn: return tr("Account");
    case ClientColumn: return tr("Client ID");
    case EventColumn: return tr("Event");
    case ReasonColumn: return tr("Reason");
    case ServerColumn: return tr("Server");
    case AddressColumn: return tr("Address");
    default: return {};
    }
}

QVariant ClientEventModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_events.size())
        return {};
    const MqttClientEvent &e = m_events.at(index.row());
    if (role == AccountRole)
        return e.account;
    if (role == TakeoverRole)
        return e.isTakeover();
    if (role == Qt::ForegroundRole && e.isTakeover())
        return QBrush(QColor(0xb3, 0x5c, 0x00));
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn: return e.time.toLocalTime().toString(QStringLiteral("HH:mm:ss.zzz"));
    case AccountColumn: return e.account;
    case ClientColumn: return e.clientId;
    case EventColumn: return e.kind == MqttClientEvent::Kind::Connect ? tr("connect") : tr("disconnect");
    case ReasonColumn: return e.reason;
    case ServerColumn: return e.server;
    case AddressColumn: return e.address;
    default: return {};
    }
}

} // namespace MqttDoctor
