#pragma once

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "common/error.h"
#include "nats/jetstreamclient.h"
#include "nats/profile.h"
#include "natsserverfixture.h"

namespace MqttDoctor {
class ClusterController;
class ConnectionSet;
class MainWindow;
} // namespace MqttDoctor

namespace MqttDoctor::Test {

/**
 * The server the row-action tests (tst_rowactions, tst_operatoractiondialog) act on: a real nats-server
 * (newest) with the standard accounts (SYS sys/syspass, ACME acme/acmepass), MQTT sessions made by mosquitto,
 * and what the tests read back from it through ACME's own JetStream API (the session records' subjects, a
 * client's durables). Test thread only.
 */
class OperatorTestServer final
{
public:
    OperatorTestServer();
    ~OperatorTestServer();
    OperatorTestServer(const OperatorTestServer &) = delete;
    OperatorTestServer &operator=(const OperatorTestServer &) = delete;

    /** Starts the server named `serverName`; false with errorString(). */
    bool start(const QString &serverName);
    QString errorString() const { return m_error; }
    quint16 mqttPort() const { return m_server.mqttPort(); }
    QString url() const { return m_server.url(); }

    /** The standard profile (system user, ACME's credentials) with "Allow changes" as given. */
    Profile profile(bool allowChanges) const;
    /** Persistent sessions with a QoS 1 subscription each on `topic` (%1: the client ID); empty, or what failed. */
    QString makeSessions(const QStringList &clientIds, const QString &topic = QStringLiteral("batch/%1/#"));

    JetStreamClient acme();
    /** The subjects of $MQTT_sess that hold a record, sorted. */
    QStringList sessionSubjects();
    /** The durables of $MQTT_msgs that belong to `clientId` (by its hash), sorted. */
    QStringList durablesOf(const QString &clientId);
    /** `$MQTT.sess.<hash>` of a client ID. */
    static QString subjectOf(const QString &clientId);

    /** An optional error as text (empty without one), for failure messages. */
    static QString errorText(const std::optional<Error> &error);
    /** Connects the window with `profile`, opens ACME's Sessions and makes the window active (the tables' shortcuts need it). */
    [[nodiscard]] static bool openSessions(MainWindow &window, ClusterController &controller, const Profile &profile);
    /** Makes the window the active one again (after a dialog closed). */
    [[nodiscard]] static bool activate(MainWindow &window);

private:
    NatsServerFixture m_server;
    std::unique_ptr<ConnectionSet> m_acme;
    QString m_error;
};

} // namespace MqttDoctor::Test
