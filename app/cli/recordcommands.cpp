#include "recordcommands.h"
#include "jsoncontract.h"

#include <QJsonArray>
#include <QJsonObject>

#include <optional>

#include "accountchoice.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/sessionsnotes.h"
#include "diagnosis/findingcodes.h"
#include "inflighttext.h"
#include "missingstream.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/jserrors.h"
#include "records/inflightreader.h"
#include "records/accountrecordaccess.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

/** CONNZ when there is a system connection; nullopt (connected state unknown) otherwise or on failure (noted on stderr). */
std::optional<SessionLoader::ConnectedClients> connectedClients(CliContext &ctx, const AccountRecordAccess &src,
                                                                const QString &clientId = {})
{
    QString why;
    auto connected = src.connectedClients(*ctx.connections, clientId, &why);
    if (!connected && ctx.connections->hasSystem())
        ctx.err << "note: " << why << '\n';
    return connected;
}

QString yesNoUnknown(const std::optional<bool> &b)
{
    return !b ? QStringLiteral("?") : *b ? QStringLiteral("yes") : QStringLiteral("no");
}

QString subscriptionsText(const SessionEntry &e)
{
    QStringList parts;
    for (const SessionRecord::Subscription &s : e.subscriptions())
        parts << s.mqttFilter + u':' + QString::number(s.qos);
    return parts.isEmpty() ? QStringLiteral("-") : parts.join(QLatin1Char(' '));
}

QString consumersText(const SessionEntry &e, qint64 *pending)
{
    int ok = 0;
    *pending = 0;
    for (const SessionConsumer &c : e.consumers) {
        if (c.exists) {
            ++ok;
            *pending += c.pending();
        }
    }
    return QString::number(ok) + u'/' + QString::number(e.consumers.size());
}

QStringList sessionRow(const SessionEntry &e)
{
    qint64 pending = 0;
    const QString cons = consumersText(e, &pending);
    return {e.record ? e.clientId : QStringLiteral("(undecodable)"),
            e.hash,
            !e.record     ? QStringLiteral("?")
                : e.clean ? QStringLiteral("yes")
                          : QStringLiteral("no"),
            subscriptionsText(e),
            cons,
            QString::number(pending),
            yesNoUnknown(e.connected),
            !e.hasProblems() ? QStringLiteral("-") : e.problems().join(QStringLiteral("; "))};
}

/**
 * A read that failed after part of its output was written: with --json the document gets an `error`
 * member and is closed (still one valid object), in text the error follows on standard error. Exit 3.
 */
int failAfterOutput(CliContext &ctx, JsonStreamWriter *json, const Error &error)
{
    if (json) {
        json->value(QStringLiteral("error"), errorJson(error));
        json->finish();
        return ExitCouldNotCheck;
    }
    ctx.out.flush();
    return ctx.fail(error);
}

/**
 * `$MQTT_sess` (or `$MQTT_rmsgs`) does not exist, or the account has no JetStream at all: nothing to
 * list, not a failure of the read (MissingStream says why).
 */
bool isStreamMissing(const Error &error)
{
    return error.jsErrCode() == JsErrors::StreamNotFound || error.jsErrCode() == JsErrors::NotEnabledForAccount;
}

