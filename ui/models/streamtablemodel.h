#pragma once

#include <QAbstractTableModel>
#include <QList>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * An account's MQTT streams as a table: configuration next to state. SortRole gives raw values
 * (numbers as numbers) for a QSortFilterProxyModel. setStreams() keeps rows in place when the same
 * streams come back (a refresh), so a selection survives. GUI thread only.
 */
class StreamTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StreamTableModel)

public:
    enum Column {
        NameColumn,
        SubjectsColumn,
        RetentionColumn,
        StorageColumn,
        ReplicasColumn,
        MaxMsgsPerSubjectColumn,
        MessagesColumn,
        BytesColumn,
        ConsumersColumn,
        LeaderColumn,
        ColumnCount
    };

    enum Role {
        StreamNameRole = Qt::UserRole + 1, ///< QString
        SortRole, ///< raw value of the column (qint64 for numbers)
        LegacyRole, ///< bool: a legacy `$MQTT_sess_*` stream
    };

    explicit StreamTableModel(QObject *parent = nullptr);
    ~StreamTableModel() override;

    void setStreams(const QList<StreamInfo> &streams);
    void clear();
    const QList<StreamInfo> &streams() const { return m_streams; }
    /** The stream shown in a row, nullptr when out of range. */
    const StreamInfo *streamAt(int row) const;
    /** The row of a stream by name, -1 when absent. */
    int rowOf(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const StreamInfo &stream, int column) const;
    QVariant sortData(const StreamInfo &stream, int column) const;

    QList<StreamInfo> m_streams;
};

} // namespace MqttDoctor
