#include "accountdatacontroller.h"

#include <QHash>
#include <QSet>

#include <algorithm>

#include "common/asyncrunner.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/streamreader.h"
#include "records/recordsource.h"

namespace MqttDoctor {

namespace {

constexpr int kStreamNotFound = 10059;

/** Consumer rows with their owners: the records that name a durable own it (ORPHAN_CONSUMER's rule). */
QList<ConsumerRow> consumerRows(const SessionLoader::ConsumerIndex &index, const QHash<QString, QString> &referencedBy,
                                const QHash<QString, QString> &clientOfHash)
{
    QList<ConsumerRow> rows;
    rows.reserve(index.size());
    for (const SessionLoader::ConsumerIndex::Entry &entry : index) {
        ConsumerRow row;
        row.name = entry.name;
        row.stream = entry.consumer.stream;
        row.numPending = entry.consumer.numPending;
        row.numAckPending = entry.consumer.numAckPending;
        row.hash = MqttLayout::durableOwnerHash(row.stream, row.name);
        row.ownerClientId = referencedBy.value(row.name);
        if (row.isOrphan()) {
            if (row.hash.isEmpty())
                row.orphanReason = AccountDataController::tr("Not a name the MQTT gateway gives its durables (<hash>_<id> or "
                                                             "$MQTT_PUBREL_<hash>), and no session record names it");
            else if (clientOfHash.contains(row.hash))
                row.orphanReason = AccountDataController::tr("The session record on hash %1 (%2) does not name this consumer")
                                       .arg(row.hash, clientOfHash.value(row.hash));
            else
                row.orphanReason = AccountDataController::tr("No session record on hash %1: its client's session is gone")
                                       .arg(row.hash);
        }
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end(), [](const ConsumerRow &a, const ConsumerRow &b) {
        return a.stream != b.stream ? a.stream < b.stream : a.name < b.name;
    });
    return rows;
}

} // namespace

AccountDataController::AccountDataController(QObject *parent)
    : QObject(parent), m_runner(std::make_unique<AsyncRunner>(4))
{
}

AccountDataController::~AccountDataController()
{
    shutdown();
}

void AccountDataController::setProfile(const Profile &profile)
{
    if (m_shutDown)
        return;
    dropAll();
    m_connections = std::make_shared<ConnectionSet>(profile);
}

void AccountDataController::setConnections(std::shared_ptr<ConnectionSet> connections)
{
    if (m_shutDown)
        return;
    dropAll();
    m_connections = std::move(connections);
}

void AccountDataController::clearProfile()
{
    dropAll();
}

bool AccountDataController::canReadRecords(const QString &account) const
{
    return m_connections && RecordSource::canResolve(*m_connections, account);
}

void AccountDataController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    for (Slot &s : m_slots) {
        ++s.generation;
        if (s.cancel)
            s.cancel->store(true);
        s.loading = false;
    }
    m_runner->shutdown(); // running reads notice their cancel flag within ~100 ms
    m_connections.reset();
}

void AccountDataController::dropAll()
{
    for (int i = 0; i < 5; ++i) {
        Slot &s = m_slots[i];
        ++s.generation;
        if (s.cancel)
            s.cancel->store(true);
        if (s.loading) {
            s.loading = false;
            emit loadingChanged(Load(i), false);
        }
    }
    std::shared_ptr<ConnectionSet> connections = std::move(m_connections);
    if (connections && !m_shutDown) // closing waits for nats.c's threads: never on the GUI thread
        static_cast<void>(m_runner->run([connections = std::move(connections)]() mutable { connections.reset(); }));
}

quint64 AccountDataController::begin(Load kind)
{
    Slot &s = slot(kind);
    if (s.cancel)
        s.cancel->store(true); // the superseded read stops early; its results are dropped anyway
    s.cancel = std::make_shared<std::atomic<bool>>(false);
    ++s.generation;
    if (!s.loading) {
        s.loading = true;
        emit loadingChanged(kind, true);
    }
    return s.generation;
}

template<typename Fn>
void AccountDataController::post(Load kind, quint64 generation, Fn &&fn)
{
    // Runs on a worker: queue onto the GUI thread; a newer load (or shutdown) makes it a no-op there.
    QMetaObject::invokeMethod(
        this,
        [this, kind, generation, fn = std::forward<Fn>(fn)]() {
            if (m_shutDown || slot(kind).generation != generation)
                return;
            fn();
        },
        Qt::QueuedConnection);
}

