#include "jsrequesttypes.h"

#include <QStringList>

namespace MqttDoctor {

const QList<JsRequestType> &JsRequestType::all()
{
    static const QList<JsRequestType> types{
        {QStringLiteral("SC"), QStringLiteral("stream create"), QStringLiteral("creates an MQTT stream")},
        {QStringLiteral("SU"), QStringLiteral("stream update"), QStringLiteral("updates an MQTT stream's config")},
        {QStringLiteral("SL"), QStringLiteral("stream lookup"), QStringLiteral("reads an MQTT stream's info")},
        {QStringLiteral("SD"), QStringLiteral("stream delete"), QStringLiteral("deletes a legacy session stream")},
        {QStringLiteral("CC"), QStringLiteral("consumer create"), QStringLiteral("creates a subscription's durable")},
        {QStringLiteral("CL"), QStringLiteral("consumer lookup"), QStringLiteral("reads a durable's info")},
        {QStringLiteral("CD"), QStringLiteral("consumer delete"), QStringLiteral("deletes a durable (unsubscribe, clean session)")},
        {QStringLiteral("MS"), QStringLiteral("message store"), QStringLiteral("stores a QoS 1/2 or retained message")},
        {QStringLiteral("ML"), QStringLiteral("message load"), QStringLiteral("reads a stored message (session record, retained)")},
        {QStringLiteral("MD"), QStringLiteral("message delete"), QStringLiteral("deletes a stored message")},
        {QStringLiteral("SP"), QStringLiteral("session persist"), QStringLiteral("stores the session record in $MQTT_sess")},
        {QStringLiteral("RD"), QStringLiteral("retained delete"), QStringLiteral("deletes a retained message")},
        {QStringLiteral("SN"), QStringLiteral("stream names"), QStringLiteral("lists the legacy session streams")},
    };
    return types;
}

QString JsRequestType::meaningOf(const QString &code)
{
    for (const JsRequestType &t : all())
        if (t.code == code)
            return t.meaning;
    return {};
}

QString JsRequestType::legend()
{
    QStringList parts;
    for (const JsRequestType &t : all())
        parts << t.code + QLatin1Char(' ') + t.meaning;
    return parts.join(QStringLiteral(", "));
}

} // namespace MqttDoctor
