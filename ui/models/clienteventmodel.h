#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMap>

#include "activity/mqttclientevent.h"

namespace MqttDoctor {

/**
 * The MQTT client events followed live (ActivityFeed), oldest first, the last kMaxEvents kept; and
 * per account the connects and disconnects of each minute of the last hour (the activity chart).
 * AccountRole filters by account through a proxy. GUI thread.
 */
class ClientEventModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClientEventModel)

public:
    enum Column { TimeColumn, AccountColumn, ClientColumn, EventColumn, ReasonColumn, ServerColumn, AddressColumn, ColumnCount };
    enum Role { AccountRole = Qt::UserRole + 1, TakeoverRole };
    static constexpr int kMaxEvents = 20000;

    /** Connects and disconnects of one minute. */
    struct Minute
    {
        int connects = 0;
        int disconnects = 0;
    };

    explicit ClientEventModel(QObject *parent = nullptr);
    ~ClientEventModel() override;

    void append(const QList<MqttClientEvent> &events);
    void clear();
    const MqttClientEvent &eventAt(int row) const { return m_events.at(row); }

    /**
     * The account's connects and disconnects per minute for the `minutes` minutes up to `now` (oldest
     * first; the last is the minute `now` is in). Empty account: every account.
     */
    QList<Minute> perMinute(const QString &account, const QDateTime &now, int minutes = 60) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<MqttClientEvent> m_events;
    QHash<QString, QMap<qint64, Minute>> m_minutes; ///< account → minute (ms since epoch / 60,000) → counts, the last hours
};

} // namespace MqttDoctor
