#include "rowselection.h"

#include <QAbstractProxyModel>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include "models/clienteventmodel.h"
#include "models/clusterfindingsmodel.h"
#include "models/consumertablemodel.h"
#include "models/inflighttablemodel.h"
#include "models/pinnedtablemodel.h"
#include "models/retainedtablemodel.h"
#include "models/sessiontablemodel.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {

/** Collects a selection's distinct values in row order. */
class SelectionBuilder
{
public:
    SelectionBuilder(RowSelection::Source source, RowSelection::Detail detail) : m_detail(detail) { m_out.source = source; }

    bool texts() const { return m_detail == RowSelection::Detail::Texts; }
    void row() { ++m_out.rows; }
    void account(const QString &account)
    {
        if (!account.isEmpty() && !m_out.accounts.contains(account))
            m_out.accounts << account;
    }
    void clientId(const QString &id)
    {
        if (!id.isEmpty() && !m_clientIds.contains(id)) {
            m_clientIds.insert(id);
            m_out.clientIds << id;
        }
    }
    void topic(const QString &topic)
    {
        if (!m_topics.contains(topic)) {
            m_topics.insert(topic);
            m_out.topics << topic;
        }
    }
    void record(const QString &stream, const QString &subject)
    {
        if (stream.isEmpty() || subject.isEmpty())
            return;
        const QString key = stream + u' ' + subject;
        if (!m_records.contains(key)) {
            m_records.insert(key);
            m_out.records << RowSelection::Record{stream, subject};
        }
    }
    void json(const QJsonObject &object) { m_out.json << QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact)); }
    void json(const QByteArray &stored) { m_out.json << QString::fromUtf8(stored); }
    void payload(const QString &text) { m_out.payloads << text; }

    RowSelection take()
    {
        m_out.account = m_out.accounts.size() == 1 ? m_out.accounts.first() : QString();
        return std::move(m_out);
    }

private:
    RowSelection::Detail m_detail;
    RowSelection m_out;
    QSet<QString> m_clientIds;
    QSet<QString> m_topics;
    QSet<QString> m_records;
};

} // namespace

