#include "streamtablemodel.h"

#include <limits>

#include "models/displayformat.h"

namespace MqttDoctor {

namespace {

qint64 configNumber(const StreamInfo &s, const char *key)
{
    return s.config.value(QLatin1String(key)).toInteger();
}

QString configText(const StreamInfo &s, const char *key)
{
    return s.config.value(QLatin1String(key)).toString();
}

bool isNumeric(int column)
{
    switch (column) {
    case StreamTableModel::ReplicasColumn:
    case StreamTableModel::MaxMsgsPerSubjectColumn:
    case StreamTableModel::MessagesColumn:
    case StreamTableModel::BytesColumn:
    case StreamTableModel::ConsumersColumn: return true;
    default: return false;
    }
}

int alignment(int column)
{
    const Qt::Alignment a = isNumeric(column) ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter;
    return a.toInt();
}

} // namespace

StreamTableModel::StreamTableModel(QObject *parent) : QAbstractTableModel(parent) {}

StreamTableModel::~StreamTableModel() = default;

void StreamTableModel::setStreams(const QList<StreamInfo> &streams)
{
    bool sameRows = streams.size() == m_streams.size();
    for (qsizetype i = 0; sameRows && i < streams.size(); ++i)
        sameRows = streams[i].name == m_streams[i].name;
    if (sameRows) {
        m_streams = streams;
        if (!m_streams.isEmpty())
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_streams = streams;
    endResetModel();
}

void StreamTableModel::clear()
{
    setStreams({});
}

const StreamInfo *StreamTableModel::streamAt(int row) const
{
    if (row < 0 || row >= m_streams.size())
        return nullptr;
    return &m_streams[row];
}

int StreamTableModel::rowOf(const QString &name) const
{
    for (qsizetype i = 0; i < m_streams.size(); ++i)
        if (m_streams[i].name == name)
            return static_cast<int>(i);
    return -1;
}

int StreamTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_streams.size());
}

int StreamTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StreamTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return alignment(section);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MaxMsgsPerSubjectColumn: return tr("max_msgs_per_subject: how many messages the stream keeps per subject");
        case ReplicasColumn: return tr("num_replicas: copies of the stream in the cluster");
        case LeaderColumn: return tr("The server that leads the stream's replica group");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Stream");
    case SubjectsColumn: return tr("Subjects");
    case RetentionColumn: return tr("Retention");
    case StorageColumn: return tr("Storage");
    case ReplicasColumn: return tr("Replicas");
    case MaxMsgsPerSubjectColumn: return tr("Per subject");
    case MessagesColumn: return tr("Messages");
    case BytesColumn: return tr("Bytes");
    case ConsumersColumn: return tr("Consumers");
    case LeaderColumn: return tr("Leader");
    default: return {};
    }
}

QVariant StreamTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const StreamInfo &stream = m_streams[index.row()];
    switch (role) {
    case Qt::DisplayRole: return displayData(stream, index.column());
    case Qt::TextAlignmentRole: return alignment(index.column());
    case Qt::ToolTipRole:
        if (index.column() == NameColumn && stream.isLegacySession())
            return DisplayFormat::legacySessionStreamNote();
        if (index.column() == SubjectsColumn)
            return DisplayFormat::subjectList(stream).join(QLatin1Char('\n'));
        if (index.column() == BytesColumn)
            return tr("%1 bytes").arg(DisplayFormat::count(DisplayFormat::streamBytes(stream)));
        if (index.column() == LeaderColumn && DisplayFormat::leader(stream).isEmpty())
            return tr("The reply named no leader (a stream on a single server has no replica group).");
        return {};
    case StreamNameRole: return stream.name;
    case SortRole: return sortData(stream, index.column());
    case LegacyRole: return stream.isLegacySession();
    default: return {};
    }
}

QVariant StreamTableModel::displayData(const StreamInfo &s, int column) const
{
    switch (column) {
    case NameColumn: return s.isLegacySession() ? tr("%1 (legacy)").arg(s.name) : s.name;
    case SubjectsColumn: return DisplayFormat::subjects(s);
    case RetentionColumn: return configText(s, "retention");
    case StorageColumn: return configText(s, "storage");
    case ReplicasColumn: return DisplayFormat::count(configNumber(s, "num_replicas"));
    case MaxMsgsPerSubjectColumn: return DisplayFormat::limit(configNumber(s, "max_msgs_per_subject"), false, true);
    case MessagesColumn: return DisplayFormat::count(DisplayFormat::messages(s));
    case BytesColumn: return DisplayFormat::bytes(DisplayFormat::streamBytes(s));
    case ConsumersColumn: return DisplayFormat::count(DisplayFormat::consumers(s));
    case LeaderColumn: {
        const QString leader = DisplayFormat::leader(s);
        return leader.isEmpty() ? QStringLiteral("—") : leader;
    }
    default: return {};
    }
}

QVariant StreamTableModel::sortData(const StreamInfo &s, int column) const
{
    switch (column) {
    case NameColumn: return s.name;
    case SubjectsColumn: return DisplayFormat::subjects(s);
    case RetentionColumn: return configText(s, "retention");
    case StorageColumn: return configText(s, "storage");
    case ReplicasColumn: return configNumber(s, "num_replicas");
    case MaxMsgsPerSubjectColumn: {
        // "unlimited" sorts after every limit.
        const qint64 v = configNumber(s, "max_msgs_per_subject");
        return v <= 0 ? std::numeric_limits<qint64>::max() : v;
    }
    case MessagesColumn: return DisplayFormat::messages(s);
    case BytesColumn: return DisplayFormat::streamBytes(s);
    case ConsumersColumn: return qint64(DisplayFormat::consumers(s));
    case LeaderColumn: return DisplayFormat::leader(s);
    default: return {};
    }
}

} // namespace MqttDoctor
