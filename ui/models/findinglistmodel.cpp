#include "findinglistmodel.h"

#include "models/healthbadge.h"

namespace MqttDoctor {

FindingListModel::FindingListModel(QObject *parent) : QAbstractTableModel(parent) {}

FindingListModel::~FindingListModel() = default;

void FindingListModel::setFindings(const FindingList &findings)
{
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

void FindingListModel::clear()
{
    setFindings({});
}

std::optional<Finding> FindingListModel::findingAt(int row) const
{
    if (row < 0 || row >= m_findings.size())
        return std::nullopt;
    return m_findings.at(row);
}

QString FindingListModel::summary() const
{
    if (m_findings.isEmpty())
        return tr("no findings");
    // Counted in one pass (a million findings: four passes were a noticeable pause of the GUI thread).
    qsizetype counts[int(Finding::Severity::Critical) + 1] = {};
    for (qsizetype i = 0; i < m_findings.size(); ++i)
        ++counts[int(m_findings.summaryAt(i).severity)];
    QStringList parts;
    for (Finding::Severity s :
         {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning, Finding::Severity::Info}) {
        const qsizetype n = counts[int(s)];
        if (n > 0)
            parts << QStringLiteral("%1 %2%3").arg(n).arg(Finding::severityName(s), n == 1 ? QString() : QStringLiteral("s"));
    }
    return parts.join(QStringLiteral(", "));
}

int FindingListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SeverityColumn: return tr("Severity");
    case CodeColumn: return tr("Code");
    case TitleColumn: return tr("Finding");
    case WhereColumn: return tr("Stream / client");
    default: return {};
    }
}

QVariant FindingListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    // Severity and code without making the finding: what sorting asks a million rows for.
    const Finding &summary = m_findings.summaryAt(index.row());
    switch (role) {
    case SeverityRole: return int(summary.severity);
    case Qt::DecorationRole: return index.column() == SeverityColumn ? QVariant(HealthBadge::severityIcon(summary.severity)) : QVariant();
    case Qt::DisplayRole:
    case SortRole:
        if (index.column() == SeverityColumn)
            return role == SortRole ? QVariant(int(summary.severity)) : QVariant(Finding::severityName(summary.severity));
        if (index.column() == CodeColumn)
            return summary.code;
        break;
    case Qt::ToolTipRole:
        if (index.column() != TitleColumn)
            return {};
        break;
    case FindingRole: break;
    default: return {};
    }
    const Finding f = m_findings.at(index.row());
    const auto where = [&f] {
        QStringList parts;
        if (!f.stream.isEmpty())
            parts << f.stream;
        if (!f.clientId.isEmpty())
            parts << f.clientId;
        else if (!f.subject.isEmpty())
            parts << f.subject;
        return parts.join(QStringLiteral(" · "));
    };
    switch (role) {
    case Qt::DisplayRole:
    case SortRole:
        switch (index.column()) {
        case TitleColumn: return f.title.toString();
        case WhereColumn: return where();
        default: return {};
        }
    case Qt::ToolTipRole: return f.detail.toString();
    case FindingRole: return QVariant::fromValue(f);
    default: return {};
    }
}

} // namespace MqttDoctor