// Records are written as they are decoded, batch by batch: a million sessions never exist at once.
int runSessions(CliContext &ctx)
{
    const QString accountName = ctx.parser.value(QStringLiteral("account"));
    bool limitOk = true;
    const QString limitText = ctx.parser.value(QStringLiteral("limit"));
    const qlonglong limit = limitText.isEmpty() ? 100 : limitText.toLongLong(&limitOk);
    if (!limitOk || limit < 0)
        return ctx.usage(QStringLiteral("--limit must be a number >= 0 (0: all), not \"%1\"").arg(limitText));
    // The account as one refresh reads it (servers as the connection set knows them, the account's
    // streams with their consumers, CONNZ), its sessions not kept but streamed below.
    AccountSnapshotLoader::Options load;
    load.sessions = false;
    auto snapshot = AccountSnapshotLoader(*ctx.connections).load(accountName, load);
    if (!snapshot)
        return ctx.fail(AccountChoice::explained(*ctx.connections, accountName, snapshot.error()));
    if (snapshot->account.jetstreamKnown && !snapshot->account.jetstream) {
        // No JetStream: no MQTT state at all (JETSTREAM_DISABLED), not an empty list.
        std::optional<JsonStreamWriter> json;
        if (ctx.json) {
            json.emplace(ctx.out);
            json->beginObject();
            json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("sessions")));
            json->string(QStringLiteral("account"), snapshot->account.name);
            json->beginArray(QStringLiteral("sessions"));
            json->endArray();
        }
        const int rc =
            MissingStream::report(ctx, *snapshot, MqttLayout::sessionsStream(), QStringLiteral("session records"), json ? &*json : nullptr);
        if (json) {
            json->boolean(QStringLiteral("truncated"), false);
            json->finish();
        }
        return rc;
    }
    if (!snapshot->recordAccess || snapshot->recordsError)
        return ctx.fail(
            AccountChoice::explained(*ctx.connections, accountName,
                                     snapshot->recordsError.value_or(Error(
                                         Error::Kind::InvalidInput,
                                         QStringLiteral("the session records of account %1 cannot be read").arg(snapshot->account.name)))));
    const AccountRecordAccess &src = *snapshot->recordAccess;
    const auto &connected = snapshot->records.connected;
    if (!connected && ctx.connections->hasSystem())
        ctx.err << "note: " << snapshot->connectedWhy << '\n';

    SessionLoadOptions options;
    options.filter = ctx.parser.value(QStringLiteral("filter"));
    options.limit = quint64(limit);
    options.includeLegacy = true;
    bool truncated = false;
    qint64 written = 0;
    std::optional<JsonStreamWriter> json;
    TextTable table({QStringLiteral("CLIENT ID"), QStringLiteral("HASH"), QStringLiteral("CLEAN"), QStringLiteral("SUBSCRIPTIONS"),
                     QStringLiteral("CONSUMERS"), QStringLiteral("PENDING"), QStringLiteral("CONNECTED"), QStringLiteral("PROBLEMS")});
    if (ctx.json) {
        json.emplace(ctx.out);
        json->beginObject();
        json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("sessions")));
        json->string(QStringLiteral("account"), src.account);
        json->beginArray(QStringLiteral("sessions"));
    }
    auto summary = AccountSnapshotLoader::streamSessions(
        *snapshot, options,
        [&](QList<SessionEntry> &&batch, const ReadProgress &) {
            for (const SessionEntry &e : std::as_const(batch)) {
                if (json)
                    SessionLoader::writeJson(*json, e);
                else
                    table.addRow(sessionRow(e));
            }
            written += batch.size();
            if (json)
                json->flush();
            else
                table.printAdded(ctx.out);
            return true;
        },
        &truncated);
    const bool missing = !summary && isStreamMissing(summary.error());
    const bool failed = !summary && !missing;
    if (json) {
        json->endArray();
        if (failed) {
            json->boolean(QStringLiteral("truncated"), truncated);
            return failAfterOutput(ctx, &*json, summary.error());
        }
        // Missing is not empty: the document says which finding explains it.
        const int rc = missing
            ? MissingStream::report(ctx, *snapshot, MqttLayout::sessionsStream(), QStringLiteral("session records"), &*json)
            : ExitOk;
        json->boolean(QStringLiteral("truncated"), truncated);
        json->finish();
        return rc;
    }
    if (failed)
        return failAfterOutput(ctx, nullptr, summary.error());
    if (missing) {
        if (written > 0)
            ctx.out << "\n(the sessions above are left in legacy $MQTT_sess_<hash> streams)\n";
        return MissingStream::report(ctx, *snapshot, MqttLayout::sessionsStream(), QStringLiteral("session records"), nullptr);
    }
    if (written == 0) {
        ctx.out << "No MQTT sessions" << (options.filter.isEmpty() ? "" : " match the filter") << ".\n";
        return ExitOk;
    }
    if (truncated)
        ctx.out << "\n(first " << limit << " sessions; --limit 0 shows all)\n";
    // What the list cannot show, as the GUI's Sessions view says it.
    for (const QString &note : SessionsNotes::of(*snapshot, 0, ctx.connections->hasSystem()))
        ctx.out << "\n(" << note << ")\n";
    if (!connected && !ctx.connections->hasSystem())
        ctx.out << "(give --system-user/--system-password to see which clients are connected)\n";
    return ExitOk;
}

