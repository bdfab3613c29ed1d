#include "natsserverbinary.h"

#include "commandrunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

// "nats-server: v2.9.10" -> "2.9.10"; empty if it does not run.
QString queryVersion(const QString &path, QString *problem)
{
    const CommandRunner::Result result = CommandRunner::run(path, {u"--version"_s}, 10000);
    if (!result.succeeded()) {
        *problem =
            result.errorString.isEmpty() ? u"`%1 --version` exited with code %2"_s.arg(path).arg(result.exitCode) : result.errorString;
        return {};
    }
    static const QRegularExpression pattern(u"v?(\\d+\\.\\d+\\.\\d+\\S*)"_s);
    const QRegularExpressionMatch match = pattern.match(QString::fromUtf8(result.standardOutput));
    if (!match.hasMatch()) {
        *problem = u"`%1 --version` printed no version: %2"_s.arg(path, QString::fromUtf8(result.standardOutput).trimmed());
        return {};
    }
    return match.captured(1);
}

bool versionFitsLabel(const QString &version, const QString &label)
{
    return version == label || version.startsWith(label + u'.');
}

QString fetchHint(const QString &serversDirectory)
{
    return u"Run `make test` (it fetches the newer nats-server binaries with scripts/fetch-nats-servers.sh "
           "into <build>/nats-servers), or point MQTTDOCTOR_NATS_SERVERS_DIR at such a folder (looked in: %1)."_s.arg(
               QDir::toNativeSeparators(serversDirectory));
}

} // namespace

QStringList NatsServerBinary::versionLabels()
{
    return {u"2.9"_s, u"2.10"_s, u"newest"_s};
}

QStringList NatsServerBinary::testVersionLabels()
{
    const QString chosen = qEnvironmentVariable("MQTTDOCTOR_TEST_VERSIONS").trimmed();
    if (chosen.isEmpty())
        return versionLabels();
    QStringList out;
    for (const QString &label : chosen.split(u',', Qt::SkipEmptyParts)) {
        if (!versionLabels().contains(label.trimmed()))
            qFatal("MQTTDOCTOR_TEST_VERSIONS names \"%s\"; known: %s", qPrintable(label), qPrintable(versionLabels().join(u", "_s)));
        out << label.trimmed();
    }
    return out;
}

QString NatsServerBinary::defaultServersDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("MQTTDOCTOR_NATS_SERVERS_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const QString binaryDir = qEnvironmentVariable("MQTTDOCTOR_BINARY_DIR");
    if (!binaryDir.isEmpty())
        return QDir(binaryDir).filePath(u"nats-servers"_s);
    if (QCoreApplication::instance())
        return QDir::cleanPath(QCoreApplication::applicationDirPath() + u"/../nats-servers"_s);
    return u"nats-servers"_s;
}

NatsServerBinary NatsServerBinary::locate(const QString &versionLabel)
{
    return locate(versionLabel, defaultServersDirectory());
}

NatsServerBinary NatsServerBinary::locate(const QString &versionLabel, const QString &serversDirectory)
{
    NatsServerBinary binary;
    binary.m_label = versionLabel;

    if (versionLabel == u"2.9") {
        // Debian 12's package: prefer whatever is in PATH if it is a 2.9, else the package's path.
        QStringList candidates;
        const QString inPath = CommandRunner::findExecutable(u"nats-server"_s);
        if (!inPath.isEmpty())
            candidates << inPath;
        candidates << u"/usr/sbin/nats-server"_s;
        QStringList problems;
        for (const QString &candidate : std::as_const(candidates)) {
            if (!QFileInfo(candidate).isExecutable()) {
                problems << u"%1 does not exist"_s.arg(candidate);
                continue;
            }
            QString problem;
            const QString version = queryVersion(candidate, &problem);
            if (version.isEmpty()) {
                problems << problem;
            } else if (!versionFitsLabel(version, versionLabel)) {
                problems << u"%1 is version %2"_s.arg(candidate, version);
            } else {
                binary.m_path = candidate;
                binary.m_version = version;
                return binary;
            }
        }
        binary.m_errorString =
            u"nats-server 2.9 not found (%1). Install Debian 12's package: apt-get install nats-server."_s.arg(problems.join(u"; "_s));
        return binary;
    }

    QString suite;
    if (versionLabel == u"2.10")
        suite = u"trixie"_s;
    else if (versionLabel == u"newest")
        suite = u"sid"_s;
    if (suite.isEmpty()) {
        binary.m_errorString = u"unknown nats-server version label \"%1\" (known: %2)"_s.arg(versionLabel, versionLabels().join(u", "_s));
        return binary;
    }

    // Absolute: the fixtures start the server in its temporary directory, where a relative path (the
    // benchmark runner passes <build>/nats-servers as given) would name nothing.
    const QString path = QFileInfo(QDir(serversDirectory).filePath(suite + u"/nats-server"_s)).absoluteFilePath();
    if (!QFileInfo(path).isExecutable()) {
        binary.m_errorString = u"nats-server \"%1\" (Debian %2) is missing: %3 does not exist. %4"_s.arg(
            versionLabel, suite, QDir::toNativeSeparators(path), fetchHint(serversDirectory));
        return binary;
    }
    QString problem;
    const QString version = queryVersion(path, &problem);
    if (version.isEmpty()) {
        binary.m_errorString =
            u"nats-server \"%1\" at %2 does not run: %3. %4"_s.arg(versionLabel, path, problem, fetchHint(serversDirectory));
        return binary;
    }
    if (versionLabel == u"2.10" && !versionFitsLabel(version, versionLabel)) {
        binary.m_errorString = u"nats-server at %1 is version %2, expected 2.10.x. %3"_s.arg(path, version, fetchHint(serversDirectory));
        return binary;
    }
    binary.m_path = path;
    binary.m_version = version;
    return binary;
}

} // namespace MqttDoctor::Test
