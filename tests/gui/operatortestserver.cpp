#include "operatortestserver.h"

#include <QJsonObject>
#include <QTest>

#include "mainwindow.h"
#include "mqtt/clientidhash.h"
#include "mqtt/mqttlayout.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "serverconfig.h"
#include "windowsteps.h"

namespace MqttDoctor::Test {

using namespace Qt::Literals::StringLiterals;

OperatorTestServer::OperatorTestServer() = default;

OperatorTestServer::~OperatorTestServer() = default;

bool OperatorTestServer::start(const QString &serverName)
{
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty()) {
        m_error = u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing);
        return false;
    }
    ServerConfig config = ServerConfig::standard(); // SYS (sys/syspass) + ACME (acme/acmepass, JetStream)
    config.setServerName(serverName);
    if (!m_server.start(u"newest"_s, config)) {
        m_error = m_server.errorString();
        return false;
    }
    return true;
}

Profile OperatorTestServer::profile(bool allowChanges) const
{
    Profile p = WindowSteps::standardProfile(m_server.url(), true, u"row-actions-test"_s);
    p.allowChanges = allowChanges;
    return p;
}

QString OperatorTestServer::makeSessions(const QStringList &clientIds, const QString &topic)
{
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    mqtt.setTimeoutMs(30000);
    for (const QString &id : clientIds) {
        const MqttResult r = mqtt.createPersistentSession(id, {topic.arg(id)}, 1);
        if (!r.connected() || !r.subscribed())
            return r.describe();
    }
    return {};
}

JetStreamClient OperatorTestServer::acme()
{
    if (!m_acme) {
        Profile p;
        p.servers = {m_server.url()};
        p.auth.kind = Credentials::Kind::UserPassword;
        p.auth.user = u"acme"_s;
        p.auth.password = u"acmepass"_s;
        m_acme = std::make_unique<ConnectionSet>(p);
    }
    auto conn = m_acme->primary();
    if (!conn)
        qFatal("cannot connect as acme: %s", qPrintable(conn.error().toString()));
    return JetStreamClient(*conn);
}

QStringList OperatorTestServer::sessionSubjects()
{
    auto info = acme().streamInfo(u"$MQTT_sess"_s, QJsonObject{{u"subjects_filter"_s, u">"_s}});
    if (!info)
        return {u"<error: %1>"_s.arg(info.error().toString())};
    QStringList out = info->value("state"_L1).toObject().value("subjects"_L1).toObject().keys();
    out.sort();
    return out;
}

QStringList OperatorTestServer::durablesOf(const QString &clientId)
{
    QStringList out;
    auto list = acme().consumerList(u"$MQTT_msgs"_s);
    if (!list)
        return {u"<error: %1>"_s.arg(list.error().toString())};
    const QString prefix = ClientIdHash::hash(clientId) + u'_';
    for (const QJsonObject &c : *list)
        if (const QString name = c.value("name"_L1).toString(); name.startsWith(prefix))
            out << name;
    out.sort();
    return out;
}

QString OperatorTestServer::subjectOf(const QString &clientId)
{
    return MqttLayout::sessionSubject({}, ClientIdHash::hash(clientId));
}

QString OperatorTestServer::errorText(const std::optional<Error> &error)
{
    return error ? error->toString() : QString();
}

bool OperatorTestServer::openSessions(MainWindow &window, ClusterController &controller, const Profile &profile)
{
    return WindowSteps::openAccount(window, controller, profile)
        && WindowSteps::openRecordView(window, ClusterTreeModel::NodeKind::Sessions) && activate(window);
}

bool OperatorTestServer::activate(MainWindow &window)
{
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

} // namespace MqttDoctor::Test
