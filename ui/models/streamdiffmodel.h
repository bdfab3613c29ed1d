#pragma once

#include <QAbstractItemModel>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

#include "mqtt/layoutchoice.h"
#include "mqtt/mqttstreamspec.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * An account's MQTT streams, expected (the layout the servers' versions call for, Layouts::choose)
 * beside actual (the config the server reports): one top-level row per stream, its compared fields
 * (MqttStreamSpec::comparedFields) as children, DiffersRole true where MqttStreamSpec::differences
 * says the actual value is not what nats-server creates. diffText() is the repair planner's
 * natscli-style `-old +new` diff (StreamConfigEdit::renderDiff), old = actual, new = expected.
 * GUI thread only; setComparison() resets the model.
 */
class StreamDiffModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StreamDiffModel)

public:
    enum Column { NameColumn, ExpectedColumn, ActualColumn, ColumnCount };
    enum class Status {
        Matches, ///< every compared field is as expected
        Differs, ///< at least one compared field differs
        Missing, ///< the layout has the stream, the account does not
        NotInLayout, ///< the account has it, the layout does not (legacy per-session streams, $MQTT_qos2in on 2.9)
        Unknown, ///< the stream exists but its config was not reported
    };
    Q_ENUM(Status)
    enum Role {
        DiffersRole = Qt::UserRole + 1, ///< bool: stream rows with a difference, field rows that differ
        StatusRole, ///< Status (stream rows)
        StreamNameRole, ///< QString (both kinds of rows)
        FieldRole, ///< QString (field rows)
    };

    explicit StreamDiffModel(QObject *parent = nullptr);
    ~StreamDiffModel() override;

    /** Compares `streams` (the account's, with their configs) with `choice`'s layout. */
    void setComparison(const LayoutChoice &choice, const QList<StreamInfo> &streams);
    void clear();

    const LayoutChoice &choice() const { return m_choice; }
    /** The top-level row of a stream, -1 when absent. */
    int streamRow(const QString &name) const;
    Status status(int streamRow) const;
    /** `-field: actual` / `+field: expected` lines; for a missing stream the `+` lines of its create config. */
    QString diffText(int streamRow) const;
    /** Every stream's diff under a `--- name` header, streams without a difference left out. */
    QString allDiffText() const;
    /** Streams whose status is Differs or Missing. */
    int problemStreams() const;
    static QString statusText(Status status);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Field
    {
        QString name;
        QString expected;
        QString actual;
        bool differs = false;
    };
    struct Entry
    {
        QString name;
        QString label;
        Status status = Status::Matches;
        QList<Field> fields;
        QString diff;
    };

    static Entry compare(const std::optional<MqttStreamSpec> &spec, const StreamInfo *actual, const QString &name);
    QVariant streamData(const Entry &entry, int column, int role) const;
    QVariant fieldData(const Entry &entry, const Field &field, int column, int role) const;

    LayoutChoice m_choice;
    QList<Entry> m_entries;
};

} // namespace MqttDoctor
