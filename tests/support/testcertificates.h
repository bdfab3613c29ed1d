#pragma once

#include <QString>

#include <memory>

class QTemporaryDir;

namespace MqttDoctor::Test {

// Generates, with the openssl command line tool, into a temporary directory (PEM files, EC P-256):
// * a CA ("MqttDoctor Test CA")
// * a server certificate for 127.0.0.1 / localhost (subjectAltName IP:127.0.0.1, DNS:localhost) by the CA
// * a client certificate (CN mqttdoctor-client, clientAuth) by the CA
// * a second, unrelated CA and a client certificate by it (for "wrong CA" tests)
class TestCertificates
{
public:
    TestCertificates();
    ~TestCertificates();
    TestCertificates(const TestCertificates &) = delete;
    TestCertificates &operator=(const TestCertificates &) = delete;

    bool generate(); // false: see errorString()
    QString errorString() const { return m_errorString; }
    QString directory() const;

    QString caFile() const { return filePath(QStringLiteral("ca.pem")); }
    QString caKeyFile() const { return filePath(QStringLiteral("ca-key.pem")); }
    QString serverCertFile() const { return filePath(QStringLiteral("server.pem")); }
    QString serverKeyFile() const { return filePath(QStringLiteral("server-key.pem")); }
    QString clientCertFile() const { return filePath(QStringLiteral("client.pem")); }
    QString clientKeyFile() const { return filePath(QStringLiteral("client-key.pem")); }
    QString otherCaFile() const { return filePath(QStringLiteral("other-ca.pem")); }
    QString otherCaKeyFile() const { return filePath(QStringLiteral("other-ca-key.pem")); }
    QString otherClientCertFile() const { return filePath(QStringLiteral("other-client.pem")); }
    QString otherClientKeyFile() const { return filePath(QStringLiteral("other-client-key.pem")); }

private:
    QString filePath(const QString &name) const;
    bool openssl(const QStringList &arguments);
    bool makeCa(const QString &name, const QString &commonName);
    bool makeLeaf(const QString &name, const QString &commonName, const QString &caName, const QString &extensions);

    std::unique_ptr<QTemporaryDir> m_directory;
    QString m_errorString;
    int m_serial = 1;
};

} // namespace MqttDoctor::Test
