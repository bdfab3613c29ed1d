#include "natsconnection.h"

#include <nats/nats.h>

#include <cstring>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QMutex>
#include <QScopeGuard>
#include <QSemaphore>

#include "nats/natsconnectionhandle.h"
#include "nats/natserrors.h"
#include "nats/nkeys.h"

namespace MqttDoctor {

namespace {

QString lastErrorText()
{
    natsStatus s = NATS_OK;
    const char *text = nats_GetLastError(&s);
    return text ? QString::fromUtf8(text) : QString();
}

// Lives as long as nats.c may call back into it: freed only after the closed callback ran.
struct EventSink
{
    QMutex mutex;
    NatsConnection::EventHandler handler;
    QString lastAsyncError;
    QSemaphore closed;
    // Inline secrets used by the signing callbacks; kept only while the connection lives.
    QByteArray seed;
    QByteArray jwt;

    void emitEvent(const ConnectionEvent &event)
    {
        NatsConnection::EventHandler h;
        {
            QMutexLocker lock(&mutex);
            h = handler;
            if (event.type == ConnectionEvent::Type::AsyncError)
                lastAsyncError = event.text;
        }
        if (h)
            h(event);
    }
};

QString connectedUrlOf(natsConnection *nc)
{
    char buffer[512] = {};
    if (natsConnection_GetConnectedUrl(nc, buffer, sizeof buffer) != NATS_OK)
        return {};
    return QString::fromUtf8(buffer);
}

void onDisconnected(natsConnection *nc, void *closure)
{
    static_cast<EventSink *>(closure)->emitEvent({ConnectionEvent::Type::Disconnected, connectedUrlOf(nc), {}});
}

void onReconnected(natsConnection *nc, void *closure)
{
    static_cast<EventSink *>(closure)->emitEvent({ConnectionEvent::Type::Reconnected, connectedUrlOf(nc), {}});
}

void onClosed(natsConnection *, void *closure)
{
    auto *sink = static_cast<EventSink *>(closure);
    sink->emitEvent({ConnectionEvent::Type::Closed, {}, {}});
    sink->closed.release();
}

void onAsyncError(natsConnection *nc, natsSubscription *, natsStatus err, void *closure)
{
    const char *text = nullptr;
    natsConnection_GetLastError(nc, &text);
    QString message = text ? QString::fromUtf8(text) : NatsErrors::statusText(err);
    static_cast<EventSink *>(closure)->emitEvent({ConnectionEvent::Type::AsyncError, {}, message});
}

natsStatus signWithSeed(char **customErrTxt, unsigned char **signature, int *signatureLength,
                        const char *nonce, void *closure)
{
    auto *sink = static_cast<EventSink *>(closure);
    const natsStatus s = nats_Sign(sink->seed.constData(), nonce, signature, signatureLength);
    if (s != NATS_OK && customErrTxt)
        *customErrTxt = strdup("cannot sign the server nonce with the NKey seed");
    return s;
}

natsStatus provideJwt(char **userJWT, char **, void *closure)
{
    *userJWT = strdup(static_cast<EventSink *>(closure)->jwt.constData());
    return *userJWT ? NATS_OK : NATS_NO_MEMORY;
}

struct OptionsDeleter { void operator()(natsOptions *o) const { natsOptions_Destroy(o); } };
using OptionsPtr = std::unique_ptr<natsOptions, OptionsDeleter>;

Error optionError(natsStatus s, const QString &what)
{
    return Error(Error::Kind::InvalidInput, what + QStringLiteral(": ") + lastErrorText()).withNatsStatus(s);
}

Result<void> applyCredentials(natsOptions *opts, const Credentials &c, EventSink *sink)
{
    natsStatus s = NATS_OK;
    switch (c.kind) {
    case Credentials::Kind::None:
        return {};
    case Credentials::Kind::UserPassword:
        s = natsOptions_SetUserInfo(opts, c.user.toUtf8().constData(), c.password.toUtf8().constData());
        break;
    case Credentials::Kind::Token:
        s = natsOptions_SetToken(opts, c.token.toUtf8().constData());
        break;
    case Credentials::Kind::NKey: {
        auto content = c.nkeySeed.load();
        if (!content)
            return content.error();
        sink->seed = NKeys::findSeed(*content);
        auto pub = NKeys::publicKeyFromSeed(sink->seed);
        if (!pub)
            return pub.error();
        s = natsOptions_SetNKey(opts, pub->constData(), signWithSeed, sink);
        break;
    }
    case Credentials::Kind::Creds:
    case Credentials::Kind::UserJwt: {
        QByteArray text;
        if (c.kind == Credentials::Kind::Creds) {
            auto content = c.creds.load();
            if (!content)
                return content.error();
            text = *content;
        } else {
            text = c.userJwt.toUtf8() + '\n' + c.userSeed.toUtf8();
        }
        sink->jwt = NKeys::findUserJwt(text);
        sink->seed = NKeys::findSeed(text);
        if (sink->jwt.isEmpty() || sink->seed.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("the credentials hold no user JWT and seed"),
                         QStringLiteral("give a .creds file made by nsc or nats-server tooling"));
        s = natsOptions_SetUserCredentialsCallbacks(opts, provideJwt, sink, signWithSeed, sink);
        break;
    }
    }
    if (s != NATS_OK)
        return optionError(s, QStringLiteral("cannot use the credentials"));
    return {};
}

Result<void> applyTls(natsOptions *opts, const TlsSettings &tls)
{
    if (!tls.isSet())
        return {};
    natsStatus s = natsOptions_SetSecure(opts, true);
    if (s == NATS_OK && !tls.ca.isEmpty()) {
        if (tls.ca.isInline())
            s = natsOptions_SetCATrustedCertificates(opts, tls.ca.data.constData());
        else
            s = natsOptions_LoadCATrustedCertificates(opts, tls.ca.path.toUtf8().constData());
        if (s != NATS_OK)
            return Error(Error::Kind::Tls, QStringLiteral("cannot load the CA certificate: ") + lastErrorText(),
                         QStringLiteral("check the file given with --tlsca")).withNatsStatus(s);
    }
    if (s == NATS_OK && (!tls.cert.isEmpty() || !tls.key.isEmpty())) {
        if (tls.cert.isEmpty() || tls.key.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("a TLS client certificate needs both a certificate and a key"),
                         QStringLiteral("give both --tlscert and --tlskey"));
        if (tls.cert.isInline() || tls.key.isInline()) {
            auto cert = tls.cert.load();
            auto key = tls.key.load();
            if (!cert)
                return cert.error();
            if (!key)
                return key.error();
            s = natsOptions_SetCertificatesChain(opts, cert->constData(), key->constData());
        } else {
            s = natsOptions_LoadCertificatesChain(opts, tls.cert.path.toUtf8().constData(), tls.key.path.toUtf8().constData());
        }
        if (s != NATS_OK)
            return Error(Error::Kind::Tls, QStringLiteral("cannot load the client certificate or key: ") + lastErrorText(),
                         QStringLiteral("check the files given with --tlscert and --tlskey")).withNatsStatus(s);
    }
    if (s != NATS_OK)
        return optionError(s, QStringLiteral("cannot set up TLS"));
    return {};
}

} // namespace

struct NatsConnection::Private
{
    natsConnection *nc = nullptr;
    EventSink *sink = nullptr;
};

NatsConnection::NatsConnection(std::unique_ptr<Private> p) : d(std::move(p)) {}

NatsConnection::~NatsConnection()
{
    if (!d)
        return;
    {
        QMutexLocker lock(&d->sink->mutex);
        d->sink->handler = nullptr;
    }
    natsConnection_Close(d->nc);
    // The closed callback runs on a nats.c thread; free the sink only once it has run.
    const bool closedSeen = d->sink->closed.tryAcquire(1, 3000);
    natsConnection_Destroy(d->nc);
    if (closedSeen)
        delete d->sink;
}

Result<std::shared_ptr<NatsConnection>> NatsConnection::connect(const ConnectionSettings &settings)
{
    if (settings.servers.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("no server URL given"),
                     QStringLiteral("give one with --server nats://host:4222"));
    QList<QByteArray> urls;
    for (const QString &raw : settings.servers) {
        auto url = normalizeServerUrl(raw);
        if (!url)
            return url.error();
        if (url->startsWith(QLatin1String("ws://")) || url->startsWith(QLatin1String("wss://")))
            return Error(Error::Kind::InvalidInput,
                         QStringLiteral("server URL \"%1\" is a WebSocket URL, which nats.c cannot use").arg(raw),
                         QStringLiteral("use the server's client port with nats:// or tls://"));
        urls.append(url->toUtf8());
    }
    std::vector<const char *> urlPointers;
    for (const QByteArray &u : urls)
        urlPointers.push_back(u.constData());

    natsOptions *raw = nullptr;
    natsStatus s = natsOptions_Create(&raw);
    if (s != NATS_OK)
        return Error(Error::Kind::Internal, QStringLiteral("cannot initialise nats.c: ") + lastErrorText());
    OptionsPtr opts(raw);

    auto p = std::make_unique<Private>();
    p->sink = new EventSink;
    auto freeSink = qScopeGuard([&] { if (p && p->sink && !p->nc) delete p->sink; });

    s = natsOptions_SetServers(opts.get(), urlPointers.data(), static_cast<int>(urlPointers.size()));
    if (s != NATS_OK)
        return Error(Error::Kind::InvalidInput, QStringLiteral("invalid server URL in ") + settings.servers.join(QLatin1Char(','))
                                                    + QStringLiteral(": ") + lastErrorText()).withNatsStatus(s);
    natsOptions_SetTimeout(opts.get(), settings.timeoutMs);
    natsOptions_SetName(opts.get(), "nats-mqtt-doctor");
    natsOptions_SetMaxReconnect(opts.get(), -1);
    natsOptions_SetReconnectWait(opts.get(), 2000);
    natsOptions_SetDisconnectedCB(opts.get(), onDisconnected, p->sink);
    natsOptions_SetReconnectedCB(opts.get(), onReconnected, p->sink);
    natsOptions_SetClosedCB(opts.get(), onClosed, p->sink);
    natsOptions_SetErrorHandler(opts.get(), onAsyncError, p->sink);

    if (auto r = applyCredentials(opts.get(), settings.credentials, p->sink); !r)
        return r.error();
    if (auto r = applyTls(opts.get(), settings.tls); !r)
        return r.error();

    natsConnection *nc = nullptr;
    s = natsConnection_Connect(&nc, opts.get());
    if (s != NATS_OK) {
        const QString text = lastErrorText();
        return NatsErrors::fromConnect(s, text, settings.servers.join(QLatin1Char(',')),
                                       settings.tls.isSet() || settings.servers.join(QString()).contains(QLatin1String("tls://")),
                                       settings.role);
    }
    p->nc = nc;
    std::shared_ptr<NatsConnection> conn(new NatsConnection(std::move(p)));
    conn->m_settings = settings;
    return conn;
}

namespace {

bool permissionViolationFor(const QString &asyncError, const QString &subject)
{
    return asyncError.contains(QLatin1String("Permissions Violation"), Qt::CaseInsensitive)
        && asyncError.contains(subject);
}

} // namespace

Result<NatsReply> NatsConnection::request(const QString &subject, const QByteArray &payload, int timeoutMs)
{
    const int timeout = timeoutMs < 0 ? m_settings.timeoutMs : timeoutMs;
    natsMsg *reply = nullptr;
    const natsStatus s = natsConnection_Request(&reply, d->nc, subject.toUtf8().constData(), payload.constData(),
                                                static_cast<int>(payload.size()), timeout);
    if (s != NATS_OK) {
        const QString text = lastErrorText();
        QString asyncError;
        {
            QMutexLocker lock(&d->sink->mutex);
            asyncError = d->sink->lastAsyncError;
        }
        if (s == NATS_TIMEOUT && permissionViolationFor(asyncError, subject))
            return Error(Error::Kind::PermissionDenied, QStringLiteral("the server refused the request: ") + asyncError)
                .withNatsStatus(s);
        return NatsErrors::fromRequest(s, text, subject, timeout);
    }
    NatsReply out{QString::fromUtf8(natsMsg_GetSubject(reply)),
                  QByteArray(natsMsg_GetData(reply), natsMsg_GetDataLength(reply))};
    natsMsg_Destroy(reply);
    return out;
}

Result<QList<NatsReply>> NatsConnection::gather(const QString &subject, const QByteArray &payload, int quietMs,
                                                int expected, int timeoutMs)
{
    const int timeout = timeoutMs < 0 ? m_settings.timeoutMs : timeoutMs;
    natsInbox *inbox = nullptr;
    natsStatus s = natsInbox_Create(&inbox);
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, lastErrorText(), subject, timeout);
    natsSubscription *sub = nullptr;
    s = natsConnection_SubscribeSync(&sub, d->nc, inbox);
    if (s == NATS_OK)
        s = natsSubscription_SetPendingLimits(sub, -1, -1);
    if (s == NATS_OK)
        s = natsConnection_PublishRequest(d->nc, subject.toUtf8().constData(), inbox, payload.constData(),
                                          static_cast<int>(payload.size()));
    if (s == NATS_OK)
        s = natsConnection_Flush(d->nc);
    QList<NatsReply> replies;
    bool noResponders = false;
    if (s == NATS_OK) {
        QDeadlineTimer deadline(timeout);
        while (!deadline.hasExpired()) {
            const qint64 left = deadline.remainingTime();
            const qint64 wait = replies.isEmpty() ? left : std::min<qint64>(left, quietMs);
            natsMsg *m = nullptr;
            const natsStatus ns = natsSubscription_NextMsg(&m, sub, std::max<qint64>(wait, 1));
            if (ns == NATS_TIMEOUT)
                break;
            if (ns != NATS_OK) {
                s = ns;
                break;
            }
            if (natsMsg_IsNoResponders(m)) {
                noResponders = true;
                natsMsg_Destroy(m);
                break;
            }
            replies.append({QString::fromUtf8(natsMsg_GetSubject(m)),
                            QByteArray(natsMsg_GetData(m), natsMsg_GetDataLength(m))});
            natsMsg_Destroy(m);
            if (expected > 0 && replies.size() >= expected)
                break;
        }
    }
    const QString text = lastErrorText();
    if (sub) {
        natsSubscription_Unsubscribe(sub);
        natsSubscription_Destroy(sub);
    }
    natsInbox_Destroy(inbox);
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, text, subject, timeout);
    if (noResponders)
        return NatsErrors::fromRequest(NATS_NO_RESPONDERS, {}, subject, timeout);
    if (replies.isEmpty()) {
        QString asyncError;
        {
            QMutexLocker lock(&d->sink->mutex);
            asyncError = d->sink->lastAsyncError;
        }
        if (permissionViolationFor(asyncError, subject))
            return Error(Error::Kind::PermissionDenied, QStringLiteral("the server refused the request: ") + asyncError);
        return NatsErrors::fromRequest(NATS_TIMEOUT, {}, subject, timeout);
    }
    return replies;
}

