#include "repair/streamrestore.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <optional>

#include "diagnosis/subjectoverlap.h"
#include "mqtt/mqttstreamspec.h"
#include "nats/natsheaders.h"
#include "nats/jetstreamclient.h"
#include "mqtt/mqttlayout.h"
#include "nats/jserrors.h"
#include "repair/auditlog.h"
#include "repair/backupfile.h"
#include "repair/backupformat.h"
#include "nats/jetstreampublisher.h"
#include "repair/repairtarget.h"
#include "repair/streambackup.h"
#include "repair/streamcontent.h"

namespace MqttDoctor {

namespace StreamRestore {

namespace {

constexpr int MaxFailuresListed = 10;

using Prints = QHash<QByteArray, quint64>; // fingerprint -> how many messages have it

/** What the stream holds now, within the backup's subject filter. */
struct TargetState
{
    bool exists = false;
    QJsonObject config;
    Prints prints;
    QSet<QString> subjects; ///< subjects holding at least one message
    quint64 messages = 0;
    quint64 foreign = 0; ///< messages the backup does not have
    QString foreignExample;
};

bool perSubject(const QJsonObject &config)
{
    return config.value(QLatin1String("max_msgs_per_subject")).toInteger(-1) == 1;
}

// The stream's info and content. NotFound is not an error: exists stays false.
Result<TargetState> readTarget(const RepairTarget &target, const BackupHeader &header, const Prints &backupPrints,
                               const RestoreOptions &options)
{
    TargetState state;
    JetStreamClient js(target.connection, target.apiDomain);
    auto info = js.streamInfo(header.stream);
    if (!info) {
        if (info.error().jsErrCode() == JsErrors::StreamNotFound)
            return state;
        return info.error();
    }
    state.exists = true;
    state.config = info->value(QLatin1String("config")).toObject();
    if (info->value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger() == 0)
        return state;
    StreamReader::Options readOptions;
    readOptions.cancel = options.cancel;
    Prints unmatched = backupPrints;
    auto read = StreamContent::read(target.connection, target.apiDomain, header.stream, state.config, header.subjectFilter, readOptions,
                                    [&](QList<StreamMessage> &&batch, const ReadProgress &p) {
                                        for (const StreamMessage &m : batch) {
                                            const QByteArray fp = BackupFormat::fingerprint(m.subject, m.headers, m.data);
                                            ++state.prints[fp];
                                            state.subjects.insert(m.subject);
                                            ++state.messages;
                                            auto it = unmatched.find(fp);
                                            if (it != unmatched.end() && it.value() > 0) {
                                                --it.value();
                                            } else {
                                                ++state.foreign;
                                                if (state.foreignExample.isEmpty())
                                                    state.foreignExample = QStringLiteral("%1 (seq %2)").arg(m.subject).arg(m.sequence);
                                            }
                                        }
                                        if (options.progress)
                                            options.progress(RepairProgress{QStringLiteral("reading stream"), p.done, p.total});
                                        return true;
                                    });
    if (!read)
        return Error(read.error()).prefixed(QStringLiteral("reading what stream %1 holds").arg(header.stream));
    if (read->cancelled)
        return StreamBackup::cancelledError(QStringLiteral("restore of stream ") + header.stream);
    return state;
}

struct Run
{
    const RepairTarget &target;
    const RestoreOptions &options;
    RestoreResult result;
    QJsonArray requests;
    BackupHeader header;

    void note(const QString &failure)
    {
        if (result.failures.size() < MaxFailuresListed)
            result.failures << failure;
    }

