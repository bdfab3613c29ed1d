#include "natsconnection.h"

#include <nats/nats.h>

#include <atomic>
#include <cstring>
#include <optional>

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QMutex>
#include <QScopeGuard>
#include <QSemaphore>
#include <QThread>

#include "nats/connectfailure.h"
#include "nats/internal/natsconnectionhandle.h"
#include "nats/natserrors.h"
#include "nats/nkeys.h"
#include "nats/replygatherer.h"

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
    // Permission violations in arrival order (bounded): requests look for one naming their subject
    // or reply inbox that arrived after they were sent.
    QList<QPair<quint64, QString>> violations;
    quint64 asyncErrors = 0;
    QSemaphore closed;
    // The connection and nats.c's closed callback each hold one; the last to let go frees the sink.
    // (Deleting right after closed.tryAcquire() raced with closed.release(), which may still touch
    // the semaphore after waking the waiter; found by ThreadSanitizer.)
    std::atomic<int> owners{2};
    // Inline secrets used by the signing callbacks; kept only while the connection lives.
    QByteArray seed;
    QByteArray jwt;

    static void drop(EventSink *sink)
    {
        if (sink->owners.fetch_sub(1, std::memory_order_acq_rel) == 1)
            delete sink;
    }

    void emitEvent(const ConnectionEvent &event)
    {
        NatsConnection::EventHandler h;
        {
            QMutexLocker lock(&mutex);
            h = handler;
            if (event.type == ConnectionEvent::Type::AsyncError) {
                lastAsyncError = event.text;
                ++asyncErrors;
                if (event.text.contains(QLatin1String("Permissions Violation"), Qt::CaseInsensitive)) {
                    violations.append({asyncErrors, event.text});
                    if (violations.size() > 64)
                        violations.removeFirst();
                }
            }
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
    EventSink::drop(sink);
}

void onAsyncError(natsConnection *nc, natsSubscription *, natsStatus err, void *closure)
{
    const char *text = nullptr;
    natsConnection_GetLastError(nc, &text);
    QString message = text ? QString::fromUtf8(text) : NatsErrors::statusText(err);
    static_cast<EventSink *>(closure)->emitEvent({ConnectionEvent::Type::AsyncError, {}, message});
}

natsStatus signWithSeed(char **customErrTxt, unsigned char **signature, int *signatureLength, const char *nonce, void *closure)
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

struct OptionsDeleter
{
    void operator()(natsOptions *o) const { natsOptions_Destroy(o); }
};
using OptionsPtr = std::unique_ptr<natsOptions, OptionsDeleter>;

// nats.c's text of the last failure on this thread, as a detail after an explanation.
QString natsDetail(natsStatus s)
{
    return QStringLiteral(" (nats.c: ") + NatsErrors::detail(s, lastErrorText()) + QLatin1Char(')');
}

Error optionError(natsStatus s, const QString &what)
{
    return Error(Error::Kind::InvalidInput, what + natsDetail(s), QStringLiteral("check the connection settings")).withNatsStatus(s);
}

Result<void> applyCredentials(natsOptions *opts, const Credentials &c, EventSink *sink)
{
    natsStatus s = NATS_OK;
    switch (c.kind) {
    case Credentials::Kind::None: return {};
    case Credentials::Kind::UserPassword:
        s = natsOptions_SetUserInfo(opts, c.user.toUtf8().constData(), c.password.toUtf8().constData());
        break;
    case Credentials::Kind::Token: s = natsOptions_SetToken(opts, c.token.toUtf8().constData()); break;
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
            return Error(Error::Kind::Tls, QStringLiteral("cannot load the CA certificate") + natsDetail(s),
                         QStringLiteral("check the CA certificate file: it must hold PEM certificates"))
                .withNatsStatus(s);
    }
    if (s == NATS_OK && (!tls.cert.isEmpty() || !tls.key.isEmpty())) {
        if (tls.cert.isEmpty() || tls.key.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("a TLS client certificate needs both a certificate and a key"),
                         QStringLiteral("give both the client certificate and its key"));
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
            return Error(Error::Kind::Tls, QStringLiteral("cannot load the client certificate or key") + natsDetail(s),
                         QStringLiteral("check the client certificate and key files: PEM, and the key must match the "
                                        "certificate"))
                .withNatsStatus(s);
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
        EventSink::drop(d->sink);
}

Result<std::shared_ptr<NatsConnection>> NatsConnection::connect(const ConnectionSettings &settings)
{
    if (settings.servers.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("no server URL given"),
                     QStringLiteral("give the server URL, such as nats://host:4222"));
    ConnectAttempt attempt;
    attempt.role = settings.role;
    attempt.timeoutMs = settings.timeoutMs;
    attempt.caGiven = !settings.tls.ca.isEmpty();
    attempt.clientCertGiven = !settings.tls.cert.isEmpty();
    attempt.credentials = settings.credentials.kind;
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
        attempt.urls.append(*url);
        attempt.tlsUrl = attempt.tlsUrl || url->startsWith(QLatin1String("tls://"));
    }
    std::vector<const char *> urlPointers;
    for (const QByteArray &u : urls)
        urlPointers.push_back(u.constData());

    natsOptions *raw = nullptr;
    natsStatus s = natsOptions_Create(&raw);
    if (s != NATS_OK)
        return Error(Error::Kind::Internal, QStringLiteral("cannot initialise nats.c") + natsDetail(s),
                     QStringLiteral("retry; if it persists, report it with this message"));
    OptionsPtr opts(raw);

    auto p = std::make_unique<Private>();
    p->sink = new EventSink;
    auto freeSink = qScopeGuard([&] {
        if (p && p->sink && !p->nc)
            delete p->sink;
    });

    s = natsOptions_SetServers(opts.get(), urlPointers.data(), static_cast<int>(urlPointers.size()));
    if (s != NATS_OK)
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("invalid server URL in ") + attempt.urls.join(QStringLiteral(", ")) + natsDetail(s),
                     QStringLiteral("check the server URL (nats://host:4222 or tls://host:4222)"))
            .withNatsStatus(s);
    natsOptions_SetTimeout(opts.get(), settings.timeoutMs);
    natsOptions_SetName(opts.get(), "nats-mqtt-doctor");
    natsOptions_SetMaxReconnect(opts.get(), -1);
    natsOptions_SetReconnectWait(opts.get(), 2000);
    natsOptions_SetDisconnectedCB(opts.get(), onDisconnected, p->sink);
    natsOptions_SetReconnectedCB(opts.get(), onReconnected, p->sink);
    natsOptions_SetClosedCB(opts.get(), onClosed, p->sink);
    natsOptions_SetErrorHandler(opts.get(), onAsyncError, p->sink);
    // Every write goes out at once. Otherwise nats.c 3.4 hands it to its flusher thread, which waits 1 ms
    // for more before it writes: every request() below (a PUB after its inbox's SUB, not nats.c's own
    // directly flushed Request) waited that long on loopback. The pipelined writers (direct gets,
    // JetStreamPublisher) keep a window in flight and pay one write() per message instead.
    natsOptions_SetSendAsap(opts.get(), true);

    if (auto r = applyCredentials(opts.get(), settings.credentials, p->sink); !r)
        return r.error();
    if (auto r = applyTls(opts.get(), settings.tls); !r)
        return r.error();
    // nats.c 3.4 does not read the scheme: a tls:// URL asks for TLS, and without this the connection
    // would go on in plain text to a server that does not offer TLS.
    if (attempt.tlsUrl && !settings.tls.isSet()) {
        if (s = natsOptions_SetSecure(opts.get(), true); s != NATS_OK)
            return optionError(s, QStringLiteral("cannot set up TLS"));
    }

    natsConnection *nc = nullptr;
    QElapsedTimer connecting;
    connecting.start();
    s = natsConnection_Connect(&nc, opts.get());
    if (s != NATS_OK) {
        attempt.elapsedMs = connecting.elapsed();
        return ConnectFailure::explain(s, lastErrorText(), attempt);
    }
    p->nc = nc;
    std::shared_ptr<NatsConnection> conn(new NatsConnection(std::move(p)));
    conn->m_settings = settings;
    conn->m_requests = std::make_unique<RequestCounter>(settings.counter);
    return conn;
}

