#include "nats/internal/orderedconsumer.h"

#include <cstring>

#include <QDeadlineTimer>

#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/internal/natsconnectionhandle.h"
#include "nats/internal/readfailure.h"

namespace MqttDoctor {

namespace {

constexpr qint64 kHeartbeatNs = 5'000'000'000; // the server's idle heartbeat while nothing is delivered
constexpr int kMaxResets = 100; // new consumers after gaps or reconnects before a read gives up

// An empty message to `subject`: the answer to a flow-control request or a stalled-consumer heartbeat.
void answer(natsConnection *nc, const char *subject)
{
    if (subject && *subject)
        static_cast<void>(natsConnection_Publish(nc, subject, nullptr, 0));
}

QString headerValue(natsMsg *m, const char *key)
{
    const char *value = nullptr;
    if (natsMsgHeader_Get(m, key, &value) != NATS_OK || !value)
        return {};
    return QString::fromUtf8(value);
}

// The last consumer sequence the server delivered, as an idle heartbeat says; 0 when it says nothing.
quint64 lastConsumerSequence(natsMsg *heartbeat)
{
    bool ok = false;
    const quint64 n = headerValue(heartbeat, "Nats-Last-Consumer").toULongLong(&ok);
    return ok ? n : 0;
}

// How often the connection has reconnected so far.
quint64 reconnectsOf(natsConnection *nc)
{
    natsStatistics *stats = nullptr;
    uint64_t reconnects = 0;
    if (natsStatistics_Create(&stats) == NATS_OK && natsConnection_GetStats(nc, stats) == NATS_OK)
        natsStatistics_GetCounts(stats, nullptr, nullptr, nullptr, nullptr, &reconnects);
    natsStatistics_Destroy(stats);
    return quint64(reconnects);
}

} // namespace

OrderedConsumer::OrderedConsumer(std::shared_ptr<NatsConnection> connection, QString domain, QString stream, QString filterSubject,
                                 Start start)
    : m_connection(std::move(connection)), m_domain(std::move(domain)), m_stream(std::move(stream)), m_filter(std::move(filterSubject)),
      m_start(start)
{}

OrderedConsumer::~OrderedConsumer()
{
    drop();
}

Result<void> OrderedConsumer::start()
{
    return create(0);
}

Result<void> OrderedConsumer::create(quint64 startSequence)
{
    natsConnection *nc = natsHandle(*m_connection);
    natsInbox *inbox = nullptr;
    natsStatus s = natsInbox_Create(&inbox);
    if (s != NATS_OK)
        return ReadFailure::natsError(s, QStringLiteral("making a delivery inbox"));
    const QString deliver = QString::fromUtf8(inbox);
    s = natsConnection_SubscribeSync(&m_sub, nc, inbox);
    natsInbox_Destroy(inbox);
    if (s != NATS_OK) {
        m_sub = nullptr;
        return ReadFailure::natsError(s, QStringLiteral("subscribing to a delivery inbox"));
    }
    natsSubscription_SetPendingLimits(m_sub, -1, -1); // the server's flow control bounds what is buffered

    QJsonObject config{{QStringLiteral("deliver_subject"), deliver}, {QStringLiteral("ack_policy"), QStringLiteral("none")},
                       {QStringLiteral("max_deliver"), 1},           {QStringLiteral("replay_policy"), QStringLiteral("instant")},
                       {QStringLiteral("flow_control"), true},       {QStringLiteral("idle_heartbeat"), kHeartbeatNs},
                       {QStringLiteral("mem_storage"), true},        {QStringLiteral("num_replicas"), 1}};
    // ">" filters nothing; last-per-subject keeps it, as older servers want a filter with that policy.
    if (!m_filter.isEmpty() && (m_filter != QLatin1String(">") || m_start == Start::LastPerSubject))
        config.insert(QStringLiteral("filter_subject"), m_filter);
    if (startSequence > 0) {
        config.insert(QStringLiteral("deliver_policy"), QStringLiteral("by_start_sequence"));
        config.insert(QStringLiteral("opt_start_seq"), qint64(startSequence));
    } else {
        config.insert(QStringLiteral("deliver_policy"),
                      m_start == Start::LastPerSubject ? QStringLiteral("last_per_subject") : QStringLiteral("all"));
    }
    m_connection->requests().noteOrderedConsumer(m_stream);
    JetStreamClient js(m_connection, m_domain);
    auto made = js.call(QStringLiteral("CONSUMER.CREATE.") + m_stream,
                        QJsonObject{{QStringLiteral("stream_name"), m_stream}, {QStringLiteral("config"), config}});
    if (!made) {
        // It may exist all the same (the reply was late): an ephemeral push consumer whose inbox nobody
        // listens to is removed by the server a few seconds later.
        closeSubscription(nc, m_sub);
        m_sub = nullptr;
        return made.error();
    }
    m_name = made->value(QLatin1String("name")).toString();
    m_reconnects = reconnectsOf(nc);
    m_lastConsumerSequence = 0;
    m_needsReset = false;
    return {};
}

void OrderedConsumer::drop()
{
    if (!m_sub)
        return;
    closeSubscription(natsHandle(*m_connection), m_sub);
    m_sub = nullptr;
    if (!m_name.isEmpty() && m_connection->isConnected())
        static_cast<void>(JetStreamClient(m_connection, m_domain).call(QStringLiteral("CONSUMER.DELETE.%1.%2").arg(m_stream, m_name)));
    m_name.clear();
}

Result<void> OrderedConsumer::reset()
{
    drop();
    if (++m_resets > kMaxResets)
        return Error(Error::Kind::JetStream,
                     QStringLiteral("reading stream %1: messages went missing on the way %2 times; the read was given up")
                         .arg(m_stream)
                         .arg(kMaxResets),
                     QStringLiteral("the connection to the server keeps dropping messages: check the network and the server, "
                                    "then retry"));
    // Nothing handed out yet: the first consumer's start again; else the message after the last one.
    return create(m_lastStreamSequence > 0 ? m_lastStreamSequence + 1 : 0);
}

void OrderedConsumer::handleControl(natsMsg *m)
{
    natsConnection *nc = natsHandle(*m_connection);
    const QString description = headerValue(m, "Description");
    if (description.startsWith(QLatin1String("Flow"))) {
        // Everything delivered before it has been handed out: ask for more.
        answer(nc, natsMsg_GetReply(m));
        return;
    }
    if (!description.startsWith(QLatin1String("Idle")))
        return;
    const QByteArray stalled = headerValue(m, "Nats-Consumer-Stalled").toUtf8();
    if (!stalled.isEmpty())
        answer(nc, stalled.constData());
    // The server delivered more than arrived here (the last messages were lost): start again after the last one seen.
    if (const quint64 last = lastConsumerSequence(m); last > m_lastConsumerSequence)
        m_needsReset = true;
}

Result<natsMsg *> OrderedConsumer::next(int waitMs, JsAckReply &meta)
{
    QDeadlineTimer deadline(std::max(1, waitMs));
    for (;;) {
        if (m_needsReset) {
            if (auto again = reset(); !again)
                return again.error();
        }
        if (!m_sub)
            return Error(Error::Kind::Internal, QStringLiteral("reading stream %1: the consumer was not started").arg(m_stream));
        natsMsg *m = nullptr;
        const natsStatus s = natsSubscription_NextMsg(&m, m_sub, std::max<qint64>(1, deadline.remainingTime()));
        if (s == NATS_TIMEOUT) {
            // Reconnected since the consumer was made (a server restart, a network blip): what the old
            // connection had in flight is lost and the consumer may be gone. Start again after the last message.
            if (reconnectsOf(natsHandle(*m_connection)) != m_reconnects && m_connection->isConnected()) {
                m_needsReset = true;
                continue;
            }
            return static_cast<natsMsg *>(nullptr);
        }
        if (s != NATS_OK)
            return ReadFailure::natsError(s, QStringLiteral("reading stream ") + m_stream);
        JsAckReply ack;
        if (!JsAckReply::parse(natsMsg_GetReply(m), ack)) {
            if (natsMsg_GetDataLength(m) == 0 && headerValue(m, "Status") == QLatin1String("100")) {
                handleControl(m);
                natsMsg_Destroy(m);
                if (deadline.hasExpired())
                    return static_cast<natsMsg *>(nullptr);
                continue;
            }
            // A reply subject of a form the parser does not know: nats.c's own reading of it.
            jsMsgMetaData *md = nullptr;
            if (natsMsg_GetMetaData(&md, m) != NATS_OK || !md) {
                const QString reply = QString::fromUtf8(natsMsg_GetReply(m));
                natsMsg_Destroy(m);
                return Error(Error::Kind::Protocol,
                             QStringLiteral("reading stream %1: a message without JetStream metadata came to the consumer's "
                                            "inbox (reply subject \"%2\")")
                                 .arg(m_stream, reply),
                             QStringLiteral("retry; if it persists, report it with this message and the server's version"));
            }
            ack.streamSequence = md->Sequence.Stream;
            ack.consumerSequence = md->Sequence.Consumer;
            ack.timeNs = md->Timestamp;
            ack.pending = md->NumPending;
            jsMsgMetaData_Destroy(md);
        }
        if (ack.consumerSequence != m_lastConsumerSequence + 1) {
            // A message went missing between server and here: this one is out of order.
            natsMsg_Destroy(m);
            m_needsReset = true;
            continue;
        }
        m_lastConsumerSequence = ack.consumerSequence;
        m_lastStreamSequence = ack.streamSequence;
        meta = ack;
        return m;
    }
}

Result<QJsonObject> OrderedConsumer::info()
{
    if (m_name.isEmpty())
        return Error(Error::Kind::Internal, QStringLiteral("reading stream %1: the consumer was not started").arg(m_stream));
    return JetStreamClient(m_connection, m_domain).call(QStringLiteral("CONSUMER.INFO.%1.%2").arg(m_stream, m_name));
}

} // namespace MqttDoctor
