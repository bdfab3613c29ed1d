#include "operatorrun.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QThread>

#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/mqttprobe.h"
#include "nats/connectionset.h"
#include "records/retainedloader.h"
#include "repair/backupfile.h"
#include "repair/operator/operatorplanner.h"
#include "common/jsonstreamwriter.h"
#include "repair/paramkey.h"
#include "repair/privatefiles.h"

namespace MqttDoctor {

namespace {

QString journalNamePart(const QString &text)
{
    QString s = text;
    s.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return s.left(60);
}

/**
 * The journal's first line: what was asked and the whole plan, written step by step (a plan of 100,000 sessions is
 * never one JSON document in memory); each later line a step that finished.
 */
Result<void> writeJournalHeader(QFile &file, const OperatorRequest &request, const QString &account, const OperatorPlan &plan)
{
    QJsonObject head{{paramKey("journal"), paramKey("nats-mqtt-doctor-action")},
                     {paramKey("request"), request.toJson()},
                     {paramKey("account"), account},
                     {paramKey("counts"), plan.counts.toJson()},
                     {paramKey("path"), plan.path},
                     {paramKey("steps"), QJsonArray()}};
    QByteArray text = QJsonDocument(head).toJson(QJsonDocument::Compact);
    // ...,"steps":[]} → ...,"steps":[<step>,<step>]}
    const QByteArray emptySteps = "\"steps\":[]";
    const qsizetype at = text.indexOf(emptySteps);
    QByteArray chunk = text.left(at + emptySteps.size() - 1);
    for (qsizetype i = 0; i < plan.plan.steps.size(); ++i) {
        if (i > 0)
            chunk += ',';
        chunk += QJsonDocument(plan.plan.steps.at(i).toJournalJson()).toJson(QJsonDocument::Compact);
        if (chunk.size() > (1 << 20)) {
            if (file.write(chunk) != chunk.size())
                return Error(Error::Kind::Io, QStringLiteral("cannot write the journal %1: %2").arg(file.fileName(), file.errorString()));
            chunk.clear();
        }
    }
    chunk += text.mid(at + emptySteps.size() - 1) + '\n';
    if (file.write(chunk) != chunk.size() || !file.flush())
        return Error(Error::Kind::Io, QStringLiteral("cannot write the journal %1: %2").arg(file.fileName(), file.errorString()));
    return {};
}

} // namespace

OperatorRun::OperatorRun(ConnectionSet &connections, Options options) : m_connections(connections), m_options(std::move(options)) {}

void OperatorRun::resolveTarget(const QList<ServerInfo> &servers)
{
    m_target.reset();
    m_blocked.reset();
    if (auto target = RepairTarget::resolve(m_connections, m_account)) {
        m_target = *target;
        if (auto writable = m_target->checkWritable(OperatorRequest::commandName(m_options.request.verb)); !writable)
            m_blocked = writable.error();
        if (m_connections.hasSystem())
            if (auto sys = m_connections.system())
                m_target->system = *sys;
        if (auto mqtt = MqttProbe::requestFor(m_connections.profile(), m_account, servers))
            m_target->mqtt = *mqtt;
    } else {
        m_blocked = target.error();
    }
}

Result<void> OperatorRun::prepare()
{
    const OperatorRequest &req = m_options.request;
    if (auto v = req.validate(); !v)
        return v.error();
    m_plan = {};
    m_report.reset();
    m_returns.clear();
    m_journal.clear();
    m_prepareNotes.clear();
    m_account = req.account;
    if (m_account.isEmpty()) {
        auto own = m_connections.primaryAccountName();
        if (!own)
            return own.error();
        m_account = *own;
    }
    const bool sessions = req.verb == OperatorRequest::Verb::DeleteSessions || req.verb == OperatorRequest::Verb::DropBacklog;
    AccountSnapshotLoader::Options lo;
    lo.records = sessions;
    lo.sessions = sessions;
    lo.cancel = m_options.cancel;
    AccountSnapshotLoader loader(m_connections);
    auto snapshot = loader.load(m_account, lo);
    if (!snapshot)
        return snapshot.error();
    m_snapshot = std::make_shared<AccountSnapshot>(std::move(*snapshot));
    if (sessions && m_snapshot->recordsError)
        return m_snapshot->recordsError->prefixed(QStringLiteral("reading the session records of %1").arg(m_account));
    if (sessions && !m_snapshot->sessionsComplete && !m_snapshot->noSessionsStream)
        return Error(Error::Kind::Internal, QStringLiteral("the session records of %1 were not all read").arg(m_account));
    resolveTarget(m_snapshot->servers);
    // The streams' consumer infos were read to join the sessions with their durables, which now hold what the plan
    // needs (name, stream, pending, config): at 100,000 durables the rest is most of the memory.
    for (StreamInfo &s : m_snapshot->account.streams)
        s.consumers.clear();
    m_snapshot->records.owners.reset();

    OperatorInput in;
    in.account = m_account;
    in.apiDomain = m_target ? m_target->apiDomain : m_connections.profile().jsDomain;
    in.servers = m_snapshot->servers;
    in.accountInfo = m_snapshot->account;
    in.records = sessions ? &m_snapshot->records : nullptr;
    in.hasSystem = m_target && m_target->system;
    in.mqtt = m_target ? m_target->mqtt : std::nullopt;
    in.now = m_snapshot->loadedAt.isValid() ? m_snapshot->loadedAt : QDateTime::currentDateTimeUtc();
    // Who is connected where: through the system connection, else the account's CONNZ import.
    {
        std::shared_ptr<NatsConnection> conn = m_target ? (m_target->system ? m_target->system : m_target->connection) : nullptr;
        if (!conn)
            if (auto primary = m_connections.primary())
                conn = *primary;
        if (conn) {
            SystemClient sys(conn);
            if (auto found = MqttConnections::find(sys, m_account))
                in.connections = *found;
            else
                m_prepareNotes << QStringLiteral("The MQTT connections could not be listed: %1").arg(found.error().toString());
        }
    }
    if (req.verb == OperatorRequest::Verb::ClearRetained) {
        if (!m_target)
            return m_blocked ? *m_blocked : Error(Error::Kind::InvalidInput, QStringLiteral("no connection of account %1").arg(m_account));
        QList<RetainedEntry> all;
        RetainedLoadOptions ro;
        ro.domain = m_target->apiDomain;
        ro.cancel = m_options.cancel;
        auto loaded = RetainedLoader::load(m_target->connection, ro, [&all](QList<RetainedEntry> &&batch, const ReadProgress &) {
            all += std::move(batch);
            return true;
        });
        if (!loaded && loaded.error().kind() != Error::Kind::NotFound)
            return loaded.error().prefixed(QStringLiteral("reading the retained messages of %1").arg(m_account));
        in.retained = std::move(all);
    }
    m_plan = OperatorPlanner::plan(in, req);
    m_plan.notes = m_prepareNotes + m_plan.notes;
    m_snapshot.reset(); // the plan holds copies of what it needs: 100,000 records need not stay
    for (RepairStep &s : m_plan.plan.steps)
        s.account = m_account;
    return {};
}

namespace {

/** A journal's lines: the first (request and plan) parsed and checked, the rest as they are. */
Result<std::pair<QJsonObject, QList<QByteArray>>> readJournal(const QString &journalPath)
{
    QFile f(journalPath);
    if (!f.open(QIODevice::ReadOnly))
        return Error(Error::Kind::Io, QStringLiteral("cannot read the journal %1: %2").arg(journalPath, f.errorString()));
    QList<QByteArray> lines = f.readAll().split('\n');
    QJsonParseError pe;
    const QJsonObject head = QJsonDocument::fromJson(lines.value(0), &pe).object();
    if (pe.error != QJsonParseError::NoError || head.value(paramKey("journal")).toString() != QLatin1String("nats-mqtt-doctor-action"))
        return Error(Error::Kind::InvalidInput, QStringLiteral("%1 is not a journal of an operator action").arg(journalPath));
    return std::make_pair(head, std::move(lines));
}

} // namespace

Result<OperatorRequest> OperatorRun::journalRequest(const QString &journalPath)
{
    auto journal = readJournal(journalPath);
    if (!journal)
        return journal.error();
    auto request = OperatorRequest::fromJson(journal->first.value(paramKey("request")).toObject());
    if (!request)
        return request.error().prefixed(QStringLiteral("the journal %1").arg(journalPath));
    return request;
}

Result<void> OperatorRun::prepareResume(const QString &journalPath)
{
    auto journal = readJournal(journalPath);
    if (!journal)
        return journal.error();
    const QJsonObject &head = journal->first;
    const QList<QByteArray> &lines = journal->second;
    auto request = OperatorRequest::fromJson(head.value(paramKey("request")).toObject());
    if (!request)
        return request.error().prefixed(QStringLiteral("the journal %1").arg(journalPath));
    QSet<QString> done;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QJsonObject o = QJsonDocument::fromJson(lines.at(i)).object();
        if (o.contains(paramKey("done")))
            done.insert(o.value(paramKey("done")).toString());
    }
    m_options.request = *request;
    m_options.backupDir = QFileInfo(journalPath).absolutePath();
    m_account = head.value(paramKey("account")).toString();
    m_plan = {};
    m_plan.action = OperatorRequest::verbName(request->verb);
    m_plan.plan.account = m_account;
    m_plan.path = head.value(paramKey("path")).toString();
    for (const QJsonValue &v : head.value(paramKey("steps")).toArray()) {
        RepairStep s = RepairStep::fromJson(v.toObject());
        if (done.contains(s.id))
            continue;
        s.dependsOn.removeIf([&done](const QString &d) { return done.contains(d); });
        m_plan.plan.steps.append(s);
    }
    m_plan.notes << QStringLiteral("Resumed from %1: %2 step(s) done before, %3 to go (each checks again what is already done).")
                        .arg(journalPath)
                        .arg(done.size())
                        .arg(m_plan.plan.steps.size());
    auto servers = m_connections.knownServers();
    resolveTarget(servers ? *servers : QList<ServerInfo>());
    m_journal = journalPath;
    m_report.reset();
    m_returns.clear();
    return {};
}