QList<int> RowSelection::selectedRows(const QItemSelectionModel *selection)
{
    QList<int> rows;
    if (!selection)
        return rows;
    for (const QItemSelectionRange &range : selection->selection())
        for (int row = range.top(); row <= range.bottom(); ++row)
            rows << row;
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

QList<int> RowSelection::sourceRows(const QAbstractItemModel *proxy, const QList<int> &proxyRows, const QAbstractItemModel *model)
{
    QList<int> out;
    out.reserve(proxyRows.size());
    for (const int row : proxyRows) {
        QModelIndex index = proxy->index(row, 0);
        while (index.isValid() && index.model() != model) {
            const auto *step = qobject_cast<const QAbstractProxyModel *>(index.model());
            index = step ? step->mapToSource(index) : QModelIndex();
        }
        if (index.isValid())
            out << index.row();
    }
    return out;
}

RowSelection RowSelection::ofSessions(const SessionTableModel &model, const QList<int> &rows, const QString &account, Detail detail)
{
    SelectionBuilder b(Source::Sessions, detail);
    b.account(account);
    for (const int row : rows) {
        const SessionEntry *entry = model.entryAt(row);
        if (!entry)
            continue;
        b.row();
        b.clientId(entry->clientId);
        b.record(entry->isLegacy() ? entry->legacyStream : MqttLayout::sessionsStream(), entry->subject);
        if (!b.texts())
            continue;
        if (entry->record)
            b.json(entry->record->encode());
        else
            b.json(QJsonObject{{QStringLiteral("subject"), entry->subject},
                               {QStringLiteral("seq"), qint64(entry->seq)},
                               {QStringLiteral("problems"), QJsonArray::fromStringList(entry->problems())}});
    }
    return b.take();
}

RowSelection RowSelection::ofRetained(const RetainedTableModel &model, const QList<int> &rows, const QString &account, Detail detail)
{
    SelectionBuilder b(Source::Retained, detail);
    b.account(account);
    for (const int row : rows) {
        const RetainedEntry *entry = model.entryAt(row);
        if (!entry)
            continue;
        b.row();
        b.record(MqttLayout::retainedStream(), entry->storedSubject);
        if (entry->record)
            b.topic(entry->record->topic);
        if (!b.texts())
            continue;
        if (entry->record) {
            b.payload(RetainedTableModel::formatPayload(entry->record->payload, RetainedTableModel::PayloadMode::Text, 0));
            b.json(entry->record->encodeJson());
        } else {
            b.payload(entry->problem);
            b.json(QJsonObject{{QStringLiteral("subject"), entry->storedSubject},
                               {QStringLiteral("seq"), qint64(entry->seq)},
                               {QStringLiteral("problem"), entry->problem}});
        }
    }
    return b.take();
}

RowSelection RowSelection::ofInflight(const InflightTableModel &model, const QList<int> &rows, const QString &account, Detail detail)
{
    SelectionBuilder b(Source::Inflight, detail);
    b.account(account);
    const AccountInflight &inflight = model.inflight();
    for (const int row : rows) {
        if (row < 0 || row >= model.rowCount())
            continue;
        b.row();
        if (!model.isOrphanRow(row)) {
            const AccountInflight::Session &s = inflight.sessions.at(row);
            b.clientId(s.clientId);
            b.record(MqttLayout::sessionsStream(), s.subject);
            if (b.texts())
                b.json(s.toJson(inflight.now));
        } else {
            const Qos2Records::Orphans &o = inflight.orphans.at(row - inflight.sessions.size());
            b.record(o.stream, o.subjectFilter);
            if (b.texts())
                b.json(o.toJson());
        }
    }
    return b.take();
}

RowSelection RowSelection::ofPinned(const PinnedTableModel &model, const QList<int> &rows, const QString &account, Detail detail)
{
    SelectionBuilder b(Source::Pinned, detail);
    b.account(account);
    for (const int row : rows) {
        if (row < 0 || row >= model.holders().size())
            continue;
        const InterestHolder &h = model.holders().at(row);
        b.row();
        b.clientId(h.clientId);
        if (h.kind == InterestHolder::Kind::Session)
            b.record(MqttLayout::sessionsStream(), h.subject);
        if (b.texts())
            b.json(h.toJson());
    }
    return b.take();
}

RowSelection RowSelection::ofConsumers(const ConsumerTableModel &model, const QList<int> &rows, const QString &account, Detail detail)
{
    SelectionBuilder b(Source::Consumers, detail);
    b.account(account);
    for (const int row : rows) {
        if (row < 0 || row >= model.consumers().size())
            continue;
        const ConsumerRow &c = model.consumers().at(row);
        b.row();
        // Only an owner with a session (or a connection) has a client ID an action can take.
        if (c.owner == ConsumerOwner::Kind::Session || c.owner == ConsumerOwner::Kind::ConnectedClient)
            b.clientId(c.ownerClientId);
        if (b.texts())
            b.json(QJsonObject{{QStringLiteral("name"), c.name},
                               {QStringLiteral("stream"), c.stream},
                               {QStringLiteral("num_pending"), c.numPending},
                               {QStringLiteral("num_ack_pending"), c.numAckPending},
                               {QStringLiteral("hash"), c.hash},
                               {QStringLiteral("owner_client_id"), c.ownerClientId},
                               {QStringLiteral("orphan"), c.isOrphan()},
                               {QStringLiteral("note"), c.note}});
    }
    return b.take();
}

RowSelection RowSelection::ofEvents(const ClientEventModel &model, const QList<int> &rows, Detail detail)
{
    SelectionBuilder b(Source::Activity, detail);
    for (const int row : rows) {
        if (row < 0 || row >= model.rowCount())
            continue;
        const MqttClientEvent &e = model.eventAt(row);
        b.row();
        b.account(e.account);
        b.clientId(e.clientId);
        if (b.texts())
            b.json(e.toJson());
    }
    return b.take();
}

RowSelection RowSelection::ofFindings(const ClusterFindingsModel &model, const QList<int> &rows, Detail detail)
{
    SelectionBuilder b(Source::Findings, detail);
    const FindingList &findings = model.findings();
    for (const int row : rows) {
        if (row < 0 || row >= findings.size())
            continue;
        const Finding f = findings.at(row);
        b.row();
        b.account(f.account);
        b.clientId(f.clientId);
        // Only the records a finding names by subject: a session's or a retained message's.
        if (f.subject.startsWith(QStringLiteral("$MQTT.sess.")) || f.subject.startsWith(QStringLiteral("$MQTT.rmsgs")))
            b.record(f.stream.isEmpty() ? (f.subject.startsWith(QStringLiteral("$MQTT.sess.")) ? MqttLayout::sessionsStream()
                                                                                               : MqttLayout::retainedStream())
                                        : f.stream,
                     f.subject);
        if (b.texts())
            b.json(f.toJson());
    }
    return b.take();
}

} // namespace MqttDoctor
