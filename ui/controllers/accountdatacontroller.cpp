#include "accountdatacontroller.h"

#include <algorithm>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/checks.h"
#include "diagnosis/sessionsnotes.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/jserrors.h"
#include "nats/messagegetter.h"
#include "records/inflightreader.h"
#include "records/accountrecordaccess.h"

namespace MqttDoctor {

namespace {

constexpr int kStreamNotFound = JsErrors::StreamNotFound;

} // namespace

AccountDataController::AccountDataController(QObject *parent) : QObject(parent), m_runner(std::make_unique<AsyncRunner>(4)) {}

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

bool AccountDataController::changesAllowed() const
{
    return m_connections && m_connections->profile().allowChanges;
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
    return m_connections && AccountRecordAccess::canResolve(*m_connections, account);
}

void AccountDataController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    if (m_snapshot.cancel)
        m_snapshot.cancel->store(true);
    for (Slot &s : m_slots) {
        ++s.generation;
        if (s.cancel)
            s.cancel->store(true);
        s.loading = false;
    }
    // Running reads notice their cancel flag within ~100 ms; closing the connections waits for nats.c's
    // threads, so they close on a worker after the pool drained.
    m_runner->shutdown([connections = std::move(m_connections)]() mutable { connections.reset(); });
}

void AccountDataController::dropAll()
{
    if (m_snapshot.cancel)
        m_snapshot.cancel->store(true);
    const quint64 snapshotGeneration = m_snapshot.generation + 1;
    m_lastSamples.clear(); // another profile's servers: not comparable
    m_snapshot = Snapshot();
    m_snapshot.generation = snapshotGeneration;
    for (int i = 0; i < int(std::size(m_slots)); ++i) {
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
    // Runs on a worker; a newer load of this kind (or shutdown, which bumps every generation) drops it.
    GuiDelivery::post(this, slot(kind).generation, generation, std::forward<Fn>(fn));
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
    if (!s.loading)
        return;
    const bool fromSnapshot = kind == Load::Findings || kind == Load::Sessions || kind == Load::Consumers;
    if (fromSnapshot && m_snapshot.cancel)
        m_snapshot.cancel->store(true); // the snapshot ends with what it read; every view of it is told
    else if (s.cancel)
        s.cancel->store(true);
}

bool AccountDataController::isLoading(Load kind) const
{
    return m_slots[int(kind)].loading;
}

bool AccountDataController::isBusy() const
{
    return (m_snapshot.started && !m_snapshot.done)
        || std::any_of(std::begin(m_slots), std::end(m_slots), [](const Slot &s) { return s.loading; });
}

void AccountDataController::refresh(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    startSnapshot(account, kDefaultBatchSize, std::nullopt);
    emit refreshStarted(account);
}

void AccountDataController::loadFindings(const QString &account)
{
    attach(Load::Findings, account);
}

void AccountDataController::loadSessions(const QString &account, int batchSize)
{
    attach(Load::Sessions, account, batchSize);
}

void AccountDataController::loadConsumers(const QString &account)
{
    attach(Load::Consumers, account);
}

void AccountDataController::attach(Load kind, const QString &account, int batchSize)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(kind);
    if (kind == Load::Sessions)
        m_sessionsDelivered = 0;
    if (!m_snapshot.started || m_snapshot.account != account) {
        startSnapshot(account, batchSize, kind);
        return;
    }
    // What the snapshot has so far (or all of it), from the event loop: the view is set up by then.
    GuiDelivery::post(this, slot(kind).generation, gen, [this, kind] { deliver(kind); });
}

