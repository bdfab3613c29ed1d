#include "logcatalogueentry.h"

#include <QJsonArray>

namespace MqttDoctor {

QJsonObject LogCatalogueEntry::toJson() const
{
    return QJsonObject{
        {QStringLiteral("id"), id},
        {QStringLiteral("template"), text},
        {QStringLiteral("versions"), QJsonArray::fromStringList(versions)},
        {QStringLiteral("verified_on"), QJsonArray::fromStringList(verifiedOn)},
        {QStringLiteral("level"), level},
        {QStringLiteral("severity"), severity},
        {QStringLiteral("stream"), stream.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(stream)},
        {QStringLiteral("codes"), QJsonArray::fromStringList(codes)},
        {QStringLiteral("meaning"), meaning},
        {QStringLiteral("advice"), advice},
    };
}

} // namespace MqttDoctor