    void audit(const QString &outcome, const QString &error)
    {
        if (result.dryRun)
            return;
        AuditEntry entry;
        entry.profile = target.profile.name;
        entry.account = target.account;
        entry.action = QStringLiteral("restore");
        entry.stream = result.stream;
        entry.requests = requests;
        entry.outcome = outcome;
        entry.error = error;
        entry.details = QJsonObject{{QStringLiteral("file"), result.path},
                                    {QStringLiteral("subject_filter"), result.subjectFilter},
                                    {QStringLiteral("messages"), qint64(result.messages)},
                                    {QStringLiteral("restored"), qint64(result.restored)},
                                    {QStringLiteral("already_present"), qint64(result.alreadyPresent)},
                                    {QStringLiteral("conflicts"), qint64(result.conflicts)},
                                    {QStringLiteral("failed"), qint64(result.failed)},
                                    {QStringLiteral("stream_created"), result.streamCreated},
                                    {QStringLiteral("consumers_created"), QJsonArray::fromStringList(result.consumersCreated)}};
        const AuditLog log(options.auditPath.isEmpty() ? AuditLog::defaultPath() : options.auditPath);
        result.auditPath = log.path();
        if (auto r = log.append(entry, target.profile); !r)
            result.auditError = r.error().toString();
    }

    // Fails after something may have changed: the audit entry records the error.
    Error failed(Error e)
    {
        audit(QStringLiteral("error"), e.toString());
        return e;
    }

    Result<void> createStream(JetStreamClient &js, bool *raced)
    {
        const QString op = QStringLiteral("STREAM.CREATE.") + header.stream;
        requests.append(AuditLog::request(js.apiSubject(op), header.config));
        auto created = js.call(op, header.config);
        if (!created) {
            if (created.error().jsErrCode() == JsErrors::StreamNameInUse) { // created meanwhile (e.g. by an MQTT server): re-read
                *raced = true;
                return {};
            }
            return Error(created.error()).prefixed(QStringLiteral("recreating stream ") + header.stream);
        }
        result.streamCreated = true;
        return {};
    }

    /** A consumer create refused because the consumer is there already (made meanwhile, or by an earlier run). */
    static bool alreadyExists(const Error &error)
    {
        const int code = error.jsErrCode();
        return code == JsErrors::ConsumerNameInUse || code == JsErrors::ConsumerExistingActive || code == JsErrors::ConsumerAlreadyExists;
    }

    /** A consumer a server made on `$MQTT_rmsgs` for its retained messages (named, delivering to `$MQTT.sub.*`). */
    bool isServersRetainedConsumer(const QJsonObject &c) const
    {
        const QJsonObject config = c.value(QLatin1String("config")).toObject();
        return header.stream == MqttLayout::retainedStream()
            && c.value(QLatin1String("name")).toString().startsWith(MqttLayout::retainedStream() + u'_')
            && config.value(QLatin1String("deliver_subject")).toString().startsWith(QLatin1String("$MQTT.sub."));
    }

    /**
     * Makes a server's retained-message consumer again as the server made it (CONSUMER.CREATE with its name and
     * config), unless a consumer already delivers to its subject. If the server has restarted since, nobody listens
     * there and the consumer goes by itself after its inactive threshold.
     */
    Result<void> createRetainedConsumer(JetStreamClient &js, const QJsonObject &c, const QSet<QString> &delivering)
    {
        const QString name = c.value(QLatin1String("name")).toString();
        QJsonObject config = c.value(QLatin1String("config")).toObject();
        if (delivering.contains(config.value(QLatin1String("deliver_subject")).toString())) {
            result.consumersExisting << name;
            return {};
        }
        if (result.dryRun) {
            result.consumersCreated << name;
            return {};
        }
        config.insert(QStringLiteral("name"), name);
        const QString op = QStringLiteral("CONSUMER.CREATE.%1").arg(header.stream);
        const QJsonObject body{{QStringLiteral("stream_name"), header.stream}, {QStringLiteral("config"), config}};
        requests.append(AuditLog::request(js.apiSubject(op), body));
        auto r = js.call(op, body);
        if (!r) {
            if (alreadyExists(r.error())) {
                result.consumersExisting << name;
                return {};
            }
            return Error(r.error()).prefixed(QStringLiteral("recreating the retained-message consumer %1 on %2").arg(name, header.stream));
        }
        result.consumersCreated << name;
        return {};
    }

