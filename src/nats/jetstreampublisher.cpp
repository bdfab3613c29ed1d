#include "nats/jetstreampublisher.h"

#include <nats/nats.h>

#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>

#include "nats/natsheaders.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/internal/natsconnectionhandle.h"
#include "nats/natserrors.h"

namespace MqttDoctor {

namespace {

constexpr int PollMs = 100;

Error natsError(natsStatus s, const QString &what)
{
    Error e(s == NATS_TIMEOUT ? Error::Kind::Timeout : Error::Kind::Internal, what + QStringLiteral(": ") + NatsErrors::statusText(s));
    e.withNatsStatus(s);
    return e;
}

} // namespace

struct JetStreamPublisher::Private
{
    std::shared_ptr<NatsConnection> connection;
    QString stream;
    AckHandler onAck;
    int inFlight = 256;
    int idleTimeoutMs = 10000;
    natsSubscription *sub = nullptr;
    QByteArray prefix;
    quint64 nextId = 0;
    QHash<quint64, std::pair<quint64, QString>> pending; // reply id -> (tag, subject)
    QElapsedTimer idle;
};

JetStreamPublisher::JetStreamPublisher(std::shared_ptr<NatsConnection> connection, QString stream, AckHandler onAck, int inFlight,
                                       int idleTimeoutMs)
    : d(std::make_unique<Private>())
{
    d->connection = std::move(connection);
    d->stream = std::move(stream);
    d->onAck = std::move(onAck);
    d->inFlight = std::max(1, inFlight);
    d->idleTimeoutMs = std::max(100, idleTimeoutMs);
}

JetStreamPublisher::~JetStreamPublisher()
{
    if (d->sub)
        closeSubscription(natsHandle(*d->connection), d->sub); // acks of abandoned publishes may still come
}

quint64 JetStreamPublisher::outstanding() const
{
    return quint64(d->pending.size());
}

Result<void> JetStreamPublisher::start()
{
    natsInbox *inbox = nullptr;
    natsStatus s = natsInbox_Create(&inbox);
    if (s != NATS_OK)
        return natsError(s, QStringLiteral("publishing to ") + d->stream);
    d->prefix = QByteArray(inbox) + '.';
    natsInbox_Destroy(inbox);
    const QByteArray wildcard = d->prefix + '*';
    s = natsConnection_SubscribeSync(&d->sub, natsHandle(*d->connection), wildcard.constData());
    if (s != NATS_OK)
        return natsError(s, QStringLiteral("publishing to ") + d->stream);
    natsSubscription_SetPendingLimits(d->sub, -1, -1);
    d->idle.start();
    return {};
}

Result<void> JetStreamPublisher::publish(quint64 tag, const QString &subject, const NatsHeaders &headers, const QByteArray &data)
{
    if (!d->sub)
        if (auto r = start(); !r)
            return r;
    while (d->pending.size() >= d->inFlight)
        if (auto r = receive(PollMs); !r)
            return r;

    const quint64 id = d->nextId++;
    const QByteArray reply = d->prefix + QByteArray::number(id);
    const QByteArray subj = subject.toUtf8();
    natsMsg *m = nullptr;
    natsStatus s = natsMsg_Create(&m, subj.constData(), reply.constData(), data.constData(), int(data.size()));
    if (s != NATS_OK)
        return natsError(s, QStringLiteral("publishing to ") + subject);
    auto destroy = qScopeGuard([m] { natsMsg_Destroy(m); });
    for (const auto &[key, value] : headers.entries()) {
        s = natsMsgHeader_Add(m, key.toUtf8().constData(), value.toUtf8().constData());
        if (s != NATS_OK)
            return natsError(s, QStringLiteral("publishing to %1: header %2").arg(subject, key));
    }
    if (d->pending.isEmpty())
        d->idle.restart();
    d->pending.insert(id, {tag, subject});
    s = natsConnection_PublishMsg(natsHandle(*d->connection), m);
    if (s != NATS_OK) {
        d->pending.remove(id);
        return natsError(s, QStringLiteral("publishing to ") + subject);
    }
    // Take whatever acks are already there without waiting.
    return receive(0);
}

Result<void> JetStreamPublisher::receive(int waitMs)
{
    for (;;) {
        if (waitMs == 0) {
            // Non-blocking: only take acks that are already queued.
            int queued = 0;
            int bytes = 0;
            if (natsSubscription_GetPending(d->sub, &queued, &bytes) != NATS_OK || queued == 0)
                return {};
        }
        natsMsg *m = nullptr;
        const natsStatus s = natsSubscription_NextMsg(&m, d->sub, std::max(waitMs, 1));
        if (s == NATS_TIMEOUT) {
            if (!d->pending.isEmpty() && d->idle.elapsed() > d->idleTimeoutMs) {
                // No ack in time: report each outstanding message; it may or may not be stored.
                const auto lost = d->pending;
                d->pending.clear();
                for (auto it = lost.cbegin(); it != lost.cend(); ++it)
                    d->onAck(it.value().first,
                             Error(Error::Kind::Timeout,
                                   QStringLiteral("%1: no publish acknowledgement within %2 ms (it may or may not be stored)")
                                       .arg(it.value().second)
                                       .arg(d->idleTimeoutMs)));
            }
            return {};
        }
        if (s != NATS_OK)
            return natsError(s, QStringLiteral("publishing to ") + d->stream);
        d->idle.restart();
        const QByteArray replySubject(natsMsg_GetSubject(m));
        const bool noResponders = natsMsg_IsNoResponders(m);
        const QByteArray payload(natsMsg_GetData(m), std::max(natsMsg_GetDataLength(m), 0));
        natsMsg_Destroy(m);
        bool ok = false;
        const quint64 id = replySubject.mid(d->prefix.size()).toULongLong(&ok);
        const auto it = ok ? d->pending.constFind(id) : d->pending.constEnd();
        if (it == d->pending.constEnd())
            continue; // not ours, or already timed out
        const auto [tag, subject] = it.value();
        d->pending.erase(it);
        if (noResponders) {
            d->onAck(tag, Error(Error::Kind::NoResponders, QStringLiteral("%1: no stream stores this subject").arg(subject)));
            continue;
        }
        const QJsonDocument ackDoc = QJsonDocument::fromJson(payload);
        if (!ackDoc.isObject()) {
            d->onAck(tag,
                     Error(Error::Kind::Protocol,
                           QStringLiteral("%1: the publish acknowledgement is not a JSON object: %2")
                               .arg(subject, QString::fromUtf8(payload.left(200)))));
            continue;
        }
        const QJsonObject ack = ackDoc.object();
        if (ack.contains(QLatin1String("error"))) {
            d->onAck(tag,
                     Error(JetStreamClient::errorFromReply(ack.value(QLatin1String("error")).toObject(), QStringLiteral("publish"))
                               .prefixed(subject)));
            continue;
        }
        const QString stored = ack.value(QLatin1String("stream")).toString();
        const qint64 seq = ack.value(QLatin1String("seq")).toInteger(0);
        if (stored != d->stream || seq <= 0) {
            d->onAck(tag,
                     Error(Error::Kind::Protocol,
                           QStringLiteral("%1: stored in stream \"%2\" instead of %3 (ack: %4)")
                               .arg(subject, stored, d->stream, QString::fromUtf8(payload.left(200)))));
            continue;
        }
        if (ack.value(QLatin1String("duplicate")).toBool()) {
            d->onAck(tag, Error(Error::Kind::JetStream, QStringLiteral("%1: JetStream dropped it as a duplicate").arg(subject)));
            continue;
        }
        d->onAck(tag, quint64(seq));
        if (waitMs > 0)
            return {}; // progress made; the caller decides whether to wait more
    }
}

Result<void> JetStreamPublisher::finish()
{
    if (!d->sub)
        return {};
    natsConnection_Flush(natsHandle(*d->connection));
    while (!d->pending.isEmpty())
        if (auto r = receive(PollMs); !r)
            return r;
    return {};
}

} // namespace MqttDoctor