void AccountDataController::finish(Load kind, quint64 generation)
{
    Slot &s = slot(kind);
    if (s.generation != generation || !s.loading)
        return;
    s.loading = false;
    emit loadingChanged(kind, false);
    emit connectionsUsed();
}

void AccountDataController::fail(Load kind, quint64 generation, const QString &account, const Error &error)
{
    post(kind, generation, [this, kind, generation, account, error] {
        finish(kind, generation);
        emit failed(kind, account, error);
    });
}

void AccountDataController::cancel(Load kind)
{
    Slot &s = slot(kind);
    if (s.loading && s.cancel)
        s.cancel->store(true);
}

bool AccountDataController::isLoading(Load kind) const
{
    return m_slots[int(kind)].loading;
}

bool AccountDataController::isBusy() const
{
    return std::any_of(std::begin(m_slots), std::end(m_slots), [](const Slot &s) { return s.loading; });
}

void AccountDataController::loadFindings(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::Findings);
    static_cast<void>(m_runner->run([this, gen, account, connections = m_connections] {
        DiagnosisGatherer::Request request;
        request.account = account;
        request.records = true;
        auto input = DiagnosisGatherer::gather(*connections, request);
        if (!input) {
            fail(Load::Findings, gen, account, input.error());
            return;
        }
        QList<Finding> findings = Checks::diagnose(*input);
        findings.removeIf([&account](const Finding &f) { return !f.account.isEmpty() && f.account != account; });
        const QStringList notes = input->notes;
        post(Load::Findings, gen, [this, gen, account, findings, notes] {
            finish(Load::Findings, gen);
            emit findingsLoaded(account, findings, notes);
        });
    }));
}

void AccountDataController::loadSessions(const QString &account, int batchSize)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::Sessions);
    static_cast<void>(m_runner->run([this, gen, account, batchSize, connections = m_connections,
                                     cancel = slot(Load::Sessions).cancel] {
        auto src = RecordSource::resolve(*connections, account);
        if (!src) {
            fail(Load::Sessions, gen, account, src.error());
            return;
        }
        QStringList notes;
        std::optional<SessionLoader::ConsumerIndex> consumers;
        if (auto loaded = SessionLoader::loadConsumers(src->connection, src->apiDomain))
            consumers = *loaded;
        else
            notes << tr("The consumers could not be listed (%1): the Consumers column is not checked.").arg(loaded.error().message());
        QString why;
        const auto connected = src->connectedClients(*connections, {}, &why);
        if (!connected)
            notes << (connections->hasSystem() ? tr("Connected state unknown: %1").arg(why)
                                               : tr("Connected state unknown: the profile has no system account credentials."));
        SessionLoadOptions options;
        options.dialect = src->dialect;
        options.domain = src->apiDomain;
        options.batchSize = batchSize;
        options.cancel = cancel.get();
        options.includeLegacy = true;
        qsizetype legacyRows = 0;
        auto summary = SessionLoader::load(src->connection, options, consumers, connected,
                                           [&](QList<SessionEntry> &&batch, const ReadProgress &progress) {
                                               const QList<SessionEntry> rows = std::move(batch);
                                               legacyRows += std::count_if(rows.cbegin(), rows.cend(),
                                                                           [](const SessionEntry &e) { return e.isLegacy(); });
                                               post(Load::Sessions, gen, [this, account, rows, progress] {
                                                   emit sessionsBatch(account, rows, progress.done, progress.total);
                                               });
                                               return !cancel->load();
                                           });
        if (!summary && summary.error().jsErrCode() != kStreamNotFound) {
            fail(Load::Sessions, gen, account, summary.error());
            return;
        }
        if (!summary && legacyRows == 0)
            notes.prepend(tr("The account has no $MQTT_sess stream: no MQTT client of it has connected yet."));
        else if (!summary)
            notes.prepend(tr("The account has no $MQTT_sess stream: the %n session(s) listed are left in legacy $MQTT_sess_<hash> "
                             "streams, which servers since 2.5 do not read (LEGACY_SESSION_STREAMS).", nullptr, int(legacyRows)));
        const bool cancelled = summary && summary->cancelled;
        post(Load::Sessions, gen, [this, gen, account, cancelled, note = notes.join(QLatin1Char(' '))] {
            finish(Load::Sessions, gen);
            emit sessionsFinished(account, cancelled, note);
        });
    }));
}

