#include "mqttprobe.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QRandomGenerator>
#include <QSet>

#include <cerrno>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>

#include <QUrl>

#include "diagnosis/mqttwireclient.h"

namespace MqttDoctor {

QString MqttProbeResult::verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Verified: return QStringLiteral("verified");
    case Verdict::Failed: return QStringLiteral("failed");
    case Verdict::NotRun: return QStringLiteral("not_run");
    }
    return {};
}

QString MqttProbeResult::summary() const
{
    switch (verdict) {
    case Verdict::Verified:
        return QStringLiteral("MQTT delivery verified for account %1 through %2: a client connected, got its QoS 1 message and a "
                              "retained message")
            .arg(account, listener);
    case Verdict::Failed: return QStringLiteral("MQTT delivery NOT working for account %1 through %2: %3").arg(account, listener, why);
    case Verdict::NotRun: return QStringLiteral("MQTT delivery not verified for account %1: %2").arg(account, why);
    }
    return {};
}

QJsonObject MqttProbeResult::toJson() const
{
    QJsonArray s;
    for (const MqttProbeStep &step : steps)
        s.append(QJsonObject{{QStringLiteral("name"), step.name},
                             {QStringLiteral("ok"), step.ok},
                             {QStringLiteral("detail"), step.detail},
                             {QStringLiteral("ms"), step.ms}});
    QJsonObject o{{QStringLiteral("account"), account},   {QStringLiteral("verdict"), verdictName(verdict)},
                  {QStringLiteral("listener"), listener}, {QStringLiteral("client_id"), clientId},
                  {QStringLiteral("topic"), topic},       {QStringLiteral("steps"), s}};
    if (!why.isEmpty())
        o.insert(QStringLiteral("why"), why);
    if (!leftBehind.isEmpty())
        o.insert(QStringLiteral("left_behind"), leftBehind);
    return o;
}

MqttProbeResult MqttProbeResult::notRun(const QString &account, const QString &why)
{
    MqttProbeResult r;
    r.account = account;
    r.why = why;
    return r;
}

namespace MqttProbe {

namespace {

/**
 * Subscribes new to `topic` with a clean client, again every 300 ms, until `done` accepts what the subscription
 * brought (the first message on the topic, or none) or the step's time is up. True when `done` held, `*ms` after
 * the start; false with `*why` set when the client could not even connect.
 */
bool untilNewSubscriberSees(const MqttProbeRequest &request, const QString &clientId, const QString &topic,
                            const std::function<bool(const std::optional<MqttWireClient::Message> &)> &done, qint64 *ms, QString *why)
{
    MqttWireClient reader(request, clientId, true);
    if (!reader.connect(why)) {
        *why = QStringLiteral("a second client could not connect: %1").arg(*why);
        return false;
    }
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < request.timeoutMs) {
        if (reader.subscribe(topic, 1) < 0 || reader.lost())
            break;
        if (done(reader.waitMessage(topic, 300))) {
            *ms = t.elapsed();
            return true;
        }
        reader.unsubscribe(topic);
        reader.clearMessages();
    }
    return false;
}

/** Runs one step: its time, its outcome, and the verdict when it failed. */
class StepRunner
{
public:
    explicit StepRunner(MqttProbeResult &result) : m_result(result) {}
    bool run(const QString &name, const std::function<bool(QString *detail)> &step)
    {
        QElapsedTimer t;
        t.start();
        QString detail;
        const bool ok = step(&detail);
        m_result.steps.append(MqttProbeStep{name, ok, detail, t.elapsed()});
        if (!ok && m_result.verdict != MqttProbeResult::Verdict::Failed) {
            m_result.verdict = MqttProbeResult::Verdict::Failed;
            m_result.why = QStringLiteral("%1: %2").arg(name, detail);
        }
        return ok;
    }

private:
    MqttProbeResult &m_result;
};

/**
 * The steps of one probe (run()), each as StepRunner runs it: true when it passed, with what it saw in
 * `detail`. Names the probe's client ID and topics (a random token: probes never meet), and remembers
 * what it leaves behind until a later step removes it: the persistent session, the retained message.
 */
class ProbeSteps
{
public:
    ProbeSteps(const MqttProbeRequest &request, MqttProbeResult &result) : m_request(request), m_result(result)
    {
        const QString token = MqttWireClient::randomToken(10);
        result.clientId = QStringLiteral("nats-mqtt-doctor-probe-") + token;
        result.topic = QStringLiteral("nats-mqtt-doctor/probe/") + token;
        m_qosTopic = result.topic + QStringLiteral("/qos1");
        m_retainedTopic = result.topic + QStringLiteral("/retained");
        m_qosPayload = "probe qos1 " + token.toUtf8();
        m_retainedPayload = "probe retained " + token.toUtf8();
    }