int runSession(CliContext &ctx)
{
    const QString clientId = ctx.parser.positionalArguments().value(1); // [0] is the command; exactly one (Command::arguments)
    const auto inflightLimit = InflightText::limitOption(ctx);
    if (!inflightLimit)
        return ctx.usage(inflightLimit.error().message());
    auto src = AccountChoice::recordAccess(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!src)
        return ctx.fail(src.error());
    auto consumers = SessionLoader::loadConsumers(src->connection, src->apiDomain);
    if (!consumers && !isStreamMissing(consumers.error()))
        return ctx.fail(consumers.error());
    const auto connected = consumers ? connectedClients(ctx, *src, clientId) : std::nullopt;
    SessionLoadOptions options;
    options.dialect = src->dialect;
    options.domain = src->apiDomain;
    options.subjectFilter = SessionLoader::sessionSubject(clientId, src->sessionDomain);
    QList<SessionEntry> entries;
    auto summary = !consumers
        ? Result<ReadSummary>(consumers.error())
        : SessionLoader::load(src->connection, options, *consumers, connected, [&](QList<SessionEntry> &&batch, const ReadProgress &) {
              entries.append(std::move(batch));
              return true;
          });
    if (!summary && !isStreamMissing(summary.error()))
        return ctx.fail(summary.error());
    const bool sessionsMissing = !summary;
    auto isClient = [&](const SessionEntry &e) { return e.record && e.clientId == clientId; };
    auto it = std::find_if(entries.cbegin(), entries.cend(), isClient);
    if (it == entries.cend()) {
        // Not in $MQTT_sess: it may still be in a legacy $MQTT_sess_<hash> stream (the name's hash covers the domain).
        SessionLoadOptions legacyOptions = options;
        legacyOptions.subjectFilter.clear();
        legacyOptions.filter = clientId;
        auto legacy = SessionLoader::loadLegacy(
            src->connection, legacyOptions, consumers ? std::optional<SessionLoader::ConsumerIndex>(*consumers) : std::nullopt, connected);
        if (!legacy && !isStreamMissing(legacy.error()))
            return ctx.fail(legacy.error());
        const qsizetype before = entries.size();
        for (SessionEntry &e : legacy ? *legacy : QList<SessionEntry>{})
            if (isClient(e))
                entries.append(std::move(e));
        it = entries.size() > before ? entries.cbegin() + before : entries.cend();
    }
    // $MQTT_sess does not exist only because no MQTT client has used the account yet: no session for this
    // client, as for any other (below). Anything else explains the absence.
    std::optional<Finding> whyNoSessions;
    if (it == entries.cend() && sessionsMissing)
        whyNoSessions = MissingStream::why(ctx, src->account, MqttLayout::sessionsStream());
    const bool notUsedYet =
        whyNoSessions && whyNoSessions->severity == Finding::Severity::Info && whyNoSessions->code == FindingCodes::streamMissing();
    if (it == entries.cend() && sessionsMissing && !notUsedYet) {
        // Missing is not empty: $MQTT_sess itself does not exist.
        std::optional<JsonStreamWriter> json;
        if (ctx.json) {
            json.emplace(ctx.out);
            json->beginObject();
            json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("session")));
            json->string(QStringLiteral("account"), src->account);
            json->null(QStringLiteral("session"));
        }
        const int rc = MissingStream::print(ctx, src->account, MqttLayout::sessionsStream(), QStringLiteral("session records"),
                                            whyNoSessions, json ? &*json : nullptr);
        if (json)
            json->finish();
        return rc;
    }
    // The record on this client's subject cannot be decoded: almost surely its own record, corrupted
    // (SESSION_UNDECODABLE), shown as such: the hash of the ID is the subject's, nothing else is known.
    if (it == entries.cend()) {
        const auto undecodable =
            std::find_if(entries.cbegin(), entries.cend(), [](const SessionEntry &e) { return !e.record && !e.isLegacy(); });
        if (undecodable != entries.cend())
            it = undecodable;
    }
    if (it == entries.cend()) {
        QString hint = notUsedYet ? QStringLiteral("the account has no $MQTT_sess yet: no MQTT client of it has connected since "
                                                   "it was set up (the servers create it at the first MQTT connect)")
                                  : QStringLiteral("the client has no persistent session (it never connected with clean session false, or "
                                                   "the session was cleared); see the sessions command");
        if (!entries.isEmpty() && !entries.first().isLegacy() && entries.first().record) {
            const SessionEntry &other = entries.first();
            const bool collision = ClientIdHash::hashEquals(other.clientId, other.hash);
            hint = collision ? QStringLiteral("%1 holds the session of client \"%2\", whose ID hashes to the same %3 "
                                              "(SESSION_HASH_COLLISION): the two clients share one session record")
                                   .arg(options.subjectFilter, other.clientId, other.hash)
                             : QStringLiteral("%1 holds a record that says it belongs to \"%2\", whose ID does not hash to %3 "
                                              "(SESSION_ID_MISMATCH): a foreign record where this client's session belongs")
                                   .arg(options.subjectFilter, other.clientId, other.hash);
        }
        return ctx.fail(Error(Error::Kind::NotFound,
                              QStringLiteral("no session for client ID \"%1\" (subject %2)").arg(clientId, options.subjectFilter), hint));
    }
    const SessionEntry &e = *it;
    if (!e.record) {
        const QString reason = !e.hasProblems() ? QStringLiteral("unknown reason") : e.problems().first();
        if (ctx.json) {
            const QJsonObject session = SessionLoader::toJson(e, true);
            printJson(ctx.out,
                      QJsonObject{{QStringLiteral("schema"), JsonContract::id(QStringLiteral("session"))},
                                  {QStringLiteral("account"), src->account},
                                  {QStringLiteral("session"), session},
                                  {QStringLiteral("undecodable"), true}});
            return ExitErrors;
        }
        ctx.out << "Client ID:  " << clientId << " (its record cannot be decoded)\n"
                << "Subject:    " << e.subject << " (seq " << e.seq << ", " << e.time.toString(Qt::ISODateWithMs) << ")\n"
                << "Hash:       " << e.hash << '\n'
                << "Clean:      ?\n"
                << "\nThe session record of \"" << clientId << "\" cannot be decoded (" << reason << "). It is on the subject of this "
                << "client ID's hash, so it is this client's own record, corrupted: SESSION_UNDECODABLE (critical). The server fails "
                << "every CONNECT of this client until the record is purged; other clients are not affected.\n"
                << "Run \"check --account " << src->account << "\" for the evidence; \"repair --account " << src->account
                << "\" backs the record up and purges it.\n";
        return ExitErrors;
    }
    // What is in flight: queued messages, QoS 2 incoming, PUBRELs (message gets only, never a consumer).
    InflightReader::Options read;
    read.domain = src->apiDomain;
    read.sessionDomain = src->sessionDomain;
    read.dialect = src->dialect;
    read.limit = *inflightLimit;
    auto inflight = InflightReader::readSession(src->connection, e, read);
    if (!inflight)
        return ctx.fail(inflight.error().prefixed(QStringLiteral("reading what is in flight for \"%1\"").arg(clientId)));
    if (ctx.json) {
        QJsonObject session = SessionLoader::toJson(e, true);
        inflight->addToJson(session);
        printJson(ctx.out,
                  JsonContract::stamped(QStringLiteral("session"),
                                        QJsonObject{{QStringLiteral("account"), src->account}, {QStringLiteral("session"), session}}));
        return ExitOk;
    }
    ctx.out << "Client ID:  " << e.clientId << '\n'
            << "Subject:    " << e.subject << " (seq " << e.seq << ", " << e.time.toString(Qt::ISODateWithMs) << ")\n"
            << (e.isLegacy() ? QStringLiteral("Stream:     %1 (legacy per-session stream)\n").arg(e.legacyStream) : QString())
            << "Hash:       " << e.hash << '\n'
            << "Clean:      " << (e.clean ? "yes" : "no") << '\n'
            << "Origin:     " << (e.record ? e.record->origin : QString()) << '\n'
            << "Connected:  " << yesNoUnknown(e.connected)
            << (e.server.isEmpty() ? QString() : QStringLiteral(" (server %1)").arg(e.server)) << '\n';
    ctx.out << "\nSubscriptions:\n";
    TextTable subs({QStringLiteral("TOPIC FILTER"), QStringLiteral("NATS SUBJECT"), QStringLiteral("QOS"), QStringLiteral("DURABLE")});
    for (const SessionRecord::Subscription &s : e.subscriptions())
        subs.addRow({s.mqttFilter, s.natsSubject, QString::number(s.qos), s.durableName.isEmpty() ? QStringLiteral("-") : s.durableName});
    if (subs.isEmpty())
        ctx.out << "  (none)\n";
    else
        subs.print(ctx.out, 2);
    ctx.out << "\nConsumers:\n";
    TextTable cons({QStringLiteral("NAME"), QStringLiteral("FOR"), QStringLiteral("STREAM"), QStringLiteral("EXISTS"),
                    QStringLiteral("PENDING"), QStringLiteral("ACK PENDING")});
    for (const SessionConsumer &c : e.consumers)
        cons.addRow({c.name, c.sid, c.stream.isEmpty() ? QStringLiteral("-") : c.stream,
                     c.exists ? QStringLiteral("yes") : QStringLiteral("no"),
                     c.exists ? QString::number(c.numPending) : QStringLiteral("-"),
                     c.exists ? QString::number(c.numAckPending) : QStringLiteral("-")});
    if (cons.isEmpty())
        ctx.out << "  (none)\n";
    else
        cons.print(ctx.out, 2);
    if (e.hasProblems()) {
        ctx.out << "\nProblems:\n";
        for (const QString &p : e.problems())
            ctx.out << "  " << p << '\n';
    }
    InflightText::printSession(ctx.out, *inflight, QDateTime::currentDateTimeUtc());
    return ExitOk;
}

