#include "persistentsessionfixture.h"

namespace MqttDoctor::Test {

bool PersistentSessionFixture::start(const QString &versionLabel, const ServerConfig &config)
{
    if (!m_server.start(versionLabel, config))
        return false;
    m_mqtt = std::make_unique<MqttClient>(m_server.mqttPort(), user(), password());
    m_mqtt->setTimeoutMs(MqttTimeoutMs);
    return true;
}

MqttResult PersistentSessionFixture::addSession(const QString &clientId, const QStringList &topics, int qos)
{
    MqttResult r;
    for (int attempt = 0; attempt < 3 && !r.subscribed(); ++attempt)
        r = m_mqtt->createPersistentSession(clientId, topics, qos);
    return r;
}

QStringList PersistentSessionFixture::cliArgs() const
{
    return {QStringLiteral("--server"),          url(),           QStringLiteral("--user"),        user(),
            QStringLiteral("--password"),        password(),      QStringLiteral("--system-user"), systemUser(),
            QStringLiteral("--system-password"), systemPassword()};
}

} // namespace MqttDoctor::Test
