#include "natssubscription.h"

#include <nats/nats.h>

#include "nats/natsconnection.h"
#include "nats/internal/natsconnectionhandle.h"
#include "nats/natserrors.h"

namespace MqttDoctor {

struct NatsSubscription::Private
{
    std::shared_ptr<NatsConnection> connection;
    natsSubscription *sub = nullptr;
    QString subject;
    int64_t droppedSeen = 0;
};

NatsSubscription::NatsSubscription(std::unique_ptr<Private> p) : d(std::move(p)) {}

NatsSubscription::~NatsSubscription()
{
    if (d->sub)
        closeSubscription(natsHandle(*d->connection), d->sub);
}

Result<std::unique_ptr<NatsSubscription>> NatsSubscription::subscribe(std::shared_ptr<NatsConnection> connection, const QString &subject)
{
    auto p = std::make_unique<Private>();
    p->connection = std::move(connection);
    p->subject = subject;
    const QByteArray subj = subject.toUtf8();
    natsConnection *nc = natsHandle(*p->connection);
    const quint64 mark = p->connection->asyncErrorMark();
    natsStatus s = natsConnection_SubscribeSync(&p->sub, nc, subj.constData());
    if (s != NATS_OK)
        return NatsErrors::fromStatus(s, {}, QStringLiteral("subscribing to ") + subject);
    // A burst (hundreds of clients connecting at once) must not overflow nats.c's default queue.
    natsSubscription_SetPendingLimits(p->sub, 1000000, 256 * 1024 * 1024);
    s = natsConnection_FlushTimeout(nc, 5000);
    if (s != NATS_OK)
        return NatsErrors::fromStatus(s, {}, QStringLiteral("subscribing to ") + subject);
    // A subscription the server refuses is reported only to the error handler.
    if (const QString denied = p->connection->permissionViolationSince(mark, subject); !denied.isEmpty())
        return Error(Error::Kind::PermissionDenied, QStringLiteral("subscribing to %1: %2").arg(subject, denied),
                     QStringLiteral("the user needs permission to subscribe to %1").arg(subject));
    return std::unique_ptr<NatsSubscription>(new NatsSubscription(std::move(p)));
}

Result<std::optional<NatsSubscription::Message>> NatsSubscription::next(int timeoutMs)
{
    natsMsg *msg = nullptr;
    const natsStatus s = natsSubscription_NextMsg(&msg, d->sub, int64_t(std::max(1, timeoutMs)));
    if (s == NATS_TIMEOUT)
        return std::optional<Message>();
    if (s != NATS_OK)
        return NatsErrors::fromStatus(s, {}, QStringLiteral("reading ") + d->subject);
    Message m;
    m.subject = QString::fromUtf8(natsMsg_GetSubject(msg));
    m.data = QByteArray(natsMsg_GetData(msg), natsMsg_GetDataLength(msg));
    natsMsg_Destroy(msg);
    return std::optional<Message>(std::move(m));
}

qint64 NatsSubscription::droppedSinceLast()
{
    int64_t dropped = 0;
    if (natsSubscription_GetDropped(d->sub, &dropped) != NATS_OK)
        return 0;
    const int64_t fresh = dropped - d->droppedSeen;
    d->droppedSeen = dropped;
    return qint64(fresh);
}

QString NatsSubscription::subject() const
{
    return d->subject;
}

} // namespace MqttDoctor
