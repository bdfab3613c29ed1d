#include "layoutchoice.h"

#include <QJsonArray>

namespace MqttDoctor {

QJsonObject LayoutChoice::toJson() const
{
    QJsonObject o = layout.toJson();
    o.insert(QStringLiteral("basis"), basisName(basis));
    o.insert(QStringLiteral("versions"), QJsonArray::fromStringList(versions));
    o.insert(QStringLiteral("legacy_servers"), QJsonArray::fromStringList(legacyServers));
    o.insert(QStringLiteral("current_servers"), QJsonArray::fromStringList(currentServers));
    o.insert(QStringLiteral("unknown_servers"), QJsonArray::fromStringList(unknownServers));
    o.insert(QStringLiteral("peers"), QJsonArray::fromStringList(peers));
    o.insert(QStringLiteral("replicas_from_config"), replicasFromConfig);
    o.insert(QStringLiteral("domain_source"), domainSource);
    o.insert(QStringLiteral("cluster"), cluster.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(cluster));
    return o;
}

QString LayoutChoice::basisName(Basis basis)
{
    switch (basis) {
    case Basis::Versions: return QStringLiteral("versions");
    case Basis::Streams: return QStringLiteral("streams");
    case Basis::Default: return QStringLiteral("default");
    }
    return QStringLiteral("default");
}

} // namespace MqttDoctor
