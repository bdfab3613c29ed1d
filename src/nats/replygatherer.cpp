#include "replygatherer.h"

#include <optional>

#include <QDeadlineTimer>

#include "nats/internal/natsconnectionhandle.h"
#include "nats/natserrors.h"

namespace MqttDoctor {

namespace {

constexpr int kDenialPollMs = 100; // how quickly a permission violation ends a wait
constexpr int kMaxReplies = 4096; // more "servers" than any cluster has: a flood, not replies
constexpr qint64 kMaxBytes = 512LL * 1024 * 1024;

QString natsThreadError()
{
    natsStatus s = NATS_OK;
    const char *text = nats_GetLastError(&s);
    return text ? QString::fromUtf8(text) : QString();
}

struct Pending
{
    enum class State { Waiting, Sent, Ended };
    State state = State::Waiting;
    QDeadlineTimer deadline; // from when it was sent
    QDeadlineTimer quiet; // from its last reply
    ReplyGatherer::Outcome outcome;
};

// The inbox subscription, closed on every path (replies of servers not waited for may still come).
struct InboxSubscription
{
    natsConnection *nc = nullptr;
    natsSubscription *sub = nullptr;
    ~InboxSubscription() { closeSubscription(nc, sub); }
};

} // namespace

ReplyGatherer::ReplyGatherer(NatsConnection &connection, int quietMs, int timeoutMs)
    : m_connection(connection), m_quietMs(std::max(1, quietMs)),
      m_timeoutMs(timeoutMs < 0 ? connection.timeoutMs() : std::max(1, timeoutMs))
{}

Result<QList<ReplyGatherer::Outcome>> ReplyGatherer::run(const QList<Request> &requests, const Handler &handler)
{
    QList<Outcome> outcomes;
    if (requests.isEmpty())
        return outcomes;
    natsConnection *nc = natsHandle(m_connection);
    const quint64 mark = m_connection.asyncErrorMark();

    // One inbox for every request: `<inbox>.<index>` is request index's reply subject.
    natsInbox *base = nullptr;
    natsStatus s = natsInbox_Create(&base);
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, natsThreadError(), requests.first().subject, m_timeoutMs);
    const QByteArray prefix = QByteArray(base) + '.';
    natsInbox_Destroy(base);
    const QString wildcard = QString::fromLatin1(prefix) + QLatin1Char('*');

    InboxSubscription inbox{nc, nullptr};
    s = natsConnection_SubscribeSync(&inbox.sub, nc, wildcard.toLatin1().constData());
    if (s == NATS_OK)
        s = natsSubscription_SetPendingLimits(inbox.sub, -1, -1);
    if (s != NATS_OK)
        return NatsErrors::fromRequest(s, natsThreadError(), requests.first().subject, m_timeoutMs);

    QList<Pending> pending(requests.size());
    int nextToSend = 0;
    int inFlight = 0;
    int ended = 0;
    QList<int> active; // indexes sent and not ended

    // Only the first requests are flushed (a PING and its PONG): that tells a dead connection at once. After
    // that nats.c's flusher thread writes each refill as it is published; a flush per refill would cost the
    // server a PING and a PONG for every request that ended, as much work as the request itself.
    bool flushed = false;
    const auto sendMore = [&]() -> natsStatus {
        bool sent = false;
        while (inFlight < m_window && nextToSend < requests.size()) {
            const int i = nextToSend++;
            const Request &r = requests[i];
            const QByteArray reply = prefix + QByteArray::number(i);
            m_connection.requests().noteRequest(r.subject);
            const natsStatus ps = natsConnection_PublishRequest(nc, r.subject.toUtf8().constData(), reply.constData(),
                                                                r.payload.constData(), static_cast<int>(r.payload.size()));
            if (ps != NATS_OK)
                return ps;
            pending[i].state = Pending::State::Sent;
            pending[i].deadline = QDeadlineTimer(m_timeoutMs);
            active.append(i);
            ++inFlight;
            sent = true;
        }
        if (!sent || flushed)
            return NATS_OK;
        flushed = true;
        return natsConnection_Flush(nc);
    };
    const auto end = [&](int i) {
        pending[i].state = Pending::State::Ended;
        active.removeOne(i);
        --inFlight;
        ++ended;
    };
    // A request with no reply at all: denied, or timed out.
    const auto failure = [&](int i, natsStatus status) -> Error {
        const QString &subject = requests[i].subject;
        if (const QString v = m_connection.permissionViolationSince(mark, subject); !v.isEmpty())
            return NatsErrors::permissionDenied(v, subject, false, NATS_NOT_PERMITTED);
        if (const QString v = m_connection.permissionViolationSince(mark, wildcard); !v.isEmpty())
            return NatsErrors::permissionDenied(v, subject, true, NATS_NOT_PERMITTED);
        if (status == NATS_TIMEOUT)
            if (const QString v = m_connection.permissionViolationSince(0, subject); !v.isEmpty())
                return NatsErrors::permissionDenied(v, subject, false, NATS_TIMEOUT);
        return NatsErrors::fromRequest(status, {}, subject, m_timeoutMs);
    };