Result<RepairExecutor::Report> OperatorRun::execute(const EventHandler &events, bool dryRun)
{
    if (!m_target)
        return m_blocked ? *m_blocked : Error(Error::Kind::InvalidInput, QStringLiteral("no connection of account %1").arg(m_account));
    m_dryRun = dryRun;
    RepairExecutor::Options eo;
    eo.backupDir = m_options.backupDir;
    eo.auditPath = m_options.auditPath;
    eo.cancel = m_options.cancel;
    eo.dryRun = dryRun;
    eo.beforeApply = m_options.beforeApply;
    std::unique_ptr<QFile> journal;
    if (!dryRun && !m_plan.plan.steps.isEmpty()) {
        if (auto w = m_target->checkWritable(OperatorRequest::commandName(m_options.request.verb)); !w)
            return w.error();
        if (m_options.backupDir.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("no backup folder was given"), QStringLiteral("give --backup-dir DIR"));
        if (!PrivateFiles::makePath(m_options.backupDir))
            return Error(Error::Kind::InvalidInput, QStringLiteral("cannot create the backup folder %1").arg(m_options.backupDir));
        const bool fresh = m_journal.isEmpty();
        if (fresh)
            m_journal = freshBackupPath(m_options.backupDir, [&](const QString &stamp) {
                return QStringLiteral("%1-%2-%3.journal.jsonl").arg(stamp, journalNamePart(m_account), m_plan.action);
            });
        journal = std::make_unique<QFile>(m_journal);
        if (!journal->open(QIODevice::Append | QIODevice::WriteOnly))
            return Error(Error::Kind::Io, QStringLiteral("cannot write the journal %1: %2").arg(m_journal, journal->errorString()));
        if (fresh)
            if (auto w = writeJournalHeader(*journal, m_options.request, m_account, m_plan); !w)
                return w.error();
    }
    eo.events = [&](const RepairEvent &e) {
        if (journal && e.kind == RepairEvent::Kind::StepFinished
            && (e.outcome.state == StepOutcome::State::Applied || e.outcome.state == StepOutcome::State::AlreadyDone)) {
            journal->write(
                QJsonDocument(QJsonObject{{paramKey("done"), e.step.id}, {paramKey("state"), StepOutcome::stateName(e.outcome.state)}})
                    .toJson(QJsonDocument::Compact)
                + '\n');
            journal->flush();
        }
        if (events)
            events(e);
    };
    auto report = RepairExecutor::run(*m_target, m_plan.plan, eo);
    if (!report)
        return report.error();
    m_report = *report;
    if (!dryRun && m_options.request.verb == OperatorRequest::Verb::Disconnect && m_options.reconnectWaitMs > 0)
        watchReturns();
    return *report;
}

