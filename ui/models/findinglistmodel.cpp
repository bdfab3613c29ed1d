#include "findinglistmodel.h"

#include "models/healthbadge.h"

namespace MqttDoctor {

FindingListModel::FindingListModel(QObject *parent) : QAbstractTableModel(parent) {}

FindingListModel::~FindingListModel() = default;

void FindingListModel::setFindings(const QList<Finding> &findings)
{
    beginResetModel();
    m_findings = findings;
    endResetModel();
}

void FindingListModel::clear()
{
    setFindings({});
}

const Finding *FindingListModel::findingAt(int row) const
{
    return row >= 0 && row < m_findings.size() ? &m_findings[row] : nullptr;
}

QString FindingListModel::summary() const
{
    if (m_findings.isEmpty())
        return tr("no findings");
    // Counted in one pass (a million findings: four passes were a noticeable pause of the GUI thread).
    qsizetype counts[int(Finding::Severity::Critical) + 1] = {};
    for (const Finding &f : m_findings)
        ++counts[int(f.severity)];
    QStringList parts;
    for (Finding::Severity s : {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning,
                                Finding::Severity::Info}) {
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
    const Finding &f = m_findings[index.row()];
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
        switch (index.column()) {
        case SeverityColumn: return Finding::severityName(f.severity);
        case CodeColumn: return f.code;
        case TitleColumn: return f.title.toString();
        case WhereColumn: return where();
        default: return {};
        }
    case Qt::DecorationRole:
        return index.column() == SeverityColumn ? QVariant(HealthBadge::severityIcon(f.severity)) : QVariant();
    case Qt::ToolTipRole:
        return index.column() == TitleColumn ? QVariant(f.detail.toString()) : QVariant();
    case FindingRole:
        return QVariant::fromValue(f);
    case SeverityRole:
        return int(f.severity);
    case SortRole:
        return index.column() == SeverityColumn ? QVariant(int(f.severity)) : data(index, Qt::DisplayRole);
    default:
        return {};
    }
}

} // namespace MqttDoctor
