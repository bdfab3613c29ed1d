#include "mqttclient.h"

#include "commandrunner.h"

#include <QRegularExpression>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

// Received messages are printed as "<marker> qos retain hexpayload topic" (topic last: may contain spaces).
QString messageMarker()
{
    return u"MQTTDOCTOR-MESSAGE"_s;
}

void parseDebugOutput(MqttResult &result)
{
    static const QRegularExpression connack(u"received CONNACK \\((\\d+)\\)"_s);
    static const QRegularExpression suback(u"^Subscribed \\(mid: \\d+\\): ([\\d, ]+)$"_s);
    static const QRegularExpression ack(u"received (PUBACK|PUBCOMP)"_s);

    const QString all = result.standardOutput + u'\n' + result.standardError;
    const QStringList lines = all.split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (const QRegularExpressionMatch m = connack.match(line); m.hasMatch()) {
            result.connackCode = m.captured(1).toInt();
        } else if (const QRegularExpressionMatch s = suback.match(line); s.hasMatch()) {
            const QStringList codes = s.captured(1).split(u',', Qt::SkipEmptyParts);
            for (const QString &code : codes)
                result.grantedQos << code.trimmed().toInt();
        } else if (ack.match(line).hasMatch()) {
            result.acknowledged = true;
        } else if (line.startsWith(messageMarker() + u' ')) {
            const QStringList parts = line.mid(messageMarker().size() + 1).split(u' ');
            if (parts.size() < 4)
                continue;
            MqttResult::Message message;
            message.qos = parts.at(0).toInt();
            message.retained = parts.at(1) == u"1";
            message.payload = QByteArray::fromHex(parts.at(2).toLatin1());
            message.topic = parts.mid(3).join(u' ');
            result.messages << message;
        }
    }
}

} // namespace

MqttClient::MqttClient(quint16 port, const QString &user, const QString &password, const QString &host)
    : m_host(host), m_port(port), m_user(user), m_password(password)
{}

void MqttClient::setCredentials(const QString &user, const QString &password)
{
    m_user = user;
    m_password = password;
}

void MqttClient::setTls(const QString &caFile, const QString &certFile, const QString &keyFile)
{
    m_caFile = caFile;
    m_certFile = certFile;
    m_keyFile = keyFile;
}

QStringList MqttClient::commonArguments(const QString &clientId) const
{
    QStringList arguments{u"-d"_s, u"-h"_s, m_host, u"-p"_s, QString::number(m_port), u"-V"_s, u"mqttv311"_s};
    if (!clientId.isEmpty())
        arguments << u"-i"_s << clientId;
    if (!m_user.isEmpty())
        arguments << u"-u"_s << m_user;
    if (!m_password.isEmpty())
        arguments << u"-P"_s << m_password;
    if (!m_caFile.isEmpty())
        arguments << u"--cafile"_s << m_caFile;
    if (!m_certFile.isEmpty())
        arguments << u"--cert"_s << m_certFile;
    if (!m_keyFile.isEmpty())
        arguments << u"--key"_s << m_keyFile;
    return arguments;
}

MqttResult MqttClient::connectOnce(const QString &clientId, bool cleanSession, const QString &probeTopic) const
{
    QStringList arguments = commonArguments(clientId);
    if (!cleanSession)
        arguments << u"-c"_s;
    arguments << u"-q"_s << u"0"_s << u"-t"_s << probeTopic << u"-n"_s;
    MqttResult result = run(u"mosquitto_pub"_s, arguments, {}, m_timeoutMs);
    result.acknowledged = result.connected() && result.exitCode == 0;
    return result;
}

MqttResult MqttClient::createPersistentSession(const QString &clientId, const QStringList &topics, int qos) const
{
    QStringList arguments = commonArguments(clientId);
    arguments << u"-c"_s << u"-q"_s << QString::number(qos) << u"-E"_s;
    for (const QString &topic : topics)
        arguments << u"-t"_s << topic;
    return run(u"mosquitto_sub"_s, arguments, {}, m_timeoutMs);
}

MqttResult MqttClient::publish(const QString &topic, const QByteArray &payload, int qos, bool retain, const QString &clientId) const
{
    QStringList arguments = commonArguments(clientId);
    arguments << u"-q"_s << QString::number(qos) << u"-t"_s << topic;
    if (retain)
        arguments << u"-r"_s;
    arguments << (payload.isEmpty() ? u"-n"_s : u"-s"_s); // -s: payload from stdin, binary-safe
    MqttResult result = run(u"mosquitto_pub"_s, arguments, payload, m_timeoutMs);
    if (qos == 0)
        result.acknowledged = result.connected() && result.exitCode == 0;
    return result;
}

MqttResult MqttClient::subscribeAndCollect(const QString &clientId, const QStringList &topics, int qos, int expectedCount, int waitSeconds,
                                           bool persistentSession) const
{
    QStringList arguments = commonArguments(clientId);
    if (persistentSession)
        arguments << u"-c"_s;
    arguments << u"-q"_s << QString::number(qos) << u"-W"_s << QString::number(qMax(1, waitSeconds));
    if (expectedCount > 0)
        arguments << u"-C"_s << QString::number(expectedCount);
    arguments << u"-F"_s << messageMarker() + u" %q %r %x %t"_s;
    for (const QString &topic : topics)
        arguments << u"-t"_s << topic;
    return run(u"mosquitto_sub"_s, arguments, {}, qMax(m_timeoutMs, waitSeconds * 1000 + 10000));
}

QString MqttClient::missingTools()
{
    QStringList missing;
    for (const QString &tool : {u"mosquitto_sub"_s, u"mosquitto_pub"_s}) {
        if (CommandRunner::findExecutable(tool).isEmpty())
            missing << tool;
    }
    return missing.isEmpty() ? QString() : u"%1 not found: install Debian's mosquitto-clients"_s.arg(missing.join(u", "_s));
}

MqttResult MqttClient::run(const QString &tool, const QStringList &arguments, const QByteArray &input, int timeoutMs) const
{
    MqttResult result;
    QStringList shown = arguments;
    const qsizetype passwordIndex = shown.indexOf(u"-P"_s);
    if (passwordIndex >= 0 && passwordIndex + 1 < shown.size())
        shown[passwordIndex + 1] = u"***"_s;
    result.command = tool + u' ' + shown.join(u' ');

    const CommandRunner::Result outcome = CommandRunner::run(tool, arguments, timeoutMs, input);
    result.started = outcome.started;
    result.killed = outcome.timedOut;
    result.exitCode = outcome.started && !outcome.timedOut && !outcome.crashed ? outcome.exitCode : -1;
    result.standardOutput = QString::fromUtf8(outcome.standardOutput);
    result.standardError = QString::fromUtf8(outcome.standardError);
    if (!outcome.errorString.isEmpty())
        result.standardError += (result.standardError.isEmpty() ? QString() : u"\n"_s) + outcome.errorString;
    parseDebugOutput(result);
    return result;
}

} // namespace MqttDoctor::Test