Result<RepairExecutor::Report> OperatorRun::run(const EventHandler &events)
{
    return execute(events, false);
}

Result<RepairExecutor::Report> OperatorRun::dryRun(const EventHandler &events)
{
    return execute(events, true);
}

void OperatorRun::watchReturns()
{
    QStringList ids;
    for (const RepairStep &s : m_plan.plan.steps)
        if (!s.clientId.isEmpty() && !ids.contains(s.clientId))
            ids << s.clientId;
    if (ids.isEmpty() || !m_target)
        return;
    // The connections closed by the run: a connection of the client that is not one of them came back.
    QSet<QString> closed;
    for (const RepairStep &s : m_plan.plan.steps)
        closed.insert(s.params.value(paramKey("server_id")).toString() + u'\n'
                      + QString::number(s.params.value(paramKey("cid")).toInteger()));
    QHash<QString, ClientReturn> seen;
    QElapsedTimer t;
    t.start();
    SystemClient sys(m_target->system ? m_target->system : m_target->connection);
    while (t.elapsed() < m_options.reconnectWaitMs && seen.size() < ids.size()) {
        if (m_options.cancel && m_options.cancel->load())
            break;
        if (auto conns = MqttConnections::find(sys, m_account, ids.size() == 1 ? ids : QStringList())) {
            for (const MqttConnection &c : *conns) {
                if (!ids.contains(c.clientId) || seen.contains(c.clientId) || closed.contains(c.serverId + u'\n' + QString::number(c.cid)))
                    continue;
                seen.insert(c.clientId, ClientReturn{c.clientId, true, c.serverName, c.address, t.elapsed()});
            }
        }
        if (seen.size() < ids.size())
            QThread::msleep(250);
    }
    for (const QString &id : ids)
        m_returns.append(seen.value(id, ClientReturn{id, false, {}, {}, t.elapsed()}));
}