QStringList retainedRow(const RetainedEntry &e)
{
    if (!e.record)
        return {QStringLiteral("(undecodable)"), QStringLiteral("-"),
                QString::number(e.storedBytes),  QStringLiteral("-"),
                QString::number(e.seq),          e.problem};
    const RetainedRecord &r = *e.record;
    // Sparkplug B births are protobuf: what they are says more than their bytes.
    const auto birth = r.sparkplugBirth();
    return {r.topic,
            QString::number(r.qos()),
            QString::number(r.payload.size()),
            r.encodingName(),
            QString::number(e.seq),
            r.isDeleteMarker ? QStringLiteral("(delete marker)")
                             : (birth ? QStringLiteral("(%1)").arg(birth->description()) : r.payloadPreview(48))};
}

// Why `filter` is not a valid MQTT topic filter (empty: it is, or there is none).
QString mqttFilterProblem(const QString &filter)
{
    if (filter.isEmpty())
        return {};
    const QStringList levels = filter.split(QLatin1Char('/'));
    for (qsizetype i = 0; i < levels.size(); ++i) {
        const QString &level = levels.at(i);
        if (level.contains(QLatin1Char('#')) && (level != QLatin1String("#") || i != levels.size() - 1))
            return QStringLiteral("# must be a whole level and the last one");
        if (level.contains(QLatin1Char('+')) && level != QLatin1String("+"))
            return QStringLiteral("+ must be a whole level");
    }
    if (filter.contains(QChar(0)))
        return QStringLiteral("it contains a NUL character");
    return {};
}