void AccountDataController::startSnapshot(const QString &account, int batchSize, std::optional<Load> keep)
{
    // The views attached to the previous snapshot attach again when they load (refreshStarted tells them).
    for (Load kind : {Load::Findings, Load::Sessions, Load::Consumers}) {
        Slot &s = slot(kind);
        if (kind == keep || !s.loading)
            continue;
        ++s.generation;
        s.loading = false;
        emit loadingChanged(kind, false);
    }
    if (m_snapshot.cancel)
        m_snapshot.cancel->store(true); // the superseded read stops early; its results are dropped
    const quint64 gen = m_snapshot.generation + 1;
    m_snapshot = Snapshot();
    m_snapshot.account = account;
    m_snapshot.generation = gen;
    m_snapshot.started = true;
    m_snapshot.cancel = std::make_shared<std::atomic<bool>>(false);
    m_sessionsDelivered = 0;
    ++m_snapshotLoads;
    const std::optional<AccountSample> previous =
        m_lastSamples.contains(account) ? std::optional<AccountSample>(m_lastSamples.value(account)) : std::nullopt;
    static_cast<void>(m_runner->run([this, gen, account, batchSize, previous, options = m_checkOptions, connections = m_connections,
                                     cancel = m_snapshot.cancel, makeRecord = m_historyRecording] {
        const quint64 &current = m_snapshot.generation;
        const auto onBatch = [this, gen, &current, &cancel](QList<SessionEntry> &&batch, const ReadProgress &progress) {
            GuiDelivery::post(this, current, gen, [this, gen, rows = std::move(batch), progress] { snapshotBatch(gen, rows, progress); });
            return !cancel->load();
        };
        const auto onSessionsRead = [this, gen, &current](const Outcome &sessionsRead) {
            GuiDelivery::post(this, current, gen, [this, gen, sessionsRead] { snapshotSessionsRead(gen, sessionsRead); });
        };
        std::optional<DiagnosisInput> checked;
        Outcome outcome = outcomeOf(*connections, account, *cancel, batchSize, onBatch, onSessionsRead, previous, options,
                                    makeRecord ? &checked : nullptr);
        // `checked` is set only when the account was read (and not cancelled).
        const QList<Finding> findings = checked ? outcome.findings.toList() : QList<Finding>();
        GuiDelivery::post(this, current, gen, [this, gen, outcome = std::move(outcome)] { snapshotDone(gen, outcome); });
        if (!checked)
            return;
        // What the history keeps of this refresh, made after the views have their findings (a million
        // sessions take a while) and still on this worker. A newer refresh does not drop it: it is what
        // the servers said then.
        auto check =
            std::make_shared<CheckRecord>(CheckRecord::of(*checked, findings, Checks::exitCodeFor(findings), QStringLiteral("gui")));
        check->urls = connections->profile().servers;
        GuiDelivery::post(this, [this, account, check = std::shared_ptr<const CheckRecord>(std::move(check))] {
            if (!m_shutDown)
                emit checkRecorded(account, check);
        });
    }));
}

AccountDataController::Outcome
AccountDataController::outcomeOf(ConnectionSet &connections, const QString &account, const std::atomic<bool> &cancel, int batchSize,
                                 const std::function<bool(QList<SessionEntry> &&, const ReadProgress &)> &onBatch,
                                 const std::function<void(const Outcome &sessionsRead)> &onSessionsRead,
                                 const std::optional<AccountSample> &previous, const CheckOptions &checkOptions,
                                 std::optional<DiagnosisInput> *checked)
{
    Outcome out;
    AccountSnapshotLoader loader(connections);
    AccountSnapshotLoader::Options options;
    options.includeLegacy = true;
    options.batchSize = batchSize;
    options.cancel = &cancel;
    qsizetype legacyRows = 0;
    options.onSessions = [&](QList<SessionEntry> &&batch, const ReadProgress &progress) {
        legacyRows += std::count_if(batch.cbegin(), batch.cend(), [](const SessionEntry &e) { return e.isLegacy(); });
        return onBatch(std::move(batch), progress);
    };
    auto snapshot = loader.load(account, options);
    if (!snapshot) {
        out.error = snapshot.error();
        return out;
    }
    AccountSnapshotLoader::readManagers(connections, *snapshot); // RETAINED_CONSUMER_MISSING of the refresh's findings
    out.recordsError = snapshot->recordsError;
    out.sessionsComplete = snapshot->sessionsComplete;
    out.sessionsCancelled = !snapshot->sessionsComplete && !snapshot->recordsError && snapshot->recordAccess;
    const QStringList notes = SessionsNotes::of(*snapshot, legacyRows, connections.hasSystem());
    out.sessionsNote = notes.join(QLatin1Char(' '));
    // Every session is read: the table is complete while the findings of a million records are made.
    onSessionsRead(out);
    // The previous refresh's sample (if any) lets the findings compare two: CONSUMER_STUCK, JETSTREAM_API_ERRORS.
    snapshot->previous = previous;
    // The durables' owners once, for the findings (ORPHAN_CONSUMER) and both views below.
    if (snapshot->sessionsComplete)
        snapshot->keepConsumerOwners();
    out.findings = snapshot->findings(checkOptions);
    out.findingGaps = snapshot->gaps;
    if (!previous && snapshot->wantsRecordChecks())
        out.findingGaps << CoverageGap::noEarlierSample(account.isEmpty() ? snapshot->account.name : account);
    out.sample = snapshot->sample();
    if (checked && !cancel.load()) {
        // The input the findings were made from, with the gaps the views show (the history's coverage).
        *checked = snapshot->diagnosisInput(checkOptions);
        (*checked)->gaps = out.findingGaps;
    }
    if (snapshot->sessionsComplete) {
        const QList<ConsumerOwner> owners = snapshot->consumerOwners();
        out.consumers = ConsumerTableModel::rowsFor(owners);
        out.holders = InterestHolder::ofAccount(snapshot->records, snapshot->account, owners);
    }
    return out;
}

