#include "testcertificates.h"

#include "commandrunner.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

// Our own openssl config, so the result does not depend on the system's openssl.cnf.
constexpr char OpensslConfig[] = R"(
[ req ]
distinguished_name = dn
prompt = no
[ dn ]
CN = placeholder
[ ca_ext ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[ server_ext ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[ client_ext ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
)";

constexpr int ValidDays = 30;

QStringList newKeyArguments()
{
    return {u"-newkey"_s, u"ec"_s, u"-pkeyopt"_s, u"ec_paramgen_curve:prime256v1"_s, u"-nodes"_s};
}

} // namespace

TestCertificates::TestCertificates() = default;
TestCertificates::~TestCertificates() = default;

QString TestCertificates::directory() const
{
    return m_directory ? m_directory->path() : QString();
}

QString TestCertificates::filePath(const QString &name) const
{
    return QDir(directory()).filePath(name);
}

bool TestCertificates::generate()
{
    m_errorString.clear();
    m_directory = std::make_unique<QTemporaryDir>(QDir::tempPath() + u"/mqttdoctor-certs-XXXXXX"_s);
    if (!m_directory->isValid()) {
        m_errorString = u"cannot create a temporary directory: %1"_s.arg(m_directory->errorString());
        return false;
    }
    QFile config(filePath(u"openssl.cnf"_s));
    if (!config.open(QIODevice::WriteOnly) || config.write(OpensslConfig) < 0) {
        m_errorString = u"cannot write %1"_s.arg(config.fileName());
        return false;
    }
    config.close();
    m_serial = int(QDateTime::currentSecsSinceEpoch() % 100000) * 10;

    return makeCa(u"ca"_s, u"MqttDoctor Test CA"_s) && makeLeaf(u"server"_s, u"localhost"_s, u"ca"_s, u"server_ext"_s)
        && makeLeaf(u"client"_s, u"mqttdoctor-client"_s, u"ca"_s, u"client_ext"_s) && makeCa(u"other-ca"_s, u"MqttDoctor Unrelated CA"_s)
        && makeLeaf(u"other-client"_s, u"mqttdoctor-other-client"_s, u"other-ca"_s, u"client_ext"_s);
}

bool TestCertificates::makeCa(const QString &name, const QString &commonName)
{
    return openssl(QStringList{u"req"_s, u"-x509"_s, u"-config"_s, filePath(u"openssl.cnf"_s), u"-extensions"_s, u"ca_ext"_s}
                   + newKeyArguments()
                   + QStringList{u"-keyout"_s, filePath(name + u"-key.pem"_s), u"-out"_s, filePath(name + u".pem"_s), u"-days"_s,
                                 QString::number(ValidDays), u"-subj"_s, u"/CN="_s + commonName});
}

bool TestCertificates::makeLeaf(const QString &name, const QString &commonName, const QString &caName, const QString &extensions)
{
    const QString request = filePath(name + u".csr"_s);
    return openssl(QStringList{u"req"_s, u"-new"_s, u"-config"_s, filePath(u"openssl.cnf"_s)} + newKeyArguments()
                   + QStringList{u"-keyout"_s, filePath(name + u"-key.pem"_s), u"-out"_s, request, u"-subj"_s, u"/CN="_s + commonName})
        && openssl({u"x509"_s, u"-req"_s, u"-in"_s, request, u"-CA"_s, filePath(caName + u".pem"_s), u"-CAkey"_s,
                    filePath(caName + u"-key.pem"_s), u"-set_serial"_s, QString::number(++m_serial), u"-days"_s, QString::number(ValidDays),
                    u"-extfile"_s, filePath(u"openssl.cnf"_s), u"-extensions"_s, extensions, u"-out"_s, filePath(name + u".pem"_s)});
}

bool TestCertificates::openssl(const QStringList &arguments)
{
    const CommandRunner::Result result = CommandRunner::run(u"openssl"_s, arguments, 30000);
    if (result.succeeded())
        return true;
    m_errorString = u"openssl %1 failed (exit %2): %3 %4"_s.arg(arguments.join(u' '))
                        .arg(result.exitCode)
                        .arg(result.errorString, QString::fromUtf8(result.standardError).trimmed());
    return false;
}

} // namespace MqttDoctor::Test