namespace {

constexpr int kPollMs = 100; // how quickly a permission violation ends a wait
constexpr int kCloseFlushMs = 2000; // closeSubscription(): a server that does not answer a PING in this time is gone
constexpr int kCloseGraceMs = 50; // closeSubscription() without a PONG: how long before the subscription is freed

// The private reply inbox of one request: subscribed before the request is published, so no reply is lost.
struct ReplyInbox
{
    natsSubscription *sub = nullptr;
    QString name;
};

// Creates and subscribes the inbox, then publishes the request with it as the reply subject; the subscription
// ends itself after the one reply. On an error, `inbox.sub` may be set and is the caller's to destroy.
natsStatus sendRequest(natsConnection *nc, const QString &subject, const QByteArray &payload, ReplyInbox &inbox)
{
    natsInbox *name = nullptr;
    natsStatus s = natsInbox_Create(&name);
    if (s != NATS_OK)
        return s;
    inbox.name = QString::fromUtf8(name);
    s = natsConnection_SubscribeSync(&inbox.sub, nc, name);
    if (s == NATS_OK)
        s = natsSubscription_AutoUnsubscribe(inbox.sub, 1);
    if (s == NATS_OK)
        s = natsConnection_PublishRequest(nc, subject.toUtf8().constData(), name, payload.constData(), static_cast<int>(payload.size()));
    natsInbox_Destroy(name);
    return s;
}

// A permission violation since `mark` about a request's subject (publish denied) or its reply inbox (subscribe
// denied), as the error the request ends with.
std::optional<Error> deniedSince(const NatsConnection &connection, quint64 mark, const QString &subject, const QString &inbox)
{
    if (const QString v = connection.permissionViolationSince(mark, subject); !v.isEmpty())
        return NatsErrors::permissionDenied(v, subject, false, NATS_NOT_PERMITTED);
    if (const QString v = connection.permissionViolationSince(mark, inbox); !v.isEmpty())
        return NatsErrors::permissionDenied(v, subject, true, NATS_NOT_PERMITTED);
    return std::nullopt;
}

} // namespace

