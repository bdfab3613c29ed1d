#include "mqttlayout.h"

#include "mqtt/clientidhash.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

MqttStreamSpec spec(const QString &name, const char *label, const QString &subject, const char *retention, int replicas)
{
    MqttStreamSpec s;
    s.name = name;
    s.label = QString::fromLatin1(label);
    s.subjects = QStringList{subject};
    s.retention = QString::fromLatin1(retention);
    s.replicas = replicas;
    return s;
}

} // namespace

MqttLayout::MqttLayout(Kind kind, const QString &domain, int replicas) : m_kind(kind), m_domain(domain), m_replicas(qMax(1, replicas))
{
    MqttStreamSpec sess =
        spec(sessionsStream(), "sessions", QStringLiteral("$MQTT.sess.") + domainToken() + QLatin1Char('>'), "limits", m_replicas);
    sess.maxMsgsPerSubject = 1;
    m_streams.append(sess);
    m_streams.append(spec(messagesStream(), "messages", QStringLiteral("$MQTT.msgs.>"), "interest", m_replicas));
    if (kind != Kind::V2_9) {
        MqttStreamSpec qos2 = spec(qos2InStream(), "QoS2 incoming messages", QStringLiteral("$MQTT.qos2.in.>"), "limits", m_replicas);
        qos2.discard = QStringLiteral("new");
        qos2.maxMsgsPerSubject = 1;
        qos2.discardNewPerSubject = true;
        m_streams.append(qos2);
        m_streams.append(spec(outStream(), "QoS2 outgoing PUBREL", QStringLiteral("$MQTT.out.>"), "interest", m_replicas));
    }
    m_streams.append(retainedSpec(kind, m_replicas));
}

MqttStreamSpec MqttLayout::retainedSpec(Kind kind, int replicas)
{
    MqttStreamSpec r;
    r.name = retainedStream();
    r.label = QStringLiteral("retained messages");
    r.retention = QStringLiteral("limits");
    r.replicas = qMax(1, replicas);
    if (kind == Kind::V2_10) {
        r.subjects = QStringList{retainedSubjects()};
        r.maxMsgsPerSubject = 1;
    } else {
        r.subjects = QStringList{retainedLegacySubject()};
        r.maxMsgsPerSubject = -1;
    }
    return r;
}

QString MqttLayout::domainToken() const
{
    return m_domain.isEmpty() ? QString() : m_domain + QLatin1Char('.');
}

std::optional<MqttStreamSpec> MqttLayout::stream(const QString &name) const
{
    for (const MqttStreamSpec &s : m_streams)
        if (s.name == name)
            return s;
    return std::nullopt;
}

QStringList MqttLayout::streamNames() const
{
    QStringList out;
    for (const MqttStreamSpec &s : m_streams)
        out.append(s.name);
    return out;
}

QString MqttLayout::sessionSubject(const QString &domain, const QString &clientIdHash)
{
    if (domain.isEmpty())
        return QStringLiteral("$MQTT.sess.") + clientIdHash;
    return QStringLiteral("$MQTT.sess.") + domain + QLatin1Char('.') + clientIdHash;
}

QJsonObject MqttLayout::toJson() const
{
    QJsonArray streams;
    for (const MqttStreamSpec &s : m_streams)
        streams.append(QJsonObject{
            {QStringLiteral("name"), s.name}, {QStringLiteral("label"), s.label}, {QStringLiteral("config"), s.createConfig()}});
    return QJsonObject{{QStringLiteral("kind"), kindName(m_kind)},
                       {QStringLiteral("domain"), m_domain},
                       {QStringLiteral("domain_token"), domainToken()},
                       {QStringLiteral("replicas"), m_replicas},
                       {QStringLiteral("streams"), streams}};
}

QString MqttLayout::kindName(Kind kind)
{
    switch (kind) {
    case Kind::V2_9: return QStringLiteral("2.9");
    case Kind::V2_10: return QStringLiteral("2.10+");
    case Kind::Mixed: return QStringLiteral("mixed");
    }
    return QStringLiteral("2.10+");
}

std::optional<MqttLayout::Kind> MqttLayout::kindFromName(const QString &name)
{
    for (Kind k : {Kind::V2_9, Kind::V2_10, Kind::Mixed})
        if (kindName(k) == name)
            return k;
    return std::nullopt;
}

bool MqttLayout::isMqttStreamName(const QString &name)
{
    return name == sessionsStream() || name == messagesStream() || name == qos2InStream() || name == outStream()
        || name == retainedStream();
}

QString MqttLayout::durableOwnerHash(const QString &stream, const QString &consumer)
{
    if (stream == messagesStream()) {
        if (consumer.size() > ClientIdHash::length && consumer.at(ClientIdHash::length) == QLatin1Char('_')
            && ClientIdHash::isHashToken(QStringView(consumer).left(ClientIdHash::length)))
            return consumer.left(ClientIdHash::length);
    } else if (stream == outStream()) {
        const QLatin1String prefix("$MQTT_PUBREL_");
        if (consumer.startsWith(prefix) && ClientIdHash::isHashToken(QStringView(consumer).mid(prefix.size())))
            return consumer.mid(prefix.size());
    }
    return {};
}

} // namespace MqttDoctor
