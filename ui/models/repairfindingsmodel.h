#pragma once

#include <QAbstractTableModel>
#include <QList>
#include <QSet>
#include <QStringList>

#include "diagnosis/finding.h"

namespace MqttDoctor {

/**
 * The findings a repair can start from (the repair wizard's first page): severity, code, what it is
 * about, title and repair; the ones with a repair action are checkable. Checks are kept by
 * Finding::identity(), so a fresh check of the account keeps what the operator ticked for the
 * findings that are still there; new ones start ticked when they are warnings or worse (info
 * findings, such as a stale session, are opt-in). GUI thread.
 */
class RepairFindingsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RepairFindingsModel)

public:
    enum Column { SeverityColumn, CodeColumn, ObjectColumn, TitleColumn, RepairColumn, ColumnCount };

    explicit RepairFindingsModel(QObject *parent = nullptr);
    ~RepairFindingsModel() override;

    void setFindings(const QList<Finding> &findings);
    const QList<Finding> &findings() const { return m_findings; }
    /** The ticked findings, in list order. */
    QList<Finding> selected() const;
    /** Ticks exactly the repairable findings with these codes. */
    void selectCodes(const QStringList &codes);
    /** Ticks exactly the repairable findings with these identities (Finding::identity()). */
    void selectIdentities(const QSet<QString> &identities);
    /** "Where" starts with the account (findings of several accounts). */
    void setShowAccount(bool show) { m_showAccount = show; }
    int repairableCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void selectionChanged();

private:
    QList<Finding> m_findings;
    QSet<QString> m_ticked; ///< identities
    QSet<QString> m_known; ///< identities shown before (their tick is the operator's)
    bool m_showAccount = false;
};

} // namespace MqttDoctor
