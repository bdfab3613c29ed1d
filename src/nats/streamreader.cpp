#include "nats/streamreader.h"

#include <nats/nats.h>

#include <algorithm>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>

#include "nats/jetstreamclient.h"
#include "nats/jsackreply.h"
#include "nats/natsconnection.h"
#include "nats/internal/natsmessagecopy.h"
#include "nats/internal/orderedconsumer.h"
#include "nats/internal/readfailure.h"

// Reading whole streams through a read-only ordered consumer. Reads by sequence: MessageGetter; the
// stream's sequence map and subject counts: StreamIndex.

namespace MqttDoctor {

StreamReader::StreamReader(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{}

StreamReader::~StreamReader() = default;

void StreamReader::setKnownInfo(const QString &stream, const QJsonObject &info)
{
    m_knownStream = stream;
    m_knownInfo = info;
}

Result<ReadSummary> StreamReader::readLastPerSubject(const QString &stream, const QString &filterSubject, const Options &options,
                                                     const BatchHandler &onBatch)
{
    return readOrdered(stream, filterSubject, true, options, onBatch);
}

Result<ReadSummary> StreamReader::readAll(const QString &stream, const QString &filterSubject, const Options &options,
                                          const BatchHandler &onBatch)
{
    return readOrdered(stream, filterSubject, false, options, onBatch);
}

Result<ReadSummary> StreamReader::readOrdered(const QString &stream, const QString &filterSubject, bool lastPerSubject,
                                              const Options &options, const BatchHandler &onBatch)
{
    const QString what = QStringLiteral("reading stream ") + stream;
    QString subject = filterSubject;
    bool deliverLastPerSubject = lastPerSubject;
    if (subject.isEmpty() || lastPerSubject) {
        // One cheap STREAM.INFO (no subject details): the consumer needs a filter, and a stream with
        // one subject is read through that subject, which every server version accepts. A stream
        // that keeps one message per subject (`$MQTT_sess`, 2.10+ `$MQTT_rmsgs`) holds only last
        // messages, so "all" reads the same set without the server's per-subject start scan
        // (measured ~0.4 s before the first message with 100k subjects on 2.9.10).
        QJsonObject info = stream == m_knownStream ? m_knownInfo : QJsonObject();
        if (info.isEmpty()) {
            JetStreamClient js(m_connection, m_domain);
            auto asked = js.streamInfo(stream);
            if (!asked)
                return Error(asked.error()).prefixed(what);
            info = *asked;
        }
        const QJsonObject config = info.value(QLatin1String("config")).toObject();
        if (subject.isEmpty()) {
            const QJsonArray subjects = config.value(QLatin1String("subjects")).toArray();
            subject = subjects.size() == 1 ? subjects.first().toString() : QStringLiteral(">");
        }
        if (config.value(QLatin1String("max_msgs_per_subject")).toInteger() == 1)
            deliverLastPerSubject = false;
        if (info.value(QLatin1String("state")).toObject().value(QLatin1String("messages")).toInteger() == 0)
            return ReadSummary{};
    }

    const quint64 mark = m_connection->asyncErrorMark();
    OrderedConsumer consumer(m_connection, m_domain, stream, subject,
                             deliverLastPerSubject ? OrderedConsumer::Start::LastPerSubject : OrderedConsumer::Start::All);
    if (auto started = consumer.start(); !started) {
        // Say which step failed: the consumer is made with $JS.API.CONSUMER.CREATE.<stream>.
        const QString step = what
            + QStringLiteral(": creating its read-only ordered consumer (%1) failed")
                  .arg(JetStreamClient(m_connection, m_domain).apiSubject(QStringLiteral("CONSUMER.CREATE.") + stream));
        Error e = started.error();
        return ReadFailure::deniedOr(*m_connection, mark, what, e.prefixed(step));
    }

    ReadSummary summary;
    ReadProgress progress;
    // Nothing matches the filter: nothing arrives, and the consumer has nothing pending and has
    // delivered nothing. Asked only after a quiet spell: the consumer info costs the server a
    // pending count (hundreds of ms with 100k subjects) that a normal read never waits for.
    bool emptyChecked = false;
    auto nothingMatches = [&]() -> bool {
        emptyChecked = true;
        auto info = consumer.info();
        if (!info)
            return false;
        return info->value(QLatin1String("num_pending")).toInteger() == 0
            && info->value(QLatin1String("delivered")).toObject().value(QLatin1String("consumer_seq")).toInteger() == 0;
    };

    const int batchSize = std::max(1, options.batchSize);
    QList<StreamMessage> batch;
    batch.reserve(batchSize);
    // How long no message came: a clock read only when a poll comes back empty, not per message.
    QElapsedTimer idle;
    idle.start();
    qint64 idleBefore = 0; // the quiet time before `idle` was (re)started
    for (;;) {
        if (options.cancelled()) {
            summary.cancelled = true;
            return summary;
        }
        JsAckReply ack;
        auto next = consumer.next(StreamReadOptions::PollMs, ack);
        if (!next)
            return ReadFailure::deniedOr(*m_connection, mark, what, next.error());
        natsMsg *m = *next;
        if (!m) {
            if (!idle.isValid()) { // the first empty poll since a message: it waited one poll
                idle.start();
                idleBefore = StreamReadOptions::PollMs;
            }
            const qint64 idleMs = idleBefore + idle.elapsed();
            if (summary.delivered == 0 && batch.isEmpty() && !emptyChecked && idleMs >= 3 * StreamReadOptions::PollMs && nothingMatches())
                return summary;
            if (idleMs > options.idleTimeoutMs)
                return ReadFailure::deniedOr(*m_connection, mark, what,
                                             ReadFailure::idleError(stream, options.idleTimeoutMs,
                                                                    summary.delivered + quint64(batch.size()),
                                                                    !m_connection->isConnected()));
            continue;
        }
        idle.invalidate();

        StreamMessage &out = batch.emplace_back();
        out.sequence = ack.streamSequence;
        out.timeNs = ack.timeNs;
        const quint64 pending = ack.pending;
        copyNatsMessage(m, out);
        natsMsg_Destroy(m);
        summary.lastSequence = std::max(summary.lastSequence, out.sequence);

        if (batch.size() >= batchSize || pending == 0) {
            summary.delivered += quint64(batch.size());
            progress.done = summary.delivered;
            progress.total = summary.delivered + pending;
            const bool more = onBatch(std::move(batch), progress);
            batch = QList<StreamMessage>();
            if (pending == 0)
                return summary;
            if (!more) {
                summary.cancelled = true;
                return summary;
            }
            batch.reserve(batchSize);
        }
    }
}

} // namespace MqttDoctor