int runRetained(CliContext &ctx)
{
    RetainedLoadOptions options;
    options.filter = ctx.parser.value(QStringLiteral("filter"));
    if (const QString why = mqttFilterProblem(options.filter); !why.isEmpty())
        return ctx.usage(QStringLiteral("--filter \"%1\" is not a valid MQTT topic filter: %2").arg(options.filter, why),
                         QStringLiteral("levels are separated by /; + stands for one whole level, # for the rest and only at the end "
                                        "(e.g. sensors/+/temp, alerts/#)"));
    auto src = AccountChoice::recordAccess(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!src)
        return ctx.fail(src.error());
    options.domain = src->apiDomain;
    std::optional<JsonStreamWriter> json;
    TextTable table({QStringLiteral("TOPIC"), QStringLiteral("QOS"), QStringLiteral("SIZE"), QStringLiteral("ENCODING"),
                     QStringLiteral("SEQ"), QStringLiteral("PAYLOAD")});
    if (ctx.json) {
        json.emplace(ctx.out);
        json->beginObject();
        json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("retained")));
        json->string(QStringLiteral("account"), src->account);
        json->beginArray(QStringLiteral("retained"));
    }
    qint64 written = 0;
    auto summary = RetainedLoader::load(src->connection, options, [&](QList<RetainedEntry> &&batch, const ReadProgress &) {
        for (const RetainedEntry &e : std::as_const(batch)) {
            if (json)
                RetainedLoader::writeJson(*json, e);
            else
                table.addRow(retainedRow(e));
        }
        written += batch.size();
        if (json)
            json->flush();
        else
            table.printAdded(ctx.out);
        return true;
    });
    const bool missing = !summary && isStreamMissing(summary.error());
    const bool failed = !summary && !missing;
    if (json) {
        json->endArray();
        if (failed)
            return failAfterOutput(ctx, &*json, summary.error());
        const int rc = missing
            ? MissingStream::report(ctx, src->account, MqttLayout::retainedStream(), QStringLiteral("retained messages"), &*json)
            : ExitOk;
        json->finish();
        return rc;
    }
    if (failed)
        return failAfterOutput(ctx, nullptr, summary.error());
    if (missing)
        return MissingStream::report(ctx, src->account, MqttLayout::retainedStream(), QStringLiteral("retained messages"), nullptr);
    if (written == 0)
        ctx.out << "No retained messages" << (options.filter.isEmpty() ? "" : " match the filter") << ".\n";
    return ExitOk;
}

