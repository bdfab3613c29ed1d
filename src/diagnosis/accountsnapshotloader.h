#pragma once

#include <atomic>

#include <QList>
#include <QString>

#include "common/result.h"
#include "diagnosis/accountsnapshot.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

class ConnectionSet;

/**
 * Loads an AccountSnapshot: what one refresh of one account reads, each thing once.
 *
 * - the servers: as the connection set knows them (Discovery::knownServers: discovered once, asked
 *   again only when the set's roster changed), never pinged per load;
 * - the account: Discovery::account (its own JetStream API: `INFO`, `STREAM.LIST`, the `$MQTT_rmsgs`
 *   subject count and `CONSUMER.LIST` of the MQTT streams, or the system JSZ view);
 * - its records, where the profile can read them (AccountRecordAccess): the consumers are those the
 *   account's `CONSUMER.LIST` gave (asked again only when the account came from the system view),
 *   CONNZ once through the system connection, `$MQTT_sess` once with one ordered consumer, using the
 *   stream infos already read (no STREAM.INFO or STREAM.NAMES again).
 *
 * The consumers and CONNZ are read before the sessions so that each batch of sessions is joined as it
 * arrives (the GUI shows rows while the rest loads): a session written in between may show a durable
 * as missing, which the create_consumer repair re-checks before it acts.
 *
 * Blocking: call on a worker thread. One loader may be used by one thread at a time.
 */
class AccountSnapshotLoader final
{
public:
    struct Options
    {
        /** Read the records (consumers, CONNZ, sessions) where the credentials allow. */
        bool records = true;
        /** Read the records only when the checks look at them (the account has `$MQTT_sess`): the CLI's check. */
        bool recordsOnlyWhenChecked = false;
        /** Read `$MQTT_sess` (false: everything else; streamSessions() reads them later without keeping them). */
        bool sessions = true;
        /** Also the records left in legacy `$MQTT_sess_<hash>` streams (legacySessions; a listing wants them). */
        bool includeLegacy = false;
        /** Also the retained messages' topics and sizes (records.retained): what upgrade readiness looks at. */
        bool retainedTopics = false;
        int batchSize = 2048;
        const std::atomic<bool> *cancel = nullptr;
        /**
         * Called per batch of joined sessions as they are read (`$MQTT_sess`'s, then the legacy ones), on
         * the loading thread; return false to stop (the snapshot's sessions are then incomplete).
         */
        SessionLoader::BatchHandler onSessions;
    };

    explicit AccountSnapshotLoader(ConnectionSet &connections);

    /**
     * One account (empty: the primary connection's). Fails only when the servers or the account cannot
     * be read; records that cannot be read leave recordsError and a note.
     */
    Result<AccountSnapshot> load(const QString &account, const Options &options);
    /**
     * An account another view already listed (every-account checks, `known` from JSZ), with the servers
     * known: its own view where the profile has its credentials (else, or when that fails, `known`
     * with a note), and its records when they are checked. Never fails.
     */
    AccountSnapshot load(const QList<ServerInfo> &servers, const AccountInfo &known, bool ownView, const Options &options);

    /**
     * The sessions of a snapshot loaded with `sessions` false, read now with its source, consumers and
     * CONNZ and its `$MQTT_sess` info: what a streamed listing calls (filter, limit and batch size
     * from `options`; dialect, domain and known streams are the snapshot's). Blocking.
     */
    static Result<ReadSummary> streamSessions(const AccountSnapshot &snapshot, SessionLoadOptions options,
                                              const SessionLoader::BatchHandler &onBatch, bool *truncated = nullptr);

    /**
     * The servers' MQTT set-up of one account (AccountSnapshot::managers) through the system connection;
     * without one, a note when it matters (`$MQTT_rmsgs` has no server's retained-message consumer). Only what
     * checks the account calls it (a listing has no use for it): DiagnosisGatherer, the GUI's account refresh.
     * Blocking.
     */
    static void readManagers(ConnectionSet &connections, AccountSnapshot &snapshot);
    /**
     * The note of an account whose `$MQTT_rmsgs` has no retained-message consumer at all and was made later than
     * `$MQTT_sess` (not in the servers' own set-up), read without a system connection.
     */
    static std::optional<CoverageGap> managersUnknown(const AccountInfo &account);

private:
    void readRecords(AccountSnapshot &snapshot, const Options &options);

    ConnectionSet &m_connections;
};

} // namespace MqttDoctor
