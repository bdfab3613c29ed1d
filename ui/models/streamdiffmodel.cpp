#include "streamdiffmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QSet>

#include "mqtt/mqttlayout.h"
#include "repair/actions/streamconfigedit.h"

namespace MqttDoctor {

namespace {

constexpr quintptr kTopLevel = 0;

const QColor kDiffersBackground(0xfd, 0xe2, 0xe2);
const QColor kDiffersText(0xa3, 0x1f, 0x1f);
const QColor kMissingText(0x8a, 0x5a, 0x00);

} // namespace

StreamDiffModel::StreamDiffModel(QObject *parent) : QAbstractItemModel(parent) {}

StreamDiffModel::~StreamDiffModel() = default;

StreamDiffModel::Entry StreamDiffModel::compare(const std::optional<MqttStreamSpec> &spec, const StreamInfo *actual, const QString &name)
{
    Entry e;
    e.name = name;
    e.label = spec ? spec->label : QString();
    const QStringList fields = MqttStreamSpec::comparedFields();
    const bool configKnown = actual && !actual->config.isEmpty();
    const QJsonObject expected = spec ? spec->comparedValues() : QJsonObject();
    const QJsonObject current = configKnown ? StreamConfigEdit::currentValues(actual->config, fields) : QJsonObject();
    QSet<QString> differing;
    if (spec && configKnown)
        for (const MqttStreamSpec::Difference &d : spec->differences(actual->config))
            differing.insert(d.field);

    if (!spec)
        e.status = Status::NotInLayout;
    else if (!actual)
        e.status = Status::Missing;
    else if (!configKnown)
        e.status = Status::Unknown;
    else
        e.status = differing.isEmpty() ? Status::Matches : Status::Differs;

    const QString absent = actual ? tr("(not reported)") : tr("(no such stream)");
    for (const QString &f : fields) {
        Field field;
        field.name = f;
        field.expected = spec ? StreamConfigEdit::renderValue(expected.value(f)) : tr("(not in the layout)");
        field.actual = configKnown ? StreamConfigEdit::renderValue(current.value(f)) : absent;
        field.differs = differing.contains(f) || e.status == Status::Missing;
        e.fields.append(field);
    }
    // The repair planner's own rendering: nothing is re-implemented here.
    if (e.status == Status::Differs)
        e.diff = StreamConfigEdit::renderDiff(current, expected);
    else if (e.status == Status::Missing)
        e.diff = StreamConfigEdit::renderCreateDiff(spec->createConfig());
    return e;
}

void StreamDiffModel::setComparison(const LayoutChoice &choice, const QList<StreamInfo> &streams)
{
    beginResetModel();
    m_choice = choice;
    m_entries.clear();
    QSet<QString> seen;
    // The layout's streams first, in the order the server creates them; then any other MQTT stream.
    for (const MqttStreamSpec &spec : choice.layout.streams()) {
        const auto it = std::find_if(streams.cbegin(), streams.cend(), [&](const StreamInfo &s) { return s.name == spec.name; });
        m_entries.append(compare(spec, it == streams.cend() ? nullptr : &*it, spec.name));
        seen.insert(spec.name);
    }
    for (const StreamInfo &s : streams) {
        if (seen.contains(s.name) || !(MqttLayout::isMqttStreamName(s.name) || MqttLayout::isLegacySessionStream(s.name)))
            continue;
        m_entries.append(compare(std::nullopt, &s, s.name));
    }
    endResetModel();
}

void StreamDiffModel::clear()
{
    beginResetModel();
    m_choice = {};
    m_entries.clear();
    endResetModel();
}

int StreamDiffModel::streamRow(const QString &name) const
{
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].name == name)
            return i;
    return -1;
}

StreamDiffModel::Status StreamDiffModel::status(int streamRow) const
{
    return streamRow >= 0 && streamRow < m_entries.size() ? m_entries[streamRow].status : Status::Unknown;
}

QString StreamDiffModel::diffText(int streamRow) const
{
    return streamRow >= 0 && streamRow < m_entries.size() ? m_entries[streamRow].diff : QString();
}