    bool retainedStored() const { return m_retainedStored; }
    bool sessionMade() const { return m_sessionMade; }

    /** Connects `probe` with a persistent session. */
    bool connect(MqttWireClient &probe, QString *detail)
    {
        if (!probe.connect(detail))
            return false;
        m_sessionMade = true;
        *detail = QStringLiteral("CONNACK accepted, persistent session");
        return true;
    }

    /** Subscribes at QoS 1 and gets its own QoS 1 message back. */
    bool qos1(MqttWireClient &probe, QString *detail)
    {
        const int timeoutMs = m_request.timeoutMs;
        const int granted = probe.subscribe(m_qosTopic, 1);
        if (granted != 1) {
            *detail = granted < 0 ? QStringLiteral("no SUBACK within %1 ms for %2").arg(timeoutMs).arg(m_qosTopic)
                : granted == 0x80 ? QStringLiteral("the server refused the QoS 1 subscription to %1 (SUBACK 0x80: it could not make "
                                                   "the subscription's durable on $MQTT_msgs; its log says why)")
                                        .arg(m_qosTopic)
                                  : QStringLiteral("the server granted QoS %1, not 1, for %2").arg(granted).arg(m_qosTopic);
            return false;
        }
        if (!probe.publish(m_qosTopic, m_qosPayload, false)) {
            *detail = QStringLiteral("no PUBACK within %1 ms for a QoS 1 message to %2").arg(timeoutMs).arg(m_qosTopic);
            return false;
        }
        const auto got =
            probe.waitMessage(m_qosTopic, timeoutMs, [&](const MqttWireClient::Message &m) { return m.payload == m_qosPayload; });
        if (!got) {
            *detail = QStringLiteral("the QoS 1 message to %1 was acknowledged but never delivered to its subscriber within %2 ms")
                          .arg(m_qosTopic)
                          .arg(timeoutMs);
            return false;
        }
        *detail = QStringLiteral("subscribed at QoS 1 and got its own message back at QoS %1").arg(got->qos);
        return true;
    }

    /** Stores a retained message, then a new subscriber must get it. */
    bool retained(MqttWireClient &probe, QString *detail)
    {
        const int timeoutMs = m_request.timeoutMs;
        if (!probe.publish(m_retainedTopic, m_retainedPayload, true)) {
            *detail = QStringLiteral("no PUBACK within %1 ms for a retained message to %2").arg(timeoutMs).arg(m_retainedTopic);
            return false;
        }
        m_retainedStored = true;
        // A new subscriber gets the retained message when it subscribes. Servers learn of it through their
        // retained-message consumer, a moment after the PUBACK: subscribe again until it comes or time is up.
        qint64 ms = 0;
        QString why;
        if (untilNewSubscriberSees(
                m_request, m_result.clientId + QStringLiteral("-r"), m_retainedTopic,
                [&](const std::optional<MqttWireClient::Message> &m) { return m && m->payload == m_retainedPayload; }, &ms, &why)) {
            *detail = QStringLiteral("a new subscriber got the retained message %1 ms after it was stored").arg(ms);
            m_retainedDelivered = true;
            return true;
        }
        if (!why.isEmpty()) {
            *detail = why;
            return false;
        }
        *detail = QStringLiteral("the retained message to %1 was stored (PUBACK) but a new subscriber did not get it within %2 ms: "
                                 "the servers do not deliver retained messages (RETAINED_CONSUMER_MISSING when a server's "
                                 "retained-message consumer is gone)")
                      .arg(m_retainedTopic)
                      .arg(timeoutMs);
        return false;
    }