void AccountDataController::snapshotBatch(quint64 generation, const QList<SessionEntry> &batch, const ReadProgress &progress)
{
    if (m_shutDown || generation != m_snapshot.generation)
        return;
    m_snapshot.batches.append(batch);
    m_snapshot.progress.append(progress);
    if (slot(Load::Sessions).loading)
        deliverSessions();
}

void AccountDataController::snapshotSessionsRead(quint64 generation, const Outcome &sessionsRead)
{
    if (m_shutDown || generation != m_snapshot.generation || m_snapshot.done)
        return;
    m_snapshot.sessionsRead = true;
    m_snapshot.outcome = sessionsRead;
    if (slot(Load::Sessions).loading)
        deliver(Load::Sessions);
}

void AccountDataController::snapshotDone(quint64 generation, const Outcome &outcome)
{
    if (m_shutDown || generation != m_snapshot.generation)
        return;
    m_snapshot.done = true;
    m_snapshot.outcome = outcome;
    if (!outcome.error && outcome.sample)
        m_lastSamples.insert(m_snapshot.account, *outcome.sample);
    m_snapshot.cancel.reset();
    for (Load kind : {Load::Findings, Load::Sessions, Load::Consumers})
        if (slot(kind).loading)
            deliver(kind);
}

void AccountDataController::deliverSessions()
{
    const QString account = m_snapshot.account;
    while (m_sessionsDelivered < m_snapshot.batches.size()) {
        const qsizetype i = m_sessionsDelivered++;
        const ReadProgress &progress = m_snapshot.progress.at(i);
        emit sessionsBatch(account, m_snapshot.batches.at(i), progress.done, progress.total);
    }
}

void AccountDataController::deliver(Load kind)
{
    const QString account = m_snapshot.account;
    const quint64 gen = slot(kind).generation;
    if (kind == Load::Sessions)
        deliverSessions(); // what was read so far, also before a failure
    if (!m_snapshot.done && !(kind == Load::Sessions && m_snapshot.sessionsRead))
        return;
    const Outcome &o = m_snapshot.outcome;
    const auto failWith = [&](const Error &error) {
        finish(kind, gen);
        emit failed(kind, account, error);
    };
    switch (kind) {
    case Load::Findings:
        if (o.error)
            return failWith(*o.error);
        finish(kind, gen);
        emit findingsLoaded(account, o.findings, o.findingGaps);
        return;
    case Load::Sessions:
        if (o.error || o.recordsError)
            return failWith(o.error ? *o.error : *o.recordsError);
        finish(kind, gen);
        emit sessionsFinished(account, o.sessionsCancelled, o.sessionsNote);
        return;
    case Load::Consumers:
        if (o.error || o.recordsError)
            return failWith(o.error ? *o.error : *o.recordsError);
        if (!o.sessionsComplete && o.sessionsCancelled)
            return failWith(Error(Error::Kind::Internal, tr("reading the sessions was cancelled, so the consumers' owners are unknown"),
                                  tr("reload to read them again")));
        finish(kind, gen);
        emit consumersLoaded(account, o.consumers);
        emit interestHoldersLoaded(account, o.holders);
        return;
    default: return;
    }
}