QString StreamDiffModel::allDiffText() const
{
    QStringList parts;
    for (const Entry &e : m_entries)
        if (!e.diff.isEmpty())
            parts << QStringLiteral("--- %1 (%2)\n%3").arg(e.name, statusText(e.status), e.diff);
    return parts.join(QStringLiteral("\n\n"));
}

int StreamDiffModel::problemStreams() const
{
    return int(std::count_if(m_entries.cbegin(), m_entries.cend(),
                             [](const Entry &e) { return e.status == Status::Differs || e.status == Status::Missing; }));
}

QString StreamDiffModel::statusText(Status status)
{
    switch (status) {
    case Status::Matches: return tr("as expected");
    case Status::Differs: return tr("differs");
    case Status::Missing: return tr("missing");
    case Status::NotInLayout: return tr("not in the layout");
    case Status::Unknown: return tr("config not reported");
    }
    return {};
}

QModelIndex StreamDiffModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kTopLevel);
    // A field row carries its stream's row + 1.
    return createIndex(row, column, quintptr(parent.row()) + 1);
}

QModelIndex StreamDiffModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int StreamDiffModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_entries.size());
    if (parent.column() != 0 || parent.internalId() != kTopLevel)
        return 0;
    return int(m_entries[parent.row()].fields.size());
}

int StreamDiffModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant StreamDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Stream / field");
    case ExpectedColumn: return tr("Expected");
    case ActualColumn: return tr("Actual");
    default: return {};
    }
}

QVariant StreamDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (index.internalId() == kTopLevel)
        return streamData(m_entries[index.row()], index.column(), role);
    const Entry &entry = m_entries[int(index.internalId() - 1)];
    return fieldData(entry, entry.fields[index.row()], index.column(), role);
}

QVariant StreamDiffModel::streamData(const Entry &e, int column, int role) const
{
    const bool problem = e.status == Status::Differs || e.status == Status::Missing;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return e.label.isEmpty() ? e.name : QStringLiteral("%1 (%2)").arg(e.name, e.label);
        case ExpectedColumn:
            return e.status == Status::NotInLayout ? tr("—") : tr("%1 layout").arg(MqttLayout::kindName(m_choice.layout.kind()));
        case ActualColumn: {
            if (e.status != Status::Differs)
                return statusText(e.status);
            const auto n = std::count_if(e.fields.cbegin(), e.fields.cend(), [](const Field &f) { return f.differs; });
            return n == 1 ? tr("1 field differs") : tr("%1 fields differ").arg(n);
        }
        default: return {};
        }
    case Qt::FontRole: {
        QFont font;
        font.setBold(true);
        return font;
    }
    case Qt::ForegroundRole:
        if (column == ActualColumn && e.status == Status::Missing)
            return QBrush(kMissingText);
        if (column == ActualColumn && problem)
            return QBrush(kDiffersText);
        return {};
    case Qt::ToolTipRole: return e.diff.isEmpty() ? QVariant() : QVariant(e.diff);
    case DiffersRole: return problem;
    case StatusRole: return QVariant::fromValue(e.status);
    case StreamNameRole: return e.name;
    default: return {};
    }
}

QVariant StreamDiffModel::fieldData(const Entry &e, const Field &f, int column, int role) const
{
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return f.name;
        case ExpectedColumn: return f.expected;
        case ActualColumn: return f.actual;
        default: return {};
        }
    case Qt::BackgroundRole: return f.differs ? QVariant(QBrush(kDiffersBackground)) : QVariant();
    case Qt::ForegroundRole: return f.differs && column == ActualColumn ? QVariant(QBrush(kDiffersText)) : QVariant();
    case Qt::FontRole:
        if (column != NameColumn) {
            QFont font(QStringLiteral("monospace"));
            font.setStyleHint(QFont::TypeWriter);
            font.setBold(f.differs);
            return font;
        }
        return {};
    case DiffersRole: return f.differs;
    case StreamNameRole: return e.name;
    case FieldRole: return f.name;
    default: return {};
    }
}

} // namespace MqttDoctor
