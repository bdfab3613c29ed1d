#pragma once

#include <QAbstractTableModel>
#include <QDateTime>

#include "records/accountinflight.h"

namespace MqttDoctor {

/**
 * What is in flight in one account (AccountInflight), one row per session with something in flight,
 * oldest first, then one row per session that is gone but left QoS 2 records behind (QOS2_ORPHANED).
 * Ages are counted from when the account was read.
 */
class InflightTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InflightTableModel)

public:
    enum Column { ClientIdColumn, QueuedColumn, OldestQueuedColumn, Qos2InColumn, PubRelColumn, OldestColumn, NoteColumn, ColumnCount };
    Q_ENUM(Column)

    explicit InflightTableModel(QObject *parent = nullptr);
    ~InflightTableModel() override;

    void setInflight(const AccountInflight &inflight);
    void clear();
    const AccountInflight &inflight() const { return m_inflight; }
    /** Rows for gone sessions (orphaned QoS 2 records) come after the sessions. */
    bool isOrphanRow(int row) const { return row >= m_inflight.sessions.size(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant sessionData(const AccountInflight::Session &s, int column, int role) const;
    QVariant orphanData(const Qos2Records::Orphans &o, int column, int role) const;
    QString age(const QDateTime &t) const;

    AccountInflight m_inflight;
};

} // namespace MqttDoctor
