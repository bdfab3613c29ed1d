#pragma once
// Header-only: the libraries of tools/common link neither nats.c nor the core; whoever includes this links
// mqttdoctor_core (the integration tests, the demo's scenario).

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QThread>

#include <memory>
#include <optional>

#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"

namespace MqttDoctor::Test {

/** A connection as one account's user, to break that account's streams through its own JetStream API. */
class JetStreamAdmin
{
public:
    bool connect(const QStringList &servers, const QString &user, const QString &password)
    {
        ConnectionSettings settings;
        settings.servers = servers;
        settings.credentials.kind = Credentials::Kind::UserPassword;
        settings.credentials.user = user;
        settings.credentials.password = password;
        settings.timeoutMs = 5000;
        settings.role = QStringLiteral("test admin %1").arg(user);
        auto c = NatsConnection::connect(settings);
        if (!c) {
            m_error = c.error().toString();
            return false;
        }
        m_connection = *c;
        m_js = std::make_unique<JetStreamClient>(m_connection);
        return true;
    }

    /** One raw API call; false (see error()) on a JetStream error or no reply. */
    bool call(const QString &op, const QJsonObject &body = {}, QJsonObject *reply = nullptr)
    {
        if (!m_js) {
            m_error = QStringLiteral("not connected");
            return false;
        }
        auto r = m_js->call(op, body);
        if (!r) {
            m_error = QStringLiteral("%1: %2").arg(op, r.error().toString());
            return false;
        }
        if (reply)
            *reply = *r;
        return true;
    }

    bool createStream(const QJsonObject &config)
    {
        return call(QStringLiteral("STREAM.CREATE.") + config.value(QLatin1String("name")).toString(), config);
    }
    bool deleteStream(const QString &name) { return call(QStringLiteral("STREAM.DELETE.") + name); }
    std::optional<QJsonObject> streamConfig(const QString &name)
    {
        QJsonObject reply;
        if (!call(QStringLiteral("STREAM.INFO.") + name, {}, &reply))
            return std::nullopt;
        return reply.value(QLatin1String("config")).toObject();
    }
    /** Read-modify-write of one stream's config (raw JSON, every other field kept). */
    bool updateStream(const QString &name, const QJsonObject &changes)
    {
        auto config = streamConfig(name);
        if (!config)
            return false;
        for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
            config->insert(it.key(), it.value());
        return call(QStringLiteral("STREAM.UPDATE.") + name, *config);
    }
    QStringList streamNames()
    {
        auto r = m_js ? m_js->streamNames() : Result<QStringList>(Error(Error::Kind::InvalidInput, QStringLiteral("not connected")));
        return r ? *r : QStringList{QStringLiteral("<error: %1>").arg(r.error().toString())};
    }

    /** A JetStream publish (stored as is, e.g. a garbage record); false (see error()) without a stored ack. */
    bool store(const QString &subject, const QByteArray &data)
    {
        if (!m_connection) {
            m_error = QStringLiteral("not connected");
            return false;
        }
        auto reply = m_connection->request(subject, data, 5000);
        // A stream just created in a cluster: the other servers learn of its subjects a moment later.
        for (int retry = 0; retry < 50 && !reply && reply.error().kind() == Error::Kind::NoResponders; ++retry) {
            QThread::msleep(100);
            reply = m_connection->request(subject, data, 5000);
        }
        if (!reply || !reply->data.contains("\"seq\"")) {
            m_error = reply ? QString::fromUtf8(reply->data) : reply.error().toString();
            return false;
        }
        return true;
    }
    /** The names of a stream's consumers, sorted (an "<error: ...>" entry on failure). */
    QStringList consumerNames(const QString &stream)
    {
        auto r = m_js ? m_js->consumerList(stream)
                      : Result<QList<QJsonObject>>(Error(Error::Kind::InvalidInput, QStringLiteral("not connected")));
        if (!r)
            return {QStringLiteral("<error: %1>").arg(r.error().toString())};
        QStringList out;
        for (const QJsonObject &c : *r)
            out << c.value(QLatin1String("name")).toString();
        out.sort();
        return out;
    }

    QString error() const { return m_error; }

private:
    std::shared_ptr<NatsConnection> m_connection;
    std::unique_ptr<JetStreamClient> m_js;
    QString m_error;
};

} // namespace MqttDoctor::Test