void AccountDataController::loadRetained(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::Retained);
    static_cast<void>(m_runner->run([this, gen, account, connections = m_connections, cancel = slot(Load::Retained).cancel] {
        auto src = AccountRecordAccess::resolve(*connections, account);
        if (!src) {
            fail(Load::Retained, gen, account, src.error());
            return;
        }
        RetainedLoadOptions options;
        options.domain = src->apiDomain;
        options.cancel = cancel.get();
        auto summary = RetainedLoader::load(src->connection, options, [&](QList<RetainedEntry> &&batch, const ReadProgress &progress) {
            const QList<RetainedEntry> rows = std::move(batch);
            post(Load::Retained, gen,
                 [this, account, rows, progress] { emit retainedBatch(account, rows, progress.done, progress.total); });
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

void AccountDataController::loadRawSession(const QString &account, quint64 seq)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::RawSession);
    static_cast<void>(m_runner->run([this, gen, account, seq, connections = m_connections] {
        auto src = AccountRecordAccess::resolve(*connections, account);
        if (!src) {
            fail(Load::RawSession, gen, account, src.error());
            return;
        }
        MessageGetter getter(src->connection, src->apiDomain);
        QByteArray data;
        bool deleted = false;
        auto summary =
            getter.getBySequences(MqttLayout::sessionsStream(), {seq}, {}, [&](QList<StreamMessage> &&batch, const ReadProgress &) {
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

void AccountDataController::loadSessionInflight(const QString &account, const SessionEntry &entry, int limit)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::SessionInflight);
    static_cast<void>(
        m_runner->run([this, gen, account, entry, limit, connections = m_connections, cancel = slot(Load::SessionInflight).cancel] {
            auto src = AccountRecordAccess::resolve(*connections, account);
            if (!src) {
                fail(Load::SessionInflight, gen, account, src.error());
                return;
            }
            InflightReader::Options options;
            options.domain = src->apiDomain;
            options.sessionDomain = src->sessionDomain;
            options.dialect = src->dialect;
            options.limit = limit;
            options.cancel = cancel.get();
            auto inflight = InflightReader::readSession(src->connection, entry, options);
            if (!inflight) {
                fail(Load::SessionInflight, gen, account, inflight.error());
                return;
            }
            post(Load::SessionInflight, gen, [this, gen, account, seq = entry.seq, result = std::move(inflight).value()] {
                finish(Load::SessionInflight, gen);
                emit sessionInflightLoaded(account, seq, result);
            });
        }));
}

void AccountDataController::loadAccountInflight(const QString &account)
{
    if (!m_connections || m_shutDown)
        return;
    const quint64 gen = begin(Load::AccountInflight);
    static_cast<void>(m_runner->run([this, gen, account, connections = m_connections, cancel = slot(Load::AccountInflight).cancel] {
        auto src = AccountRecordAccess::resolve(*connections, account);
        if (!src) {
            fail(Load::AccountInflight, gen, account, src.error());
            return;
        }
        InflightReader::Options options;
        options.domain = src->apiDomain;
        options.sessionDomain = src->sessionDomain;
        options.dialect = src->dialect;
        options.cancel = cancel.get();
        auto inflight = InflightReader::readAccount(src->connection, account, options);
        if (!inflight) {
            fail(Load::AccountInflight, gen, account, inflight.error());
            return;
        }
        post(Load::AccountInflight, gen, [this, gen, account, result = std::move(inflight).value()] {
            finish(Load::AccountInflight, gen);
            emit accountInflightLoaded(account, result);
        });
    }));
}

} // namespace MqttDoctor