    /** Clears the retained message stored, then a new subscriber must get none. */
    bool clearRetained(MqttWireClient &probe, QString *detail)
    {
        if (!probe.publish(m_retainedTopic, QByteArray(), true)) {
            *detail = QStringLiteral("no PUBACK for the empty retained message that clears %1").arg(m_retainedTopic);
            return false;
        }
        m_retainedStored = false;
        if (!m_retainedDelivered) {
            // Nothing to tell a cleared message from one that is never delivered: only the clean-up is done.
            *detail = QStringLiteral("sent the empty retained message that clears %1 (PUBACK); whether it is gone cannot be "
                                     "seen while retained delivery fails")
                          .arg(m_retainedTopic);
            return true;
        }
        qint64 ms = 0;
        QString why;
        if (untilNewSubscriberSees(
                m_request, m_result.clientId + QStringLiteral("-c"), m_retainedTopic,
                [](const std::optional<MqttWireClient::Message> &m) { return !m; }, &ms, &why)) {
            *detail = QStringLiteral("cleared: a new subscriber gets no retained message");
            return true;
        }
        if (!why.isEmpty()) {
            *detail = why;
            return false;
        }
        *detail = QStringLiteral("the retained message on %1 was cleared (PUBACK) but new subscribers still get it after %2 ms")
                      .arg(m_retainedTopic)
                      .arg(m_request.timeoutMs);
        m_retainedStored = true;
        return false;
    }

    /** A clean connect with the probe's client ID removes its persistent session. */
    bool removeSession(QString *detail)
    {
        MqttWireClient clean(m_request, m_result.clientId, true);
        if (!clean.connect(detail)) {
            *detail = QStringLiteral("the clean connect that removes the probe's session failed: %1").arg(*detail);
            return false;
        }
        *detail = QStringLiteral("a clean connect removed the probe's session");
        return true;
    }

    /** What the probe could not clean up, for people: empty when nothing. */
    QString leftBehind() const
    {
        QStringList left;
        if (m_retainedStored)
            left << QStringLiteral("the retained message on %1").arg(m_retainedTopic);
        const QList<MqttProbeStep> &steps = m_result.steps;
        if (m_sessionMade && !steps.isEmpty() && steps.last().name == QLatin1String("remove_session") && !steps.last().ok)
            left << QStringLiteral("the session of client %1").arg(m_result.clientId);
        return left.join(QStringLiteral(" and "));
    }

private:
    const MqttProbeRequest &m_request;
    MqttProbeResult &m_result;
    QString m_qosTopic;
    QString m_retainedTopic;
    QByteArray m_qosPayload;
    QByteArray m_retainedPayload;
    bool m_retainedStored = false;
    bool m_retainedDelivered = false;
    bool m_sessionMade = false;
};

} // namespace

