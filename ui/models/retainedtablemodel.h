#pragma once

#include <QAbstractTableModel>
#include <QList>

#include "records/retainedloader.h"

namespace MqttDoctor {

/**
 * The retained MQTT messages of an account (`$MQTT_rmsgs`), filled batch by batch: topic, QoS, size,
 * the payload previewed as text, hex or JSON (setPayloadMode), when it was stored. Undecodable
 * messages are rows too (topic "(undecodable)", the reason as preview). GUI thread only.
 */
class RetainedTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetainedTableModel)

public:
    enum Column { TopicColumn, QosColumn, SizeColumn, PayloadColumn, StoredColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value of the column
        TopicRole, ///< QString, empty when undecodable
    };
    enum class PayloadMode { Text, Hex, Json };
    Q_ENUM(PayloadMode)

    explicit RetainedTableModel(QObject *parent = nullptr);
    ~RetainedTableModel() override;

    void appendBatch(QList<RetainedEntry> &&batch);
    /** Swaps every row for `entries` in one go (a refresh: one reset instead of emptying and refilling). */
    void replaceAll(QList<RetainedEntry> &&entries);
    void clear();
    const RetainedEntry *entryAt(int row) const;
    int rowOf(const QString &topic) const;

    void setPayloadMode(PayloadMode mode);
    PayloadMode payloadMode() const { return m_mode; }

    /**
     * A payload as text (control characters escaped), hex bytes, or JSON (compact in the table,
     * indented for the details; "not JSON: ..." when it does not parse). maxChars 0: all of it.
     */
    static QString formatPayload(const QByteArray &payload, PayloadMode mode, int maxChars, bool indented = false);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const RetainedEntry &entry, int column) const;

    QList<RetainedEntry> m_entries;
    PayloadMode m_mode = PayloadMode::Text;
};

} // namespace MqttDoctor
