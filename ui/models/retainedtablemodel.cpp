#include "retainedtablemodel.h"

#include <QBrush>
#include <QColor>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>

#include "models/displayformat.h"

namespace MqttDoctor {

namespace {

QString elided(const QString &text, int maxChars)
{
    if (maxChars <= 0 || text.size() <= maxChars)
        return text;
    return text.left(maxChars) + QChar(0x2026);
}

QString escapedText(const QByteArray &payload)
{
    const QString text = QString::fromUtf8(payload);
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

} // namespace

RetainedTableModel::RetainedTableModel(QObject *parent) : QAbstractTableModel(parent) {}

RetainedTableModel::~RetainedTableModel() = default;

void RetainedTableModel::appendBatch(QList<RetainedEntry> &&batch)
{
    if (batch.isEmpty())
        return;
    const int first = int(m_entries.size());
    beginInsertRows({}, first, first + int(batch.size()) - 1);
    m_entries.append(std::move(batch));
    endInsertRows();
}

void RetainedTableModel::replaceAll(QList<RetainedEntry> &&entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    endResetModel();
}

void RetainedTableModel::clear()
{
    if (m_entries.isEmpty())
        return;
    beginResetModel();
    m_entries.clear();
    endResetModel();
}

const RetainedEntry *RetainedTableModel::entryAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? &m_entries[row] : nullptr;
}

int RetainedTableModel::rowOf(const QString &topic) const
{
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].record && m_entries[i].record->topic == topic)
            return i;
    return -1;
}

void RetainedTableModel::setPayloadMode(PayloadMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    if (!m_entries.isEmpty())
        emit dataChanged(index(0, PayloadColumn), index(rowCount() - 1, PayloadColumn));
}

QString RetainedTableModel::formatPayload(const QByteArray &payload, PayloadMode mode, int maxChars, bool indented)
{
    switch (mode) {
    case PayloadMode::Text: return elided(escapedText(payload), maxChars);
    case PayloadMode::Hex: {
        const QByteArray part = maxChars > 0 ? payload.left(maxChars / 3 + 1) : payload;
        QString hex = QString::fromLatin1(part.toHex(' '));
        return part.size() < payload.size() ? elided(hex, maxChars) + QChar(0x2026) : elided(hex, maxChars);
    }
    case PayloadMode::Json: {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(payload, &error);
        if (error.error != QJsonParseError::NoError)
            return elided(tr("not JSON (%1): %2").arg(error.errorString(), escapedText(payload)), maxChars);
        const QString json = QString::fromUtf8(doc.toJson(indented ? QJsonDocument::Indented : QJsonDocument::Compact));
        return elided(indented ? json : json.trimmed(), maxChars);
    }
    }
    return {};
}

int RetainedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int RetainedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RetainedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn: return tr("Topic");
    case QosColumn: return tr("QoS");
    case SizeColumn: return tr("Size");
    case PayloadColumn:
        switch (m_mode) {
        case PayloadMode::Text: return tr("Payload (text)");
        case PayloadMode::Hex: return tr("Payload (hex)");
        case PayloadMode::Json: return tr("Payload (JSON)");
        }
        return {};
    case StoredColumn: return tr("Stored");
    default: return {};
    }
}

QVariant RetainedTableModel::displayData(const RetainedEntry &e, int column) const
{
    if (!e.record) {
        switch (column) {
        case TopicColumn: return tr("(undecodable)");
        case SizeColumn: return DisplayFormat::bytes(e.storedBytes);
        case PayloadColumn: return e.problem;
        case StoredColumn: return QLocale().toString(e.time.toLocalTime(), QLocale::ShortFormat);
        default: return QStringLiteral("—");
        }
    }
    const RetainedRecord &r = *e.record;
    switch (column) {
    case TopicColumn: return r.topic;
    case QosColumn: return r.qos();
    case SizeColumn: return DisplayFormat::bytes(r.payload.size());
    case PayloadColumn:
        if (r.isDeleteMarker)
            return tr("(delete marker)");
        // A Sparkplug B birth is protobuf: say what it is, then its bytes.
        if (const auto birth = r.sparkplugBirth())
            return tr("(%1) %2").arg(birth->description(), formatPayload(r.payload, m_mode, 80));
        return formatPayload(r.payload, m_mode, 120);
    case StoredColumn: return QLocale().toString(e.time.toLocalTime(), QLocale::ShortFormat);
    default: return {};
    }
}

QVariant RetainedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RetainedEntry &e = m_entries[index.row()];
    switch (role) {
    case Qt::DisplayRole: return displayData(e, index.column());
    case Qt::ForegroundRole: return e.record ? QVariant() : QVariant(QBrush(QColor(0xb0, 0x20, 0x20)));
    case Qt::TextAlignmentRole:
        if (index.column() == QosColumn || index.column() == SizeColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case SortRole:
        switch (index.column()) {
        case QosColumn: return e.record ? e.record->qos() : -1;
        case SizeColumn: return e.record ? qint64(e.record->payload.size()) : e.storedBytes;
        case StoredColumn: return e.time.toMSecsSinceEpoch();
        default: return displayData(e, index.column());
        }
    case TopicRole: return e.record ? e.record->topic : QString();
    default: return {};
    }
}

} // namespace MqttDoctor
