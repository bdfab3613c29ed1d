#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QString>

#include "diagnosis/consumerowner.h"

namespace MqttDoctor {

/** One durable of `$MQTT_msgs` / `$MQTT_out` with its owner as the core's rule says (ConsumerOwner; built on the worker). */
struct ConsumerRow
{
    QString name;
    QString stream;
    qint64 numPending = 0;
    qint64 numAckPending = 0;
    QString hash; ///< the client-ID hash in the durable's name, empty when it has none
    ConsumerOwner::Kind owner = ConsumerOwner::Kind::Orphan;
    /** Session: the client ID of the record that names it; ConnectedClient: the connected client with its hash. */
    QString ownerClientId;
    /** Who owns it and how, or why it is an orphan ("no session record on hash X", "the record of Y does not name it"). */
    QString note;
    /** ConsumerOwner::replacing: the missing durable of a record this one stands in for. */
    QString replacing;
    bool isOrphan() const { return owner == ConsumerOwner::Kind::Orphan && replacing.isEmpty(); }
};

/**
 * The consumers of an account's MQTT interest streams: name, stream, pending, ack pending and the
 * owner session (client ID through the hash in the durable's name) or "orphan". GUI thread only.
 */
class ConsumerTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsumerTableModel)

public:
    enum Column { NameColumn, StreamColumn, PendingColumn, AckPendingColumn, OwnerColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value of the column
        OrphanRole, ///< bool
        StreamRole, ///< QString
        NameRole, ///< QString, the durable's name
    };

    explicit ConsumerTableModel(QObject *parent = nullptr);
    ~ConsumerTableModel() override;

    /** The rows of the core's owners (ConsumerOwner::ofAccount), sorted by stream and name. Pure; any thread. */
    static QList<ConsumerRow> rowsFor(const QList<ConsumerOwner> &owners);

    void setConsumers(const QList<ConsumerRow> &rows);
    void clear();
    const QList<ConsumerRow> &consumers() const { return m_rows; }
    int rowOf(const QString &name) const;
    /** The row of a stream's consumer (a durable's name is unique per stream only), -1 when absent. */
    int rowOf(const QString &stream, const QString &name) const;
    qsizetype orphanCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static QString ownerText(const ConsumerRow &row);

    QList<ConsumerRow> m_rows;
};

} // namespace MqttDoctor
