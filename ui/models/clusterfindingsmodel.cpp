#include "clusterfindingsmodel.h"

#include "models/healthbadge.h"

namespace MqttDoctor {

ClusterFindingsModel::ClusterFindingsModel(QObject *parent) : QAbstractTableModel(parent) {}

ClusterFindingsModel::~ClusterFindingsModel() = default;

void ClusterFindingsModel::setFindings(const FindingList &findings)
{
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

int ClusterFindingsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int ClusterFindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AccountColumn: return tr("Account");
    case SeverityColumn: return tr("Severity");
    case CodeColumn: return tr("Code");
    case StreamColumn: return tr("Stream");
    case ClientColumn: return tr("Client ID");
    case TitleColumn: return tr("Finding");
    default: return {};
    }
}

QVariant ClusterFindingsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_findings.size())
        return {};
    // What every row of a group shares is read without making the finding (FindingList::summaryAt).
    const Finding &s = m_findings.summaryAt(index.row());
    if (role == AccountRole)
        return s.account;
    if (role == Qt::DecorationRole && index.column() == SeverityColumn) {
        return HealthBadge::severityIcon(s.severity);
    }
    if (role == Qt::ToolTipRole)
        return m_findings.at(index.row()).detail.toString();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case AccountColumn: return s.account.isEmpty() ? tr("(cluster)") : s.account;
    case SeverityColumn: return role == SortRole ? QVariant(int(s.severity)) : QVariant(Finding::severityName(s.severity));
    case CodeColumn: return s.code;
    case StreamColumn: return s.stream;
    case ClientColumn: return m_findings.at(index.row()).clientId;
    case TitleColumn: return m_findings.at(index.row()).title.toString();
    default: return {};
    }
}

} // namespace MqttDoctor
