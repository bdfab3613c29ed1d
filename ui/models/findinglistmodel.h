#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <optional>

#include "diagnosis/findinglist.h"

namespace MqttDoctor {

/**
 * The findings of an account as a table, most severe first (the order Checks::diagnose gives):
 * severity, code, title, stream / client. FindingRole hands the whole Finding to the details view.
 * setFindings() resets (a new diagnosis replaces the old one). A row's finding is made when it is
 * shown (FindingList keeps a million per-session findings as references). GUI thread only.
 */
class FindingListModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingListModel)

public:
    enum Column { SeverityColumn, CodeColumn, TitleColumn, WhereColumn, ColumnCount };
    enum Role {
        FindingRole = Qt::UserRole + 1, ///< Finding
        SeverityRole, ///< int(Finding::Severity), for sorting
        SortRole, ///< raw value of the column
    };

    explicit FindingListModel(QObject *parent = nullptr);
    ~FindingListModel() override;

    void setFindings(const FindingList &findings);
    void clear();
    const FindingList &findings() const { return m_findings; }
    std::optional<Finding> findingAt(int row) const;
    /** "2 errors, 1 warning"; "no findings" when empty. */
    QString summary() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    FindingList m_findings;
};

} // namespace MqttDoctor