Result<MqttProbeRequest> requestFor(const Profile &profile, const QString &account, const QList<ServerInfo> &servers)
{
    auto entry = profile.mqttProbe.constFind(account);
    if (entry == profile.mqttProbe.cend())
        entry = profile.mqttProbe.constFind(Profile::kAnyAccount);
    if (entry == profile.mqttProbe.cend())
        return Error(Error::Kind::NotFound, QStringLiteral("the profile names no MQTT listener and user for account %1").arg(account),
                     QStringLiteral("add \"mqtt_probe\": {\"%1\": {\"listener\": \"mqtt://host:1883\", \"user\": ..., "
                                    "\"password\": ...}} to the profile (docs/profile.md)")
                         .arg(account));
    MqttProbeRequest r;
    r.account = account;
    r.user = entry->user;
    r.password = entry->password;
    r.timeoutMs = profile.timeoutMs;
    if (!entry->listener.isEmpty()) {
        auto address = MqttProbeSettings::parseListener(entry->listener, QStringLiteral("mqtt_probe.%1.listener").arg(account));
        if (!address)
            return address.error();
        r.host = address->host;
        r.port = address->port;
        r.tls = address->tls;
    } else {
        r.port = 0;
        for (const ServerInfo &s : servers)
            if (s.mqttPort > 0) {
                r.host = s.mqttHost;
                r.port = s.mqttPort;
                break;
            }
        if (r.port == 0)
            return Error(Error::Kind::InvalidInput,
                         QStringLiteral("no server reports an MQTT listener, and mqtt_probe.%1 names none").arg(account),
                         QStringLiteral("give \"listener\" in the profile's mqtt_probe entry"));
        const bool wildcard =
            r.host.isEmpty() || r.host == QLatin1String("0.0.0.0") || r.host == QLatin1String("::") || r.host == QLatin1String("[::]");
        if (wildcard) {
            const auto url = normalizeServerUrl(profile.servers.value(0, QStringLiteral("127.0.0.1")));
            r.host = url ? QUrl(*url).host() : QStringLiteral("127.0.0.1");
        }
    }
    if (r.tls) {
        if (profile.tls.ca.isInline() || profile.tls.cert.isInline() || profile.tls.key.isInline())
            return Error(Error::Kind::InvalidInput, QStringLiteral("the MQTT probe takes TLS files by path, not inline"),
                         QStringLiteral("give the profile's tls files as paths"));
        r.caFile = profile.tls.ca.path;
        r.certFile = profile.tls.cert.path;
        r.keyFile = profile.tls.key.path;
    }
    return r;
}

MqttProbeResult run(const MqttProbeRequest &request)
{
    MqttProbeResult result;
    result.account = request.account;
    result.listener = QStringLiteral("%1:%2").arg(request.host).arg(request.port);
    if (request.host.isEmpty() || request.port <= 0 || request.port > 65535) {
        result.why = QStringLiteral("no MQTT listener to probe");
        return result;
    }
    ProbeSteps probe(request, result);
    result.verdict = MqttProbeResult::Verdict::Verified;
    StepRunner steps(result);
    {
        MqttWireClient client(request, result.clientId, false);
        const bool connected = steps.run(QStringLiteral("connect"), [&](QString *detail) { return probe.connect(client, detail); });
        if (connected)
            steps.run(QStringLiteral("qos1"), [&](QString *detail) { return probe.qos1(client, detail); });
        if (connected && !client.lost())
            steps.run(QStringLiteral("retained"), [&](QString *detail) { return probe.retained(client, detail); });
        if (probe.retainedStored() && !client.lost())
            steps.run(QStringLiteral("clear_retained"), [&](QString *detail) { return probe.clearRetained(client, detail); });
    }
    if (probe.sessionMade())
        steps.run(QStringLiteral("remove_session"), [&](QString *detail) { return probe.removeSession(detail); });
    result.leftBehind = probe.leftBehind();
    return result;
}

QList<MqttProbeResult> probeAccounts(const Profile &profile, const QList<ServerInfo> &servers, const QStringList &accounts,
                                     bool everyAccount)
{
    QList<MqttProbeResult> out;
    for (const QString &account : accounts) {
        if (everyAccount && !profile.mqttProbe.contains(account) && !profile.mqttProbe.contains(Profile::kAnyAccount))
            continue;
        auto request = requestFor(profile, account, servers);
        out.append(request ? run(*request) : MqttProbeResult::notRun(account, request.error().toString()));
    }
    return out;
}

} // namespace MqttProbe

} // namespace MqttDoctor
