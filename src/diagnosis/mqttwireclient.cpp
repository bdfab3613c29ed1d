#include "mqttwireclient.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

#include <cerrno>
#include <cstring>
#include <mutex>

#include <mosquitto.h>

namespace MqttDoctor {

namespace {

QString errorText(int rc)
{
    if (rc == MOSQ_ERR_ERRNO)
        return QString::fromLocal8Bit(strerror(errno));
    return QString::fromUtf8(mosquitto_strerror(rc));
}

} // namespace

QString MqttWireClient::randomToken(int length)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    QString out;
    for (int i = 0; i < length; ++i)
        out += QLatin1Char(alphabet[QRandomGenerator::system()->bounded(36)]);
    return out;
}

MqttWireClient::MqttWireClient(const MqttProbeRequest &request, const QString &clientId, bool cleanSession) : m_request(request)
{
    static std::once_flag once;
    std::call_once(once, [] { mosquitto_lib_init(); });
    m_mosq = mosquitto_new(clientId.toUtf8().constData(), cleanSession, this);
    if (!m_mosq)
        return;
    mosquitto_int_option(m_mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311);
    mosquitto_connect_with_flags_callback_set(m_mosq, [](mosquitto *, void *self, int rc, int flags) {
        auto *c = static_cast<MqttWireClient *>(self);
        c->m_connack = rc;
        c->m_sessionPresent = (flags & 1) != 0;
    });
    mosquitto_disconnect_callback_set(m_mosq, [](mosquitto *, void *self, int) { static_cast<MqttWireClient *>(self)->m_lost = true; });
    mosquitto_subscribe_callback_set(m_mosq, [](mosquitto *, void *self, int mid, int count, const int *granted) {
        static_cast<MqttWireClient *>(self)->m_subacks.insert(mid, count > 0 ? granted[0] : 0x80);
    });
    mosquitto_publish_callback_set(m_mosq,
                                   [](mosquitto *, void *self, int mid) { static_cast<MqttWireClient *>(self)->m_pubacks.insert(mid); });
    mosquitto_message_callback_set(m_mosq, [](mosquitto *, void *self, const mosquitto_message *m) {
        Message msg{QString::fromUtf8(m->topic), QByteArray(static_cast<const char *>(m->payload), m->payloadlen), m->qos, m->retain};
        static_cast<MqttWireClient *>(self)->m_messages.append(msg);
    });
}

MqttWireClient::~MqttWireClient()
{
    if (!m_mosq)
        return;
    disconnect();
    mosquitto_destroy(m_mosq);
}

void MqttWireClient::disconnect()
{
    if (m_mosq && m_connack == 0 && !m_lost) {
        mosquitto_disconnect(m_mosq);
        waitFor([this] { return m_lost; }, 500);
    }
}

bool MqttWireClient::connect(QString *why)
{
    if (!m_mosq) {
        *why = QStringLiteral("the MQTT client library could not make a client");
        return false;
    }
    if (!m_request.user.isEmpty())
        mosquitto_username_pw_set(m_mosq, m_request.user.toUtf8().constData(),
                                  m_request.password.isEmpty() ? nullptr : m_request.password.toUtf8().constData());
    if (m_request.tls) {
        const QByteArray ca = m_request.caFile.toLocal8Bit();
        const QByteArray cert = m_request.certFile.toLocal8Bit();
        const QByteArray key = m_request.keyFile.toLocal8Bit();
        const int rc = mosquitto_tls_set(m_mosq, ca.isEmpty() ? nullptr : ca.constData(), ca.isEmpty() ? "/etc/ssl/certs" : nullptr,
                                         cert.isEmpty() ? nullptr : cert.constData(), key.isEmpty() ? nullptr : key.constData(), nullptr);
        if (rc != MOSQ_ERR_SUCCESS) {
            *why = QStringLiteral("TLS set-up failed: %1").arg(errorText(rc));
            return false;
        }
    }
    const int keepalive = std::max(5, m_request.timeoutMs / 1000 * 2);
    const int rc = mosquitto_connect(m_mosq, m_request.host.toUtf8().constData(), m_request.port, keepalive);
    if (rc != MOSQ_ERR_SUCCESS) {
        *why = QStringLiteral("could not reach the MQTT listener %1:%2: %3").arg(m_request.host).arg(m_request.port).arg(errorText(rc));
        return false;
    }
    if (!waitFor([this] { return m_connack >= 0; }, m_request.timeoutMs)) {
        *why = m_lost ? QStringLiteral("the server closed the connection without a CONNACK (its log says \"unable to connect: ...\" "
                                       "with the reason: run explain on it)")
                      : QStringLiteral("no CONNACK within %1 ms").arg(m_request.timeoutMs);
        return false;
    }
    if (m_connack != 0) {
        *why = QStringLiteral("the server refused the connection: %1").arg(QString::fromUtf8(mosquitto_connack_string(m_connack)));
        return false;
    }
    return true;
}

int MqttWireClient::subscribe(const QString &topic, int qos)
{
    int mid = 0;
    if (mosquitto_subscribe(m_mosq, &mid, topic.toUtf8().constData(), qos) != MOSQ_ERR_SUCCESS)
        return -1;
    if (!waitFor([&] { return m_subacks.contains(mid); }, m_request.timeoutMs))
        return -1;
    return m_subacks.value(mid);
}

void MqttWireClient::unsubscribe(const QString &topic)
{
    int mid = 0;
    mosquitto_unsubscribe(m_mosq, &mid, topic.toUtf8().constData());
    waitFor([] { return false; }, 50);
}

bool MqttWireClient::publish(const QString &topic, const QByteArray &payload, bool retain)
{
    int mid = 0;
    if (mosquitto_publish(m_mosq, &mid, topic.toUtf8().constData(), int(payload.size()), payload.constData(), 1, retain)
        != MOSQ_ERR_SUCCESS)
        return false;
    return waitFor([&] { return m_pubacks.contains(mid); }, m_request.timeoutMs);
}

std::optional<MqttWireClient::Message> MqttWireClient::waitMessage(const QString &topic, int ms,
                                                                   const std::function<bool(const Message &)> &accept)
{
    std::optional<Message> found;
    waitFor(
        [&] {
            for (const Message &m : std::as_const(m_messages))
                if (m.topic == topic && (!accept || accept(m))) {
                    found = m;
                    return true;
                }
            return false;
        },
        ms);
    return found;
}

void MqttWireClient::pump(int ms)
{
    waitFor([] { return false; }, ms);
}

bool MqttWireClient::waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (m_lost || t.elapsed() >= ms)
            return done();
        const int rc = mosquitto_loop(m_mosq, 20, 1);
        if (rc != MOSQ_ERR_SUCCESS) {
            m_lost = true;
            return done();
        }
    }
    return true;
}

} // namespace MqttDoctor
