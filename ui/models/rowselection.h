#pragma once

#include <QList>
#include <QString>
#include <QStringList>

class QAbstractItemModel;
class QItemSelectionModel;

namespace MqttDoctor {

class ClientEventModel;
class ClusterFindingsModel;
class ConsumerTableModel;
class InflightTableModel;
class PinnedTableModel;
class RetainedTableModel;
class SessionTableModel;

/**
 * What the selected rows of one of the account's tables (or the cluster's findings) are about, in the terms
 * the row actions need: the MQTT client IDs and retained topics an operator action would take, the stored
 * records a "Back Up Selection…" writes (stream and subject), and, only when asked for (Detail::Texts), what
 * the Copy actions put on the clipboard. Made from a model and the selected rows (the model's own rows, not
 * a proxy's). Pure; GUI thread (it reads the models).
 */
struct RowSelection
{
    enum class Source { Sessions, Retained, Inflight, Pinned, Consumers, Activity, Findings };
    /** Ids: client IDs, topics and records (cheap, for the menu's counts); Texts: also payloads and JSON (for Copy). */
    enum class Detail { Ids, Texts };

    /** A stored record the selection's backup reads: a subject of a stream. */
    struct Record
    {
        QString stream;
        QString subject;
        bool operator==(const Record &other) const = default;
    };

    Source source = Source::Sessions;
    QString account; ///< the account of the rows; empty when they belong to several (findings) or none
    QStringList accounts; ///< every account of the rows (one for an account's tables)
    int rows = 0; ///< rows selected
    QStringList clientIds; ///< distinct, in row order
    QStringList topics; ///< Retained: the decodable messages' topics, distinct, in row order
    QList<Record> records; ///< distinct
    QStringList payloads; ///< Texts, Retained: each message's payload as text
    QStringList json; ///< Texts: each row's record (or row) as compact JSON

    bool isEmpty() const { return rows == 0; }
    /** Several accounts' rows: an operator action takes one account's. */
    bool spansAccounts() const { return accounts.size() > 1; }

    static RowSelection ofSessions(const SessionTableModel &model, const QList<int> &rows, const QString &account, Detail detail);
    static RowSelection ofRetained(const RetainedTableModel &model, const QList<int> &rows, const QString &account, Detail detail);
    static RowSelection ofInflight(const InflightTableModel &model, const QList<int> &rows, const QString &account, Detail detail);
    static RowSelection ofPinned(const PinnedTableModel &model, const QList<int> &rows, const QString &account, Detail detail);
    static RowSelection ofConsumers(const ConsumerTableModel &model, const QList<int> &rows, const QString &account, Detail detail);
    static RowSelection ofEvents(const ClientEventModel &model, const QList<int> &rows, Detail detail);
    static RowSelection ofFindings(const ClusterFindingsModel &model, const QList<int> &rows, Detail detail);

    /** The rows `selection` selects, ascending (read from its ranges: a million selected rows make no index each). */
    static QList<int> selectedRows(const QItemSelectionModel *selection);
    /**
     * The rows of `model` that `proxyRows` (rows of a chain of proxies over it, the outermost `proxy`) stand
     * for, in the proxy's order; rows of another model are left out.
     */
    static QList<int> sourceRows(const QAbstractItemModel *proxy, const QList<int> &proxyRows, const QAbstractItemModel *model);
};

} // namespace MqttDoctor