    Result<void> createConsumers(JetStreamClient &js, bool streamExists)
    {
        QSet<QString> existing;
        if (streamExists) {
            auto list = js.consumerList(header.stream);
            if (!list)
                return Error(list.error()).prefixed(QStringLiteral("listing the consumers of ") + header.stream);
            for (const QJsonObject &c : *list)
                existing.insert(c.value(QLatin1String("name")).toString());
        }
        QSet<QString> delivering; // deliver subjects of the consumers there now
        if (streamExists)
            if (auto list = js.consumerList(header.stream))
                for (const QJsonObject &c : *list)
                    delivering.insert(c.value(QLatin1String("config")).toObject().value(QLatin1String("deliver_subject")).toString());
        for (const QJsonObject &c : std::as_const(header.consumers)) {
            const QJsonObject config = c.value(QLatin1String("config")).toObject();
            const QString durable = config.value(QLatin1String("durable_name")).toString();
            if (durable.isEmpty()) {
                // A server's retained-message consumer (2.10.11+: named, not durable) is made again on the subject
                // the server listens on, or the server delivers no retained message any more (RETAINED_CONSUMER_MISSING).
                if (isServersRetainedConsumer(c)) {
                    if (auto made = createRetainedConsumer(js, c, delivering); !made)
                        return made;
                    continue;
                }
                result.consumersSkipped << c.value(QLatin1String("name")).toString();
                continue;
            }
            if (existing.contains(durable)) {
                result.consumersExisting << durable;
                continue;
            }
            if (result.dryRun) {
                result.consumersCreated << durable;
                continue;
            }
            const QString op = QStringLiteral("CONSUMER.DURABLE.CREATE.%1.%2").arg(header.stream, durable);
            const QJsonObject body{{QStringLiteral("stream_name"), header.stream}, {QStringLiteral("config"), config}};
            requests.append(AuditLog::request(js.apiSubject(op), body));
            auto r = js.call(op, body);
            if (!r) {
                if (alreadyExists(r.error())) {
                    result.consumersExisting << durable;
                    continue;
                }
                return Error(r.error()).prefixed(QStringLiteral("recreating consumer %1 on %2").arg(durable, header.stream));
            }
            result.consumersCreated << durable;
        }
        return {};
    }

    Result<void> publishAll(const TargetState &state)
    {
        Prints present = state.prints;
        const bool oneBySubject = perSubject(state.exists ? state.config : header.config);
        std::optional<Error> fatal;
        quint64 seen = 0;
        JetStreamPublisher publisher(
            target.connection, header.stream,
            [this](quint64, const Result<quint64> &ack) {
                if (ack) {
                    ++result.restored;
                } else {
                    ++result.failed;
                    note(ack.error().toString());
                }
            },
            options.inFlight, options.idleTimeoutMs);
        const auto cancelNow = [this] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
        auto read = BackupFileReader::read(result.path, [&](BackupMessage &&m, qint64 line) {
            if (cancelNow()) {
                result.cancelled = true;
                return false;
            }
            ++seen;
            const QByteArray fp = BackupFormat::fingerprint(m.subject, m.headers, m.data);
            if (auto it = present.find(fp); it != present.end() && it.value() > 0) {
                --it.value();
                ++result.alreadyPresent;
            } else if (oneBySubject && state.subjects.contains(m.subject)) {
                ++result.conflicts;
            } else {
                NatsHeaders headers;
                if (auto parsed = NatsHeaders::parse(m.headers))
                    headers = *parsed;
                const NatsHeaders kept = BackupFormat::restorableHeaders(headers);
                if (kept.entries().size() != headers.entries().size())
                    ++result.headersStripped;
                if (result.dryRun) {
                    ++result.restored;
                } else if (auto p = publisher.publish(quint64(line), m.subject, kept, m.data); !p) {
                    fatal = p.error();
                    return false;
                }
            }
            if (options.progress && (seen % 256 == 0 || seen == result.messages))
                options.progress(RepairProgress{QStringLiteral("publishing"), seen, result.messages});
            return true;
        });
        if (auto f = publisher.finish(); !f && !fatal)
            fatal = f.error();
        if (!read)
            return read.error();
        if (fatal)
            return fatal->prefixed(QStringLiteral("republishing into ") + header.stream);
        return {};
    }