    if (s = sendMore(); s != NATS_OK)
        return NatsErrors::fromRequest(s, natsThreadError(), requests.first().subject, m_timeoutMs);

    while (ended < requests.size()) {
        // End what is due: quiet after a reply, or out of time without one; denials end a wait early.
        qint64 wait = kDenialPollMs;
        for (int k = static_cast<int>(active.size()) - 1; k >= 0; --k) {
            const int i = active[k];
            Pending &p = pending[i];
            if (p.outcome.replies > 0) {
                if (p.quiet.hasExpired()) {
                    end(i);
                    continue;
                }
                wait = std::min(wait, p.quiet.remainingTime());
            } else {
                if (p.deadline.hasExpired())
                    return failure(i, NATS_TIMEOUT);
                wait = std::min(wait, p.deadline.remainingTime());
            }
        }
        if (ended == requests.size())
            break;
        if (s = sendMore(); s != NATS_OK)
            return NatsErrors::fromRequest(s, natsThreadError(), requests[nextToSend - 1].subject, m_timeoutMs);
        if (active.isEmpty())
            continue;

        natsMsg *m = nullptr;
        const natsStatus ns = natsSubscription_NextMsg(&m, inbox.sub, std::max<qint64>(1, wait));
        if (ns == NATS_TIMEOUT) {
            for (int i : std::as_const(active))
                if (pending[i].outcome.replies == 0
                    && (m_connection.permissionViolationSince(mark, requests[i].subject).size()
                        || m_connection.permissionViolationSince(mark, wildcard).size()))
                    return failure(i, NATS_TIMEOUT);
            continue;
        }
        if (ns != NATS_OK) {
            const int i = active.isEmpty() ? 0 : active.first();
            return NatsErrors::fromRequest(ns, natsThreadError(), requests[i].subject, m_timeoutMs);
        }
        const char *subject = natsMsg_GetSubject(m);
        bool ok = false;
        const int i = QByteArray(subject).mid(prefix.size()).toInt(&ok);
        if (!ok || i < 0 || i >= requests.size() || pending[i].state != Pending::State::Sent) {
            natsMsg_Destroy(m); // a late reply to a request that ended already
            continue;
        }
        if (natsMsg_IsNoResponders(m)) {
            natsMsg_Destroy(m);
            if (pending[i].outcome.replies > 0) {
                end(i);
                continue;
            }
            return failure(i, NATS_NO_RESPONDERS);
        }
        NatsReply reply{QString::fromUtf8(subject), QByteArray(natsMsg_GetData(m), natsMsg_GetDataLength(m))};
        natsMsg_Destroy(m);
        Pending &p = pending[i];
        ++p.outcome.replies;
        p.outcome.bytes += reply.data.size();
        p.quiet = QDeadlineTimer(m_quietMs);
        if (p.outcome.replies > kMaxReplies || p.outcome.bytes > kMaxBytes)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1 was answered by more than %2 replies (%3 bytes): a flood, not one reply per server")
                             .arg(requests[i].subject, QString::number(p.outcome.replies - 1), QString::number(p.outcome.bytes)),
                         QStringLiteral("something other than nats-server answers on this subject; check who subscribes to it"));
        auto verdict = handler(i, std::move(reply));
        if (!verdict)
            return verdict.error();
        if (*verdict == Verdict::Enough) {
            p.outcome.enough = true;
            end(i);
        }
    }
    outcomes.reserve(requests.size());
    for (const Pending &p : std::as_const(pending))
        outcomes.append(p.outcome);
    return outcomes;
}

} // namespace MqttDoctor