QCommandLineOption accountOption()
{
    return QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                              QStringLiteral("name"));
}

} // namespace

QList<Command> recordCommands()
{
    Command sessions{QStringLiteral("sessions"),
                     QStringLiteral("List the MQTT sessions: client ID, subscriptions, consumers, connected."),
                     {accountOption(),
                      QCommandLineOption(QStringLiteral("filter"),
                                         QStringLiteral("Only sessions whose client ID, hash, subject or a subscription contains TEXT."),
                                         QStringLiteral("text")),
                      QCommandLineOption(QStringLiteral("limit"), QStringLiteral("At most N sessions (0: all)."), QStringLiteral("n"),
                                         QStringLiteral("100"))},
                     runSessions};
    Command session{
        QStringLiteral("session"),
        QStringLiteral("Show one client's session record, its consumers, whether it is connected and what is in flight."),
        {accountOption(),
         QCommandLineOption(QStringLiteral("limit"),
                            QStringLiteral("At most N messages of each kind in flight: queued, QoS 2 incoming, PUBREL (0: all)."),
                            QStringLiteral("n"), QStringLiteral("100"))},
        runSession};
    session.arguments = {{QStringLiteral("CLIENT_ID"), QStringLiteral("The MQTT client ID whose session record to show.")}};
    Command retained{
        QStringLiteral("retained"),
        QStringLiteral("List the retained MQTT messages (both encodings)."),
        {accountOption(),
         QCommandLineOption(QStringLiteral("filter"), QStringLiteral("Only topics matching TOPIC (an MQTT topic or filter with + and #)."),
                            QStringLiteral("topic"))},
        runRetained};
    QList<Command> commands{sessions, session, retained};
    for (Command &c : commands) {
        c.account = AccountUse::One;
        c.needsAccountCredentials = true; // records are read through the account's own connection
    }
    return commands;
}

} // namespace MqttDoctor::Cli