    /** Reads the whole backup file: its header, and how many messages have each fingerprint. Nothing is changed yet. */
    Result<Prints> readFile(const QString &path)
    {
        Prints backupPrints;
        if (options.progress)
            options.progress(RepairProgress{QStringLiteral("checking file"), 0, 0});
        auto scan = BackupFileReader::read(path, [&backupPrints](BackupMessage &&m, qint64) {
            ++backupPrints[BackupFormat::fingerprint(m.subject, m.headers, m.data)];
            return true;
        });
        if (!scan)
            return scan.error();
        header = scan->header;
        result.stream = header.stream;
        result.subjectFilter = header.subjectFilter;
        result.messages = scan->trailer.messages;
        if (!target.account.isEmpty() && !header.account.isEmpty() && target.account != header.account)
            result.warnings
                << QStringLiteral("the backup was taken from account %1, restoring into account %2").arg(header.account, target.account);
        return backupPrints;
    }

    /**
     * The stream as the restore finds it, created from the backup's config when missing (once more when
     * another client created it at the same time). Refuses a stream holding messages the backup does not
     * have, unless merging; warns of config fields that differ from the backup's.
     */
    Result<TargetState> prepareStream(JetStreamClient &js, const Prints &backupPrints)
    {
        TargetState state;
        for (int attempt = 0;; ++attempt) {
            auto read = readTarget(target, header, backupPrints, options);
            if (!read)
                return read.error();
            state = std::move(*read);
            if (state.exists || options.dryRun) {
                if (!state.exists)
                    result.streamCreated = true; // would be
                break;
            }
            bool raced = false;
            if (auto c = createStream(js, &raced); !c)
                return failed(c.error());
            if (!raced || attempt > 0) {
                state.exists = true;
                state.config = header.config;
                break;
            }
        }
        // A configs-only backup (taken before deleting a consumer) restores consumers; the stream's messages are not its business.
        if (state.foreign > 0 && !options.merge && header.messagesIncluded)
            return Error(
                Error::Kind::InvalidInput,
                QStringLiteral("stream %1 already holds %2 message%3 that the backup does not have (e.g. %4); nothing was restored")
                    .arg(header.stream)
                    .arg(state.foreign)
                    .arg(state.foreign == 1 ? QString() : QStringLiteral("s"), state.foreignExample),
                QStringLiteral("to add the backup's missing messages and keep the stream's own, restore with merge (--merge)"));
        if (state.exists && !result.streamCreated) {
            const auto differs = [&](const char *key) {
                return state.config.value(QLatin1String(key)) != header.config.value(QLatin1String(key));
            };
            for (const char *key : {"subjects", "retention", "max_msgs_per_subject", "discard", "storage"})
                if (differs(key))
                    result.warnings << QStringLiteral("the existing stream's %1 differs from the backup's; it was left as it is")
                                           .arg(QLatin1String(key));
        }
        return state;
    }

    /**
     * The backup's messages, in order, with acks (publishAll). Messages stored on subjects the stream no
     * longer lists (2.9 retained messages left on `$MQTT.rmsgs` after the subjects changed) can only be
     * stored again while the stream lists them too: its subjects are widened for the restore, then put back.
     * Its errors are audited.
     */
    Result<void> restoreMessages(JetStreamClient &js, const QString &path, const TargetState &state)
    {
        QStringList outside;
        if (!options.dryRun && header.messagesIncluded) {
            const QStringList listed = MqttStreamSpec::subjectsOf(state.exists ? state.config : header.config);
            auto subjectsScan = BackupFileReader::read(path, [&](BackupMessage &&m, qint64) {
                if (!outside.contains(m.subject) && !listed.isEmpty() && !subjectCoveredBy(m.subject, listed))
                    outside << m.subject;
                return outside.size() < 1000;
            });
            if (!subjectsScan)
                return failed(subjectsScan.error());
        }
        std::optional<QJsonObject> widenedFrom;
        if (!outside.isEmpty()) {
            auto info = js.streamInfo(header.stream);
            if (!info)
                return failed(info.error());
            QJsonObject config = info->value(QLatin1String("config")).toObject();
            widenedFrom = config;
            QJsonArray subjects = config.value(QLatin1String("subjects")).toArray();
            for (const QString &subject : outside)
                subjects.append(subject);
            config.insert(QStringLiteral("subjects"), subjects);
            if (auto u = updateStream(js, config); !u)
                return failed(u.error().prefixed(QStringLiteral("adding the backup's subjects %1 to %2 for the restore")
                                                     .arg(outside.join(QStringLiteral(", ")), header.stream)));
            result.warnings << QStringLiteral("%1 listed %2 only during the restore (its messages there were restored; the "
                                              "stream's subjects are as before)")
                                   .arg(header.stream, outside.join(QStringLiteral(", ")));
        }
        const auto published = publishAll(state);
        if (widenedFrom)
            if (auto u = updateStream(js, *widenedFrom); !u)
                return failed(u.error().prefixed(QStringLiteral("putting back the subjects of %1 after the restore").arg(header.stream)));
        if (!published)
            return failed(published.error());
        return {};
    }

