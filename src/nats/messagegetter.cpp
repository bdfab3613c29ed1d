#include "nats/messagegetter.h"

#include <nats/nats.h>

#include <algorithm>

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>

#include "common/rfc3339time.h"
#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/natsconnection.h"
#include "nats/internal/natsconnectionhandle.h"
#include "nats/internal/readfailure.h"

// Reads by sequence: pipelined raw STREAM.MSG.GET requests, no consumer.

namespace MqttDoctor {

MessageGetter::MessageGetter(std::shared_ptr<NatsConnection> connection, QString domain)
    : m_connection(std::move(connection)), m_domain(std::move(domain))
{}

Result<ReadSummary> MessageGetter::getBySequences(const QString &stream, const QList<quint64> &sequences, const Options &options,
                                                  const BatchHandler &onBatch)
{
    const QString what = QStringLiteral("reading stream ") + stream + QStringLiteral(" by sequence");
    ReadSummary summary;
    if (sequences.isEmpty())
        return summary;

    natsConnection *nc = natsHandle(*m_connection);
    const quint64 mark = m_connection->asyncErrorMark();
    natsInbox *inbox = nullptr;
    natsStatus s = natsInbox_Create(&inbox);
    if (s != NATS_OK)
        return ReadFailure::natsError(s, what);
    const QByteArray prefix = QByteArray(inbox) + '.';
    natsInbox_Destroy(inbox);

    natsSubscription *sub = nullptr;
    const QByteArray wildcard = prefix + '*';
    s = natsConnection_SubscribeSync(&sub, nc, wildcard.constData());
    if (s != NATS_OK)
        return ReadFailure::natsError(s, what);
    auto destroySub = qScopeGuard([sub, nc] { closeSubscription(nc, sub); });
    natsSubscription_SetPendingLimits(sub, -1, -1);

    const QString apiSubject = JetStreamClient(m_connection, m_domain).apiSubject(QStringLiteral("STREAM.MSG.GET.") + stream);
    const QByteArray api = apiSubject.toUtf8();
    const qsizetype total = sequences.size();
    const int inFlightMax = std::max(1, options.inFlight);
    const int batchSize = std::max(1, options.batchSize);
    const int timeoutMs = std::max(options.idleTimeoutMs, 1);

    QList<bool> answered(total, false);
    qsizetype sent = 0;
    qsizetype received = 0;
    QList<StreamMessage> batch;
    batch.reserve(batchSize);
    ReadProgress progress;
    progress.total = quint64(total);

    auto flushBatch = [&]() -> bool {
        std::sort(batch.begin(), batch.end(), [](const StreamMessage &a, const StreamMessage &b) { return a.sequence < b.sequence; });
        summary.delivered += quint64(batch.size());
        progress.done = summary.delivered;
        const bool more = onBatch(std::move(batch), progress);
        batch = QList<StreamMessage>();
        batch.reserve(batchSize);
        return more;
    };

    QElapsedTimer idle;
    idle.start();
    while (received < total) {
        if (options.cancelled()) {
            summary.cancelled = true;
            return summary;
        }
        while (sent < total && sent - received < inFlightMax) {
            const QByteArray reply = prefix + QByteArray::number(sent);
            const QByteArray body = "{\"seq\":" + QByteArray::number(sequences.at(sent)) + '}';
            m_connection->requests().noteRequest(apiSubject);
            s = natsConnection_PublishRequest(nc, api.constData(), reply.constData(), body.constData(), static_cast<int>(body.size()));
            if (s != NATS_OK)
                return ReadFailure::natsError(s, what);
            ++sent;
        }
        natsMsg *m = nullptr;
        s = natsSubscription_NextMsg(&m, sub, StreamReadOptions::PollMs);
        if (s == NATS_TIMEOUT) {
            if (const QString v = m_connection->permissionViolationSince(mark); !v.isEmpty())
                return ReadFailure::deniedOr(*m_connection, mark, what, Error());
            if (idle.elapsed() > timeoutMs)
                return Error(Error::Kind::Timeout,
                             QStringLiteral("%1: no reply for %2 ms (%3 of %4 answered)")
                                 .arg(what, QString::number(timeoutMs), QString::number(received), QString::number(total)),
                             QStringLiteral("check that JetStream is available for the account and retry"));
            continue;
        }
        if (s != NATS_OK)
            return ReadFailure::natsError(s, what);
        idle.restart();

        const QByteArray replySubject(natsMsg_GetSubject(m));
        const int dataLen = natsMsg_GetDataLength(m);
        const QByteArray payload(natsMsg_GetData(m), std::max(dataLen, 0));
        const bool noResponders = natsMsg_IsNoResponders(m);
        natsMsg_Destroy(m);
        bool okIndex = false;
        const qsizetype index = replySubject.mid(prefix.size()).toLongLong(&okIndex);
        if (!okIndex || index < 0 || index >= sent || answered.at(index))
            continue; // not ours, or a duplicate
        answered[index] = true;
        ++received;

        if (noResponders)
            return Error(Error::Kind::JetStream, what + QStringLiteral(": no JetStream responds for this account"),
                         QStringLiteral("JetStream is not enabled for the account, or the domain is wrong"))
                .withJsErrCode(JsErrors::NotEnabledForAccount);
        auto message = parseMessageGetReply(payload, stream, sequences.at(index));
        if (!message)
            return message.error();
        if (message->deleted)
            ++summary.deleted;
        summary.lastSequence = std::max(summary.lastSequence, message->sequence);
        batch.append(std::move(*message));

        if (batch.size() >= batchSize || received == total) {
            if (!flushBatch() && received < total) {
                summary.cancelled = true;
                return summary;
            }
        }
    }
    return summary;
}

Result<StreamMessage> MessageGetter::parseMessageGetReply(const QByteArray &payload, const QString &stream, quint64 sequence)
{
    const QString op = QStringLiteral("STREAM.MSG.GET.") + stream;
    const QJsonDocument doc = QJsonDocument::fromJson(payload);
    if (!doc.isObject())
        return JetStreamClient::malformed(op,
                                          QStringLiteral("the reply for sequence %1 is not a JSON object: %2")
                                              .arg(sequence)
                                              .arg(QString::fromUtf8(payload.left(120)).simplified()));
    const QJsonObject obj = doc.object();
    StreamMessage out;
    out.sequence = sequence;
    if (obj.contains(QLatin1String("error"))) {
        if (!obj.value(QLatin1String("error")).isObject())
            return JetStreamClient::malformed(op, QStringLiteral("\"error\" is not an object"));
        const QJsonObject err = obj.value(QLatin1String("error")).toObject();
        if (err.value(QLatin1String("err_code")).toInt() != JsErrors::NoMessageFound)
            return JetStreamClient::errorFromReply(err, op);
        out.deleted = true;
    } else if (obj.value(QLatin1String("message")).isObject()) {
        const QJsonObject msg = obj.value(QLatin1String("message")).toObject();
        out.subject = msg.value(QLatin1String("subject")).toString();
        if (msg.value(QLatin1String("seq")).toInteger(-1) != qint64(sequence) || out.subject.isEmpty())
            return JetStreamClient::malformed(op,
                                              QStringLiteral("asked for sequence %1, the reply holds %2")
                                                  .arg(sequence)
                                                  .arg(out.subject.isEmpty() ? QStringLiteral("a message without a subject")
                                                                             : QStringLiteral("sequence ")
                                                               + msg.value(QLatin1String("seq")).toVariant().toString().left(40)));
        out.sequence = quint64(msg.value(QLatin1String("seq")).toInteger());
        out.timeNs = parseTimeNs(msg.value(QLatin1String("time")).toString());
        out.data = QByteArray::fromBase64(msg.value(QLatin1String("data")).toString().toLatin1());
        const QString hdrs = msg.value(QLatin1String("hdrs")).toString();
        if (!hdrs.isEmpty())
            out.headers = QByteArray::fromBase64(hdrs.toLatin1());
    } else {
        return JetStreamClient::malformed(op,
                                          QStringLiteral("the reply for sequence %1 holds neither a message object nor an error: %2")
                                              .arg(sequence)
                                              .arg(QString::fromUtf8(payload.left(120)).simplified()));
    }
    return out;
}

qint64 MessageGetter::parseTimeNs(const QString &rfc3339)
{
    return Rfc3339Time::parseNs(rfc3339).value_or(0);
}

} // namespace MqttDoctor