QJsonObject OperatorRun::toJson() const
{
    QJsonArray returns;
    for (const ClientReturn &r : m_returns)
        returns.append(r.toJson());
    QJsonObject o{{paramKey("action"), m_plan.action.isEmpty() ? OperatorRequest::verbName(m_options.request.verb) : m_plan.action},
                  {paramKey("account"), m_account},
                  {paramKey("request"), m_options.request.toJson()},
                  {paramKey("path"), m_plan.path},
                  {paramKey("selection"), m_plan.selection.toJson()},
                  {paramKey("counts"), m_plan.counts.toJson()},
                  {paramKey("notes"), QJsonArray::fromStringList(m_plan.notes)},
                  {paramKey("plan"), m_plan.plan.toJson()},
                  {paramKey("dry_run"), m_dryRun},
                  {paramKey("applied"), m_report && !m_dryRun ? QJsonValue(m_report->toJson()) : QJsonValue(QJsonValue::Null)},
                  {paramKey("preview"), m_report && m_dryRun ? QJsonValue(m_report->toJson()) : QJsonValue(QJsonValue::Null)},
                  {paramKey("journal"), m_journal.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(m_journal)},
                  {paramKey("returns"), returns},
                  {paramKey("left_alone"), leftAlone()},
                  {paramKey("exit_code"), exitCode()}};
    if (m_blocked)
        o.insert(paramKey("blocked"), m_blocked->toString());
    return o;
}

void OperatorRun::writeJson(JsonStreamWriter &w, const QString &schema) const
{
    // Members in sorted order, as QJsonObject writes them.
    const QJsonValue nullValue(QJsonValue::Null);
    w.beginObject();
    w.string(paramKey("account"), m_account);
    w.string(paramKey("action"), m_plan.action.isEmpty() ? OperatorRequest::verbName(m_options.request.verb) : m_plan.action);
    w.value(paramKey("applied"), m_report && !m_dryRun ? QJsonValue(m_report->toJson()) : nullValue);
    if (m_blocked)
        w.string(paramKey("blocked"), m_blocked->toString());
    w.value(paramKey("counts"), m_plan.counts.toJson());
    w.boolean(paramKey("dry_run"), m_dryRun);
    w.number(paramKey("exit_code"), exitCode());
    w.stringOrNull(paramKey("journal"), m_journal);
    w.number(paramKey("left_alone"), leftAlone());
    w.strings(paramKey("notes"), m_plan.notes);
    w.string(paramKey("path"), m_plan.path);
    w.beginObject(paramKey("plan"));
    w.string(paramKey("account"), m_plan.plan.account);
    w.strings(paramKey("notes"), m_plan.plan.notes);
    w.beginArray(paramKey("steps"));
    for (const RepairStep &step : m_plan.plan.steps)
        w.value({}, step.toJson());
    w.endArray();
    w.beginArray(paramKey("unrepairable"));
    for (const Finding &f : m_plan.plan.unrepairable)
        w.value({}, f.toJson());
    w.endArray();
    w.endObject();
    w.value(paramKey("preview"), m_report && m_dryRun ? QJsonValue(m_report->toJson()) : nullValue);
    w.value(paramKey("request"), m_options.request.toJson());
    w.beginArray(paramKey("returns"));
    for (const ClientReturn &r : m_returns)
        w.value({}, r.toJson());
    w.endArray();
    w.string(paramKey("schema"), schema);
    m_plan.selection.writeJson(w, paramKey("selection"));
    w.endObject();
    w.finish();
}

qint64 OperatorRun::leftAlone() const
{
    qint64 n = m_plan.selection.left.size();
    if (m_report)
        for (const StepOutcome &o : m_report->outcomes)
            for (const QJsonValue &r : o.responses)
                n += r.toObject().value(paramKey("left")).toArray().size();
    return n;
}

int OperatorRun::exitCode() const
{
    if (m_report) {
        if (!m_report->complete)
            return 2;
    } else if (m_blocked || m_plan.plan.steps.isEmpty()) {
        return m_blocked && !m_plan.plan.steps.isEmpty() ? 3 : (m_plan.selection.left.isEmpty() ? 0 : 1);
    }
    if (leftAlone() > 0)
        return 1;
    for (const ClientReturn &r : m_returns)
        if (r.returned)
            return 1;
    return 0;
}

} // namespace MqttDoctor
