#pragma once

#include <QAbstractTableModel>
#include <QList>

#include "diagnosis/findinglist.h"

namespace MqttDoctor {

/**
 * Every finding of the cluster in one table (the cluster overview): account, severity, code, stream,
 * client ID, title. Sorted through a proxy: SortRole gives the raw value of each column (severity by
 * rank). GUI thread.
 */
class ClusterFindingsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterFindingsModel)

public:
    enum Column { AccountColumn, SeverityColumn, CodeColumn, StreamColumn, ClientColumn, TitleColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1, AccountRole };

    explicit ClusterFindingsModel(QObject *parent = nullptr);
    ~ClusterFindingsModel() override;

    void setFindings(const FindingList &findings);
    const FindingList &findings() const { return m_findings; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    FindingList m_findings;
};

} // namespace MqttDoctor