quint64 NatsConnection::asyncErrorMark() const
{
    QMutexLocker lock(&d->sink->mutex);
    return d->sink->asyncErrors;
}

QString NatsConnection::permissionViolationSince(quint64 mark, const QString &subject) const
{
    QMutexLocker lock(&d->sink->mutex);
    for (const auto &v : std::as_const(d->sink->violations))
        if (v.first > mark && (subject.isEmpty() || NatsErrors::violationNames(v.second, subject)))
            return v.second;
    return {};
}

Result<NatsReply> NatsConnection::request(const QString &subject, const QByteArray &payload, int timeoutMs)
{
    // A private inbox and short waits instead of natsConnection_Request: the server reports a denied
    // publish or subscribe only asynchronously, and such a request would otherwise wait out the whole
    // timeout and end as a bare "timeout".
    const int timeout = timeoutMs < 0 ? m_settings.timeoutMs : timeoutMs;
    const quint64 mark = asyncErrorMark();
    ReplyInbox inbox;
    m_requests->noteRequest(subject);
    natsStatus s = sendRequest(d->nc, subject, payload, inbox);
    natsSubscription *sub = inbox.sub;
    natsMsg *reply = nullptr;
    if (s == NATS_OK) {
        QDeadlineTimer deadline(timeout);
        for (;;) {
            const qint64 left = deadline.remainingTime();
            s = natsSubscription_NextMsg(&reply, sub, std::max<qint64>(1, std::min<qint64>(left, kPollMs)));
            if (s != NATS_TIMEOUT)
                break;
            if (auto denied = deniedSince(*this, mark, subject, inbox.name)) {
                closeSubscription(d->nc, sub);
                return *denied;
            }
            if (deadline.hasExpired())
                break;
        }
    }
    const QString text = lastErrorText();
    if (sub) {
        // After its one reply the subscription has ended itself; otherwise a late reply may be coming.
        if (s != NATS_OK)
            closeSubscription(d->nc, sub);
        else
            natsSubscription_Destroy(sub);
    }
    if (s == NATS_OK && natsMsg_IsNoResponders(reply)) {
        natsMsg_Destroy(reply);
        s = NATS_NO_RESPONDERS;
    }
    if (s != NATS_OK) {
        // Denied shortly before the deadline, or an older denial of the same subject.
        if (const QString v = permissionViolationSince(0, subject); !v.isEmpty() && s == NATS_TIMEOUT)
            return NatsErrors::permissionDenied(v, subject, false, s);
        return NatsErrors::fromRequest(s, text, subject, timeout);
    }
    NatsReply out{QString::fromUtf8(natsMsg_GetSubject(reply)), QByteArray(natsMsg_GetData(reply), natsMsg_GetDataLength(reply))};
    natsMsg_Destroy(reply);
    return out;
}

Result<QList<NatsReply>> NatsConnection::gather(const QString &subject, const QByteArray &payload, int quietMs, int expected, int timeoutMs)
{
    QList<NatsReply> replies;
    ReplyGatherer gatherer(*this, quietMs, timeoutMs);
    auto done = gatherer.run({{subject, payload}}, [&replies, expected](int, NatsReply &&reply) -> Result<ReplyGatherer::Verdict> {
        replies.append(std::move(reply));
        return expected > 0 && replies.size() >= expected ? ReplyGatherer::Verdict::Enough : ReplyGatherer::Verdict::More;
    });
    if (!done)
        return done.error();
    return replies;
}

Result<void> NatsConnection::publish(const QString &subject, const QByteArray &payload)
{
    const natsStatus s = natsConnection_Publish(d->nc, subject.toUtf8().constData(), payload.constData(), static_cast<int>(payload.size()));
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, lastErrorText(), subject, m_settings.timeoutMs);
    return {};
}

QString NatsConnection::connectedUrl() const
{
    return connectedUrlOf(d->nc);
}

int NatsConnection::knownServerCount() const
{
    char **servers = nullptr;
    int count = 0;
    if (natsConnection_GetServers(d->nc, &servers, &count) != NATS_OK)
        return 0;
    for (int i = 0; i < count; ++i)
        free(servers[i]);
    free(servers);
    return count;
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

void closeSubscription(natsConnection *nc, natsSubscription *sub)
{
    if (!sub)
        return;
    natsSubscription_Unsubscribe(sub);
    const natsConnStatus status = natsConnection_Status(nc);
    if (status == NATS_CONN_STATUS_CONNECTED && natsConnection_FlushTimeout(nc, kCloseFlushMs) != NATS_OK) {
        // No PONG: the server is slow or gone. A message the reader thread took up just before the
        // unsubscribe is handled within microseconds; give it far more than that.
        QThread::msleep(kCloseGraceMs);
    }
    natsSubscription_Destroy(sub);
}

} // namespace MqttDoctor
