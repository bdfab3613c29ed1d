#include "repairfindingsmodel.h"

#include "diagnosis/findingcatalogue.h"
#include "models/displayformat.h"
#include "models/healthbadge.h"

namespace MqttDoctor {

RepairFindingsModel::RepairFindingsModel(QObject *parent) : QAbstractTableModel(parent) {}

RepairFindingsModel::~RepairFindingsModel() = default;

void RepairFindingsModel::setFindings(const QList<Finding> &findings)
{
    beginResetModel();
    m_findings = findings;
    QSet<QString> ticked;
    for (const Finding &f : findings) {
        if (f.repair.isEmpty())
            continue;
        const QString id = f.identity();
        // Ticked by default: warnings and worse, never a state that may be deliberate (the operator ticks it).
        const bool tick = m_known.contains(id)
            ? m_ticked.contains(id)
            : f.severity >= Finding::Severity::Warning && !FindingCatalogue::repairOnlyWhenSelected(f.code);
        if (tick)
            ticked.insert(id);
        m_known.insert(id);
    }
    m_ticked = ticked;
    endResetModel();
    emit selectionChanged();
}

QList<Finding> RepairFindingsModel::selected() const
{
    QList<Finding> out;
    for (const Finding &f : m_findings)
        if (!f.repair.isEmpty() && m_ticked.contains(f.identity()))
            out << f;
    return out;
}

void RepairFindingsModel::selectCodes(const QStringList &codes)
{
    m_ticked.clear();
    for (const Finding &f : m_findings)
        if (!f.repair.isEmpty() && codes.contains(f.code))
            m_ticked.insert(f.identity());
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, SeverityColumn), index(int(m_findings.size()) - 1, SeverityColumn), {Qt::CheckStateRole});
    emit selectionChanged();
}

void RepairFindingsModel::selectIdentities(const QSet<QString> &identities)
{
    m_ticked.clear();
    for (const Finding &f : m_findings)
        if (!f.repair.isEmpty() && identities.contains(f.identity()))
            m_ticked.insert(f.identity());
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, SeverityColumn), index(int(m_findings.size()) - 1, SeverityColumn), {Qt::CheckStateRole});
    emit selectionChanged();
}

int RepairFindingsModel::repairableCount() const
{
    int n = 0;
    for (const Finding &f : m_findings)
        n += f.repair.isEmpty() ? 0 : 1;
    return n;
}

int RepairFindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int RepairFindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RepairFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case CodeColumn: return tr("Code");
    case ObjectColumn: return tr("Where");
    case TitleColumn: return tr("Finding");
    case RepairColumn: return tr("Repair");
    default: return {};
    }
}

Qt::ItemFlags RepairFindingsModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || index.row() >= m_findings.size())
        return Qt::NoItemFlags;
    const Finding &f = m_findings.at(index.row());
    if (f.repair.isEmpty())
        return Qt::ItemIsSelectable; // shown, greyed: guidance only
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.column() == SeverityColumn)
        flags |= Qt::ItemIsUserCheckable;
    return flags;
}

QVariant RepairFindingsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_findings.size())
        return {};
    const Finding &f = m_findings.at(index.row());
    if (role == Qt::CheckStateRole && index.column() == SeverityColumn && !f.repair.isEmpty())
        return m_ticked.contains(f.identity()) ? Qt::Checked : Qt::Unchecked;
    if (role == Qt::DecorationRole && index.column() == SeverityColumn) {
        return HealthBadge::severityIcon(f.severity);
    }
    if (role == Qt::ToolTipRole) {
        if (!f.repair.isEmpty() || index.column() != RepairColumn)
            return f.detail.toString();
        // What the operator can do instead, from the catalogue.
        const FindingCatalogue::Entry *entry = FindingCatalogue::entry(f.code);
        return entry && !entry->guidance.isEmpty() ? tr("No automatic repair. What to do instead: %1").arg(entry->guidance)
                                                   : tr("No automatic repair: %1").arg(f.detail);
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case SeverityColumn: return Finding::severityName(f.severity);
    case CodeColumn: return f.code;
    case ObjectColumn: {
        const QString where = DisplayFormat::findingWhere(f);
        if (!m_showAccount || f.account.isEmpty())
            return where;
        return where.isEmpty() ? f.account : tr("%1 · %2").arg(f.account, where);
    }
    case TitleColumn: return f.title.toString();
    case RepairColumn: return f.repair.isEmpty() ? tr("guidance only") : f.repair;
    default: return {};
    }
}

bool RepairFindingsModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::CheckStateRole || !index.isValid() || index.column() != SeverityColumn || index.row() >= m_findings.size())
        return false;
    const Finding &f = m_findings.at(index.row());
    if (f.repair.isEmpty())
        return false;
    if (value.value<Qt::CheckState>() == Qt::Checked)
        m_ticked.insert(f.identity());
    else
        m_ticked.remove(f.identity());
    emit dataChanged(index, index, {Qt::CheckStateRole});
    emit selectionChanged();
    return true;
}

} // namespace MqttDoctor
