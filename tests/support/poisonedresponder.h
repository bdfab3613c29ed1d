#pragma once

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>

typedef struct __natsConnection natsConnection; // NOLINT: nats.c's own names
typedef struct __natsSubscription natsSubscription; // NOLINT

namespace MqttDoctor::Test {

// A fake service on a REAL nats-server: a nats.c connection of its own that subscribes to request
// subjects (e.g. "$JS.API.>" in an account without JetStream, or "$SYS.REQ.>" in an account that is
// not the system account) and answers them with poisoned replies, in the spirit of nats-server's
// TestMQTTJSAPIPoisonedRepliesDoNotCrash. Rules match by subject prefix, the longest wins; a subject
// no rule matches gets the default (silence unless setDefault()). Replies are sent from a nats.c
// thread; rules may be changed while it runs.
class PoisonedResponder
{
public:
    struct Rule
    {
        QByteArray reply; // sent as is
        bool silent = false; // never answer
        int copies = 1; // >1: the same reply this many times (a flood)
    };

    PoisonedResponder();
    ~PoisonedResponder();
    PoisonedResponder(const PoisonedResponder &) = delete;
    PoisonedResponder &operator=(const PoisonedResponder &) = delete;

    // Connects as user/password and subscribes to every subject in `subjects`. False: errorString().
    bool start(const QString &url, const QString &user, const QString &password, const QStringList &subjects);
    void stop();

    void setRule(const QString &subjectPrefix, const QByteArray &reply, int copies = 1);
    void setSilent(const QString &subjectPrefix);
    void setDefault(const QByteArray &reply);
    void clearRules();

    // Every request subject received since the last clearReceived(), in order.
    QStringList received() const;
    void clearReceived();
    QString errorString() const { return m_errorString; }

    // Handles one request (called from nats.c's delivery thread).
    void answer(const QString &subject, const char *replyTo);

private:
    Rule ruleFor(const QString &subject) const;

    mutable QMutex m_mutex;
    QHash<QString, Rule> m_rules;
    Rule m_default{QByteArray(), true, 1};
    QStringList m_received;
    natsConnection *m_nc = nullptr;
    QList<natsSubscription *> m_subs;
    QString m_errorString;
};

} // namespace MqttDoctor::Test