Result<void> NatsConnection::publish(const QString &subject, const QByteArray &payload)
{
    const natsStatus s = natsConnection_Publish(d->nc, subject.toUtf8().constData(), payload.constData(),
                                                static_cast<int>(payload.size()));
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, lastErrorText(), subject, m_settings.timeoutMs);
    return {};
}

QString NatsConnection::connectedUrl() const
{
    return connectedUrlOf(d->nc);
}

QString NatsConnection::connectedServerId() const
{
    char buffer[256] = {};
    if (natsConnection_GetConnectedServerId(d->nc, buffer, sizeof buffer) != NATS_OK)
        return {};
    return QString::fromUtf8(buffer);
}

quint64 NatsConnection::clientId() const
{
    uint64_t cid = 0;
    natsConnection_GetClientID(d->nc, &cid);
    return cid;
}

bool NatsConnection::isConnected() const
{
    return natsConnection_Status(d->nc) == NATS_CONN_STATUS_CONNECTED;
}

void NatsConnection::shutdownLibrary(int timeoutMs)
{
    nats_CloseAndWait(timeoutMs);
}

void NatsConnection::setEventHandler(EventHandler handler)
{
    QMutexLocker lock(&d->sink->mutex);
    d->sink->handler = std::move(handler);
}

natsConnection *natsHandle(NatsConnection &connection)
{
    return connection.d->nc;
}

} // namespace MqttDoctor