    /** STREAM.UPDATE of the backup's stream with `config`, recorded for the audit entry. */
    Result<QJsonObject> updateStream(JetStreamClient &js, const QJsonObject &config)
    {
        const QString op = QStringLiteral("STREAM.UPDATE.") + header.stream;
        requests.append(AuditLog::request(js.apiSubject(op), config));
        return js.call(op, config);
    }

    /** The audit entry of a restore that ran: the API requests as sent, the publishes as one summary (no message bodies in the log). */
    void auditOutcome()
    {
        const quint64 sent = result.restored + result.failed;
        if (sent > 0) {
            const QString subjects = header.subjectFilter.isEmpty()
                ? header.config.value(QLatin1String("subjects")).toVariant().toStringList().join(QLatin1Char(','))
                : header.subjectFilter;
            requests.append(AuditLog::request(subjects,
                                              QJsonObject{{QStringLiteral("publish"), qint64(sent)},
                                                          {QStringLiteral("acknowledged"), qint64(result.restored)},
                                                          {QStringLiteral("failed"), qint64(result.failed)}}));
        }
        if (result.cancelled)
            audit(QStringLiteral("cancelled"), QStringLiteral("cancelled by the user"));
        else if (result.failed > 0)
            audit(QStringLiteral("error"),
                  QStringLiteral("%1 message(s) not restored: %2").arg(result.failed).arg(result.failures.value(0)));
        else
            audit(QStringLiteral("ok"), {});
    }
};

} // namespace

Result<RestoreResult> run(const RepairTarget &target, const QString &path, const RestoreOptions &options)
{
    if (!options.dryRun)
        if (auto w = target.checkWritable(QStringLiteral("restore of ") + QFileInfo(path).fileName()); !w)
            return w.error();
    if (!target.connection)
        return Error(Error::Kind::Internal, QStringLiteral("restore: no connection"));

    Run run{target, options, {}, {}, {}};
    run.result.path = QFileInfo(path).absoluteFilePath();
    run.result.account = target.account;
    run.result.dryRun = options.dryRun;

    // 1. Validate every line first; fingerprints tell later which messages the stream already has.
    const auto backupPrints = run.readFile(path);
    if (!backupPrints)
        return backupPrints.error();
    // 2. The stream: its content decides whether restoring is safe; create it when missing.
    JetStreamClient js(target.connection, target.apiDomain);
    const auto state = run.prepareStream(js, *backupPrints);
    if (!state)
        return state.error();
    // 3. Consumers before messages: interest retention keeps only what someone is interested in.
    if (auto c = run.createConsumers(js, state->exists && !(options.dryRun && run.result.streamCreated)); !c)
        return run.failed(c.error());
    // 4. Messages, in order, with acks.
    if (auto m = run.restoreMessages(js, path, *state); !m)
        return m.error();
    // 5. Audit.
    run.auditOutcome();
    return run.result;
}

} // namespace StreamRestore

} // namespace MqttDoctor
