#include "displayformat.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>
#include <QSet>
#include <QVersionNumber>

namespace MqttDoctor::DisplayFormat {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("MqttDoctor::DisplayFormat", text);
}

} // namespace

QString bytes(qint64 value)
{
    if (value == 0)
        return tr("0 bytes");
    return QLocale().formattedDataSize(value, 1, QLocale::DataSizeIecFormat);
}

QString count(qint64 value)
{
    return QLocale().toString(value);
}

QString limit(qint64 value, bool isBytes, bool zeroIsUnlimited)
{
    if (value < 0 || (zeroIsUnlimited && value == 0))
        return tr("unlimited");
    return isBytes ? bytes(value) : count(value);
}

QString jetStreamState(const AccountInfo &account)
{
    if (!account.jetstreamKnown)
        return tr("unknown");
    return account.jetstream ? tr("enabled") : tr("disabled");
}

QStringList subjectList(const StreamInfo &stream)
{
    QStringList out;
    const QJsonArray subjects = stream.config.value(QLatin1String("subjects")).toArray();
    for (const QJsonValue &v : subjects)
        out << v.toString();
    return out;
}

QString subjects(const StreamInfo &stream)
{
    return subjectList(stream).join(QStringLiteral(", "));
}

qint64 messages(const StreamInfo &stream)
{
    return stream.state.value(QLatin1String("messages")).toInteger();
}

qint64 streamBytes(const StreamInfo &stream)
{
    return stream.state.value(QLatin1String("bytes")).toInteger();
}

int consumers(const StreamInfo &stream)
{
    if (stream.consumersKnown)
        return static_cast<int>(stream.consumers.size());
    return stream.state.value(QLatin1String("consumer_count")).toInt();
}

QString leader(const StreamInfo &stream)
{
    return stream.cluster.value(QLatin1String("leader")).toString();
}

QString mqttStatePlace(const AccountInfo &account)
{
    static const QString prefix = QStringLiteral("$MQTT.sess.");
    static const QString suffix = QStringLiteral(".>");
    bool found = false;
    QString cluster;
    QString domain;
    for (const StreamInfo &s : account.streams) {
        if (!s.isMqtt() || s.isLegacySession())
            continue;
        found = true;
        if (cluster.isEmpty())
            cluster = s.cluster.value(QLatin1String("name")).toString();
        if (s.name != QLatin1String("$MQTT_sess"))
            continue;
        for (const QString &subject : subjectList(s))
            if (subject.startsWith(prefix) && subject.endsWith(suffix) && subject.size() > prefix.size() + suffix.size())
                domain = subject.mid(prefix.size(), subject.size() - prefix.size() - suffix.size());
    }
    if (!found)
        return {};
    QStringList parts{domain.isEmpty() ? tr("JetStream without a domain") : tr("JetStream domain %1").arg(domain)};
    if (!cluster.isEmpty())
        parts << tr("cluster %1").arg(cluster);
    return parts.join(QStringLiteral(" · "));
}

QString mqttListener(const ServerInfo &server)
{
    if (!server.mqttKnown)
        return tr("unknown");
    if (server.mqttPort <= 0)
        return tr("none");
    return QStringLiteral("%1:%2").arg(server.mqttHost.isEmpty() ? QStringLiteral("0.0.0.0") : server.mqttHost).arg(server.mqttPort);
}

QString serverVersions(const QList<ServerInfo> &servers)
{
    // Sorted by version number, shown as the servers spell them ("2.10.0-beta.1" keeps its suffix).
    QList<std::pair<QVersionNumber, QString>> versions;
    QSet<QString> seen;
    for (const ServerInfo &s : servers) {
        if (s.version.isEmpty() || seen.contains(s.version))
            continue;
        seen.insert(s.version);
        versions.append({QVersionNumber::fromString(s.version), s.version});
    }
    std::sort(versions.begin(), versions.end());
    QStringList out;
    for (const auto &v : std::as_const(versions))
        out << v.second;
    return out.join(QStringLiteral(", "));
}

QString messageCount(qint64 n)
{
    return (n == 1 ? tr("%1 message") : tr("%1 messages")).arg(count(n));
}

QString serverCount(qint64 n)
{
    return (n == 1 ? tr("%1 server") : tr("%1 servers")).arg(count(n));
}

QString accountCount(qint64 n)
{
    return (n == 1 ? tr("%1 account") : tr("%1 accounts")).arg(count(n));
}

QString mqttStreamCount(qint64 n)
{
    if (n == 0)
        return tr("no MQTT streams");
    return (n == 1 ? tr("%1 MQTT stream") : tr("%1 MQTT streams")).arg(count(n));
}

QString legacySessionStreamNote()
{
    return tr("Legacy per-session stream left by an older nats-server; current servers keep every "
              "session in the single $MQTT_sess stream.");
}

QString findingWhere(const Finding &f)
{
    QStringList parts;
    if (!f.stream.isEmpty())
        parts << f.stream;
    if (!f.subject.isEmpty())
        parts << f.subject;
    if (!f.clientId.isEmpty())
        parts << tr("client %1").arg(f.clientId);
    return parts.join(QStringLiteral(" · "));
}

} // namespace MqttDoctor::DisplayFormat
