#include "clusterfindingsmodel.h"

#include "models/healthbadge.h"

namespace MqttDoctor {

ClusterFindingsModel::ClusterFindingsModel(QObject *parent) : QAbstractTableModel(parent) {}

ClusterFindingsModel::~ClusterFindingsModel() = default;

void ClusterFindingsModel::setFindings(const QList<Finding> &findings)
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
    const Finding &f = m_findings.at(index.row());
    if (role == AccountRole)
        return f.account;
    if (role == Qt::DecorationRole && index.column() == SeverityColumn) {
        return HealthBadge::severityIcon(f.severity);
    }
    if (role == Qt::ToolTipRole)
        return f.detail.toString();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case AccountColumn: return f.account.isEmpty() ? tr("(cluster)") : f.account;
    case SeverityColumn: return role == SortRole ? QVariant(int(f.severity)) : QVariant(Finding::severityName(f.severity));
    case CodeColumn: return f.code;
    case StreamColumn: return f.stream;
    case ClientColumn: return f.clientId;
    case TitleColumn: return f.title.toString();
    default: return {};
    }
}

} // namespace MqttDoctor
