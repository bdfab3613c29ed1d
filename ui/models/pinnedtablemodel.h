#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QSet>
#include <QString>

#include "diagnosis/interestholder.h"

namespace MqttDoctor {

/**
 * Who keeps messages in `$MQTT_msgs`/`$MQTT_out` (InterestHolder, made on the worker): client ID or hash,
 * estimated bytes, messages, unacknowledged, connected, when the record was written, kind, durables.
 * Rows the findings flag (INTEREST_PINNED) are marked. GUI thread only.
 */
class PinnedTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PinnedTableModel)

public:
    enum Column {
        HolderColumn,
        BytesColumn,
        MessagesColumn,
        UnackedColumn,
        ConnectedColumn,
        WrittenColumn,
        KindColumn,
        DurablesColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole + 1, ///< raw value of the column
        ClientIdRole, ///< QString, empty for holders without a session
        FlaggedRole, ///< bool: an INTEREST_PINNED finding names it
    };

    explicit PinnedTableModel(QObject *parent = nullptr);
    ~PinnedTableModel() override;

    /** The holders, most bytes first (InterestHolder::ofAccount's order). */
    void setHolders(const QList<InterestHolder> &holders);
    /** The client IDs an INTEREST_PINNED finding names (marked, and the repair is offered for them). */
    void setFlagged(const QSet<QString> &clientIds);
    void clear();
    const QList<InterestHolder> &holders() const { return m_rows; }
    qsizetype flaggedCount() const;
    /** "sensor-17" or "(hash Xy12AbCd)": how a holder is named in the table and the chart. */
    static QString holderName(const InterestHolder &holder);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<InterestHolder> m_rows;
    QSet<QString> m_flagged;
};

} // namespace MqttDoctor
