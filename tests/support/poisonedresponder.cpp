#include "poisonedresponder.h"

#include <nats/nats.h>

namespace MqttDoctor::Test {

namespace {

void onRequest(natsConnection *, natsSubscription *, natsMsg *msg, void *closure)
{
    static_cast<PoisonedResponder *>(closure)->answer(QString::fromUtf8(natsMsg_GetSubject(msg)), natsMsg_GetReply(msg));
    natsMsg_Destroy(msg);
}

} // namespace

PoisonedResponder::PoisonedResponder() = default;

PoisonedResponder::~PoisonedResponder()
{
    stop();
}

bool PoisonedResponder::start(const QString &url, const QString &user, const QString &password, const QStringList &subjects)
{
    natsOptions *opts = nullptr;
    natsStatus s = natsOptions_Create(&opts);
    if (s == NATS_OK)
        s = natsOptions_SetURL(opts, url.toUtf8().constData());
    if (s == NATS_OK)
        s = natsOptions_SetUserInfo(opts, user.toUtf8().constData(), password.toUtf8().constData());
    if (s == NATS_OK)
        s = natsOptions_SetName(opts, "poisoned-responder");
    if (s == NATS_OK)
        s = natsConnection_Connect(&m_nc, opts);
    natsOptions_Destroy(opts);
    for (const QString &subject : subjects) {
        if (s != NATS_OK)
            break;
        natsSubscription *sub = nullptr;
        s = natsConnection_Subscribe(&sub, m_nc, subject.toUtf8().constData(), onRequest, this);
        if (s == NATS_OK) {
            natsSubscription_SetPendingLimits(sub, -1, -1);
            m_subs.append(sub);
        }
    }
    if (s == NATS_OK)
        s = natsConnection_FlushTimeout(m_nc, 5000);
    if (s != NATS_OK) {
        m_errorString = QStringLiteral("poisoned responder: %1 as %2: %3").arg(url, user, QString::fromUtf8(natsStatus_GetText(s)));
        stop();
        return false;
    }
    return true;
}

void PoisonedResponder::stop()
{
    for (natsSubscription *sub : std::as_const(m_subs)) {
        natsSubscription_Unsubscribe(sub);
        natsSubscription_Destroy(sub);
    }
    m_subs.clear();
    if (m_nc) {
        natsConnection_Close(m_nc);
        natsConnection_Destroy(m_nc);
        m_nc = nullptr;
    }
}

void PoisonedResponder::setRule(const QString &subjectPrefix, const QByteArray &reply, int copies)
{
    QMutexLocker lock(&m_mutex);
    m_rules.insert(subjectPrefix, Rule{reply, false, copies});
}

void PoisonedResponder::setSilent(const QString &subjectPrefix)
{
    QMutexLocker lock(&m_mutex);
    m_rules.insert(subjectPrefix, Rule{QByteArray(), true, 1});
}

void PoisonedResponder::setDefault(const QByteArray &reply)
{
    QMutexLocker lock(&m_mutex);
    m_default = Rule{reply, false, 1};
}

void PoisonedResponder::clearRules()
{
    QMutexLocker lock(&m_mutex);
    m_rules.clear();
    m_default = Rule{QByteArray(), true, 1};
}

QStringList PoisonedResponder::received() const
{
    QMutexLocker lock(&m_mutex);
    return m_received;
}

void PoisonedResponder::clearReceived()
{
    QMutexLocker lock(&m_mutex);
    m_received.clear();
}

PoisonedResponder::Rule PoisonedResponder::ruleFor(const QString &subject) const
{
    qsizetype best = -1;
    Rule rule = m_default;
    for (auto it = m_rules.cbegin(); it != m_rules.cend(); ++it) {
        if (subject.startsWith(it.key()) && it.key().size() > best) {
            best = it.key().size();
            rule = it.value();
        }
    }
    return rule;
}

void PoisonedResponder::answer(const QString &subject, const char *replyTo)
{
    Rule rule;
    natsConnection *nc = nullptr;
    {
        QMutexLocker lock(&m_mutex);
        m_received.append(subject);
        rule = ruleFor(subject);
        nc = m_nc;
    }
    if (rule.silent || !replyTo || !nc)
        return;
    for (int i = 0; i < rule.copies; ++i)
        natsConnection_Publish(nc, replyTo, rule.reply.constData(), static_cast<int>(rule.reply.size()));
}

} // namespace MqttDoctor::Test
