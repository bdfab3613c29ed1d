#pragma once
// Reads and writes of the retained-message store $MQTT_rmsgs, shared by the retained-message repair
// actions (retainedactions.cpp, retainedrevert.cpp): its two shapes, its config and state, reading its
// messages without a consumer, read-modify-write config updates, pipelined republishing with publish
// acks, deletes by sequence. Private to repair/actions. Blocking functions run on the executor's worker
// thread.

#include <optional>

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "mqtt/retainedrecord.h"
#include "nats/streamreader.h"
#include "repair/repairaction.h"

namespace MqttDoctor::RetainedStore {

/** The subjects of $MQTT_rmsgs: 2.9 (`$MQTT.rmsgs`), 2.10+ (`$MQTT.rmsgs.>`), or anything else. */
enum class Shape { Legacy, Modern, Other };

Shape shapeOf(const QJsonObject &config);
/** max_msgs_per_subject, -1 when unset. */
qint64 perSubjectLimit(const QJsonObject &config);
/** `$MQTT.rmsgs.<natsSubject>`. */
QString perSubjectSubject(const QString &natsSubject);
/** True for `$MQTT.rmsgs.<something>`. */
bool isPerSubject(const QString &storedSubject);

/**
 * The messages of $MQTT_rmsgs, oldest first, never through a consumer (a wildcard consumer on a
 * 2.10+-shaped store can wedge a 2.9.10 server's JetStream API): `subject` empty reads every live
 * sequence with STREAM.MSG.GET; else walks `next_by_subj` on that subject.
 */
Result<QList<StreamMessage>> readMessages(const ExecContext &ctx, const QString &subject = {});

/** What STREAM.INFO says about $MQTT_rmsgs, once it passed consistentState(). */
struct StoreState
{
    quint64 messages = 0;
    quint64 firstSequence = 0;
    quint64 lastSequence = 0;
    QHash<QString, quint64> subjects; ///< messages per subject (every subject, paged)
};

/**
 * Why a STREAM.INFO state cannot describe a real store, or empty when it can: a sequence with bit 62
 * set (2.10+ writes deletes as tombstone records with that bit; 2.9.10 serving such a store takes them
 * for messages), more messages than sequences in the range, or per-subject counts (when given) that do
 * not add up to the message count. Seen on 2.9.10 serving a store a 2.10+ server wrote: deleted
 * records came back, records stored after a delete could not be read by any request, and the ranges
 * ran up to 2^62 + n. Pure.
 */
QString stateContradiction(const QJsonObject &state, const std::optional<quint64> &subjectTotal = std::nullopt);

/** The state of $MQTT_rmsgs with its per-subject counts; an error when stateContradiction() finds one. */
Result<StoreState> consistentState(const ExecContext &ctx);

/** `$JS.API.STREAM.INFO.$MQTT_rmsgs` `{"subjects_filter": filter}`: messages per subject. */
Result<QHash<QString, qint64>> subjectCounts(const ExecContext &ctx, const QString &filter);
/** The raw config of $MQTT_rmsgs now; nullopt when it does not exist. */
Result<std::optional<QJsonObject>> currentConfig(const ExecContext &ctx);
/** Ok when nothing is stored on the literal `$MQTT.rmsgs`. */
Result<void> noneLeftOnLegacySubject(const ExecContext &ctx);

/** Decodes one stored message of $MQTT_rmsgs. */
Result<RetainedRecord> decode(const StreamMessage &message);

/**
 * STREAM.UPDATE of $MQTT_rmsgs: the current raw config re-read right now with `changes` written
 * over it (every other field kept; docs/safety.md). The reply, summarised.
 */
Result<QJsonObject> updateConfig(const ExecContext &ctx, const QJsonObject &changes);

/**
 * The JSON body (the encoding every version reads: 2.9 and 2.10 natively, 2.11+ by fallback) of a
 * republished record, without `origin`: 2.9 and 2.10 servers ignore live records that carry their
 * own origin, and a republished record must reach every server at once.
 */
QByteArray republishBody(const RetainedRecord &record);

/** One message to republish into $MQTT_rmsgs. */
struct Outgoing
{
    QString subject;
    QByteArray data;
    /** Nats-Expected-Last-Subject-Sequence (0: the subject must be empty); nullopt: no header. */
    std::optional<quint64> expectedLast;
    QString topic; ///< for the report
};

struct PublishOutcome
{
    quint64 stored = 0;
    quint64 newerKept = 0; ///< refused by the expected-last-sequence guard: another message arrived meanwhile, kept
    QStringList failures; ///< the first failures' texts
    quint64 failed = 0;
    QJsonArray sample; ///< the first acks, for the report
};

/** Publishes in order with publish acks (plain inbox replies, never `$MQTT.JSA.*`). */
Result<PublishOutcome> publishAll(const ExecContext &ctx, const QList<Outgoing> &messages);

struct DeleteOutcome
{
    quint64 deleted = 0;
    quint64 alreadyGone = 0; ///< 10037: deleted before (a rerun, or a server's own transfer)
    QJsonArray sample; ///< the first replies
};

/** STREAM.MSG.DELETE.$MQTT_rmsgs {"seq":N} for each sequence. */
Result<DeleteOutcome> deleteSequences(const ExecContext &ctx, const QList<quint64> &sequences);

/** The full API subject of `op` for the report (`$JS.API.<op>` or `$JS.<domain>.API.<op>`). */
QString apiSubject(const ExecContext &ctx, const QString &op);

/** The newest record per topic (highest sequence), in sequence order. */
QList<RetainedRecord> newestPerTopic(const QList<RetainedRecord> &records);

} // namespace MqttDoctor::RetainedStore
