#pragma once

#include <QString>
#include <QStringList>
#include <QVersionNumber>

namespace MqttDoctor::Test {

// Finds the nats-server binary for a version label of the test matrix:
//   "2.9"    Debian 12's installed nats-server (PATH, then /usr/sbin/nats-server)
//   "2.10"   <servers dir>/trixie/nats-server
//   "newest" <servers dir>/sid/nats-server
// <servers dir> = $MQTTDOCTOR_NATS_SERVERS_DIR, else $MQTTDOCTOR_BINARY_DIR/nats-servers, else
// <directory of the running executable>/../nats-servers (build/bin and build/tests both work).
// A missing binary is an error (tests QFAIL on it, they never skip).
class NatsServerBinary
{
public:
    static NatsServerBinary locate(const QString &versionLabel);
    static NatsServerBinary locate(const QString &versionLabel, const QString &serversDirectory);

    static QStringList versionLabels(); // {"2.9", "2.10", "newest"}
    /**
     * The versions a version-driven test runs on: versionLabels(), or the ones named in
     * MQTTDOCTOR_TEST_VERSIONS (comma-separated, e.g. "newest": the ThreadSanitizer phase checks our
     * threads, not the servers' versions, which the other phases cover). An unknown name is fatal.
     */
    static QStringList testVersionLabels();
    static QString defaultServersDirectory();

    bool isValid() const { return m_errorString.isEmpty() && !m_path.isEmpty(); }
    QString errorString() const { return m_errorString; }
    QString label() const { return m_label; }
    QString path() const { return m_path; }
    QString version() const { return m_version; } // "2.9.10", from `nats-server --version`
    QVersionNumber versionNumber() const { return QVersionNumber::fromString(m_version); }

private:
    QString m_label;
    QString m_path;
    QString m_version;
    QString m_errorString;
};

} // namespace MqttDoctor::Test
