#pragma once

#include <optional>

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsHeaders;

/**
 * The first line of a backup file: what was backed up, from where, when, and everything needed to
 * recreate the stream and its consumers. `config`, `state` and each consumer's `config` are the
 * server's JSON as returned (unknown fields kept; docs/safety.md).
 */
struct BackupHeader
{
    static constexpr int CurrentFormat = 1;

    int format = CurrentFormat;
    QString stream;
    QString account; ///< may be empty when the server did not say
    QString domain; ///< JetStream API domain used, empty for none
    QString created; ///< RFC 3339 (UTC, ns)
    QString toolVersion;
    QString subjectFilter; ///< empty: the whole stream; else only messages on this subject (wildcards allowed)
    bool messagesIncluded = true; ///< false: configs only (e.g. before deleting a consumer)
    QJsonObject config; ///< STREAM.INFO `config`
    QJsonObject state; ///< STREAM.INFO `state` when the backup started
    /** CONSUMER.INFO of each consumer backed up: {"name": ..., "config": {...}}. */
    QList<QJsonObject> consumers;

    QJsonObject toJson() const;
    /** Checks the shape; the error says which field is wrong. */
    static Result<BackupHeader> fromJson(const QJsonObject &json);

    /** `retention` is "interest" (or "workqueue"): never read with a consumer (docs/safety.md). */
    bool isInterestRetention() const;
    /** The config's `max_msgs_per_subject` (-1 or 0: unlimited). */
    qint64 maxMsgsPerSubject() const;
};

/** One stored message. `headers` is the raw header block, empty when the message had none. */
struct BackupMessage
{
    QString subject;
    quint64 seq = 0;
    qint64 timeNs = 0; ///< store time, ns since the Unix epoch (UTC)
    QByteArray headers;
    QByteArray data;

    QJsonObject toJson() const;
    static Result<BackupMessage> fromJson(const QJsonObject &json);
    /** Bytes counted for the trailer: data plus header block. */
    qint64 size() const { return data.size() + headers.size(); }
};

/** The last line: how many message lines precede it and their bytes; tells a complete file from a cut one. */
struct BackupTrailer
{
    quint64 messages = 0;
    quint64 bytes = 0;

    QJsonObject toJson() const;
    static Result<BackupTrailer> fromJson(const QJsonObject &json);
};

/**
 * The backup file format (JSON Lines, UTF-8, one compact JSON object per line; docs/cli.md
 * "Backup file format"):
 *
 *   {"backup":"nats-mqtt-doctor","format":1,"stream":...,"config":{...},"state":{...},"consumers":[...],...}
 *   {"seq":12,"subject":"$MQTT.sess.PNfq787e","time":"2026-12-02T15:50:37.344798216Z","hdrs":"TkFUUy8x...","data":"eyJ..."}
 *   ...
 *   {"end":true,"messages":2,"bytes":612}
 *
 * `hdrs` is the base64 of the raw header block exactly as read (absent when the message had none),
 * `data` the base64 body: both round-trip byte for byte. Sequences strictly increase. Pure and
 * thread-safe.
 */
namespace BackupFormat {

/** A JSON object as one compact line, '\n' included. */
QByteArray encodeLine(const QJsonObject &object);
/** RFC 3339 in UTC with nanoseconds: 2026-12-02T15:50:37.344798216Z. */
QString formatTime(qint64 ns);
/** Parses formatTime()'s output (and any RFC 3339 with 0..9 fraction digits); nullopt when invalid. */
std::optional<qint64> parseTime(const QString &text);

/** What one line of a file is. */
struct Line
{
    enum class Kind { Header, Message, Trailer };
    Kind kind = Kind::Message;
    BackupHeader header;
    BackupMessage message;
    BackupTrailer trailer;
};
/** Parses and validates one line (without its '\n'). The error names what is wrong, not the line number. */
Result<Line> parseLine(const QByteArray &line);

/**
 * Headers that restore does not republish: `Nats-Expected-*` (JetStream would enforce them against
 * the new sequences, e.g. the session records' `Nats-Expected-Last-Subject-Sequence:N`), `Nats-Msg-Id`
 * (JetStream would drop a republished message as a duplicate inside the duplicate window),
 * `Nats-Rollup` (would purge the subject or stream) and `Nats-Batch-*` (atomic batch control).
 * Case-insensitive.
 */
bool isStrippedHeader(const QString &key);
/** The headers restore publishes: `headers` without the stripped ones. */
NatsHeaders restorableHeaders(const NatsHeaders &headers);
/**
 * Identity of a message for "already restored?": SHA-256 over subject, the restorable headers (sorted
 * key/value pairs, so spelling of the block and order do not matter) and data. The same for a
 * backed-up message and its republished copy.
 */
QByteArray fingerprint(const QString &subject, const QByteArray &headerBlock, const QByteArray &data);

} // namespace BackupFormat

} // namespace MqttDoctor