void AccountDataController::loadRetained(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::Retained);
    static_cast<void>(m_runner->run([this, gen, account, connections = m_connections, cancel = slot(Load::Retained).cancel] {
        auto src = RecordSource::resolve(*connections, account);
        if (!src) {
            fail(Load::Retained, gen, account, src.error());
            return;
        }
        RetainedLoadOptions options;
        options.domain = src->apiDomain;
        options.cancel = cancel.get();
        auto summary = RetainedLoader::load(src->connection, options, [&](QList<RetainedEntry> &&batch, const ReadProgress &progress) {
            const QList<RetainedEntry> rows = std::move(batch);
            post(Load::Retained, gen, [this, account, rows, progress] {
                emit retainedBatch(account, rows, progress.done, progress.total);
            });
            return !cancel->load();
        });
        QString note;
        if (!summary && summary.error().kind() != Error::Kind::NotFound && summary.error().jsErrCode() != kStreamNotFound) {
            fail(Load::Retained, gen, account, summary.error());
            return;
        }
        if (!summary)
            note = tr("The account has no $MQTT_rmsgs stream: no MQTT client of it has connected yet.");
        const bool cancelled = summary && summary->cancelled;
        post(Load::Retained, gen, [this, gen, account, cancelled, note] {
            finish(Load::Retained, gen);
            emit retainedFinished(account, cancelled, note);
        });
    }));
}

void AccountDataController::loadConsumers(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::Consumers);
    static_cast<void>(m_runner->run([this, gen, account, connections = m_connections, cancel = slot(Load::Consumers).cancel] {
        auto src = RecordSource::resolve(*connections, account);
        if (!src) {
            fail(Load::Consumers, gen, account, src.error());
            return;
        }
        auto consumers = SessionLoader::loadConsumers(src->connection, src->apiDomain);
        if (!consumers) {
            fail(Load::Consumers, gen, account, consumers.error());
            return;
        }
        // The owners: which record names each durable, and which client sits on each hash.
        QHash<QString, QString> referencedBy;
        QHash<QString, QString> clientOfHash;
        SessionLoadOptions options;
        options.dialect = src->dialect;
        options.domain = src->apiDomain;
        options.cancel = cancel.get();
        auto summary = SessionLoader::load(src->connection, options, *consumers, std::nullopt,
                                           [&](QList<SessionEntry> &&batch, const ReadProgress &) {
                                               for (const SessionEntry &e : batch) {
                                                   if (!e.record)
                                                       continue;
                                                   clientOfHash.insert(e.hash, e.clientId);
                                                   for (const SessionConsumer &c : e.consumers)
                                                       referencedBy.insert(c.name, e.clientId);
                                               }
                                               return !cancel->load();
                                           });
        if (!summary && summary.error().jsErrCode() != kStreamNotFound) {
            fail(Load::Consumers, gen, account, summary.error());
            return;
        }
        const QList<ConsumerRow> rows = consumerRows(*consumers, referencedBy, clientOfHash);
        post(Load::Consumers, gen, [this, gen, account, rows] {
            finish(Load::Consumers, gen);
            emit consumersLoaded(account, rows);
        });
    }));
}

void AccountDataController::loadRawSession(const QString &account, quint64 seq)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::RawSession);
    static_cast<void>(m_runner->run([this, gen, account, seq, connections = m_connections] {
        auto src = RecordSource::resolve(*connections, account);
        if (!src) {
            fail(Load::RawSession, gen, account, src.error());
            return;
        }
        StreamReader reader(src->connection, src->apiDomain);
        QByteArray data;
        bool deleted = false;
        auto summary = reader.getBySequences(MqttLayout::sessionsStream(), {seq}, {},
                                             [&](QList<StreamMessage> &&batch, const ReadProgress &) {
                                                 for (const StreamMessage &m : batch) {
                                                     data = m.data;
                                                     deleted = m.deleted;
                                                 }
                                                 return true;
                                             });
        if (!summary) {
            fail(Load::RawSession, gen, account, summary.error());
            return;
        }
        if (deleted) {
            fail(Load::RawSession, gen, account,
                 Error(Error::Kind::NotFound, tr("$MQTT_sess message %1 is gone").arg(seq),
                       tr("the session was written again or removed since the table was loaded; reload the sessions")));
            return;
        }
        post(Load::RawSession, gen, [this, gen, account, seq, data] {
            finish(Load::RawSession, gen);
            emit rawSessionLoaded(account, seq, data);
        });
    }));
}

} // namespace MqttDoctor
