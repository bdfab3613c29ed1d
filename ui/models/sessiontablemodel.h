#pragma once

#include <QAbstractTableModel>
#include <QList>

#include "records/sessionloader.h"

namespace MqttDoctor {

/**
 * The MQTT sessions of an account, filled batch by batch while SessionLoader reads `$MQTT_sess`
 * (appendBatch() inserts rows at the end, so a view stays usable during a 100,000-row load). SortRole
 * gives raw values (numbers and times as such) for a QSortFilterProxyModel; entryAt() hands the
 * whole SessionEntry to the details pane and the filter. GUI thread only.
 */
class SessionTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionTableModel)

public:
    enum Column {
        ClientIdColumn,
        HashColumn,
        ConnectedColumn,
        CleanColumn,
        SubscriptionsColumn,
        ConsumersColumn,
        LastWrittenColumn,
        ProblemsColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value of the column
        ClientIdRole,                ///< QString, empty when undecodable
        HashRole,                    ///< QString
        ProblemCountRole,            ///< int
    };

    explicit SessionTableModel(QObject *parent = nullptr);
    ~SessionTableModel() override;

    /** Appends a batch (one beginInsertRows for all of it). */
    void appendBatch(QList<SessionEntry> &&batch);
    void clear();
    const SessionEntry *entryAt(int row) const;
    /** The row of the record with this client ID, -1 when absent. */
    int rowOf(const QString &clientId) const;
    qsizetype problemRows() const { return m_problemRows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    /** "2/3": existing consumers of the record out of those it names. */
    static QString consumersText(const SessionEntry &entry);
    /** "yes", "no" or "?" (unknown without a system connection). */
    static QString connectedText(const SessionEntry &entry);

private:
    QVariant displayData(const SessionEntry &entry, int column) const;
    QVariant sortData(const SessionEntry &entry, int column) const;

    QList<SessionEntry> m_entries;
    qsizetype m_problemRows = 0;
};

} // namespace MqttDoctor
