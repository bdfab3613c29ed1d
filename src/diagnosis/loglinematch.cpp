#include "loglinematch.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

} // namespace

QJsonObject LogLineMatch::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("line"), line);
    o.insert(QStringLiteral("matched"), matched);
    o.insert(QStringLiteral("template"), orNull(templateText));
    o.insert(QStringLiteral("template_id"), orNull(templateId));
    o.insert(QStringLiteral("inner_template"), orNull(innerTemplateId));
    o.insert(QStringLiteral("versions"), QJsonArray::fromStringList(versions));
    o.insert(QStringLiteral("level"), orNull(level));
    o.insert(QStringLiteral("severity"), orNull(severity));
    o.insert(QStringLiteral("connect_refused"), connectRefused);
    o.insert(QStringLiteral("account"), orNull(account));
    o.insert(QStringLiteral("client_id"), orNull(clientId));
    o.insert(QStringLiteral("stream"), orNull(stream));
    o.insert(QStringLiteral("subject"), orNull(subject));
    o.insert(QStringLiteral("sequence"), sequence > 0 ? QJsonValue(sequence) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("error_code"), errorCode > 0 ? QJsonValue(errorCode) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("error_text"), orNull(errorText));
    o.insert(QStringLiteral("codes"), QJsonArray::fromStringList(codes));
    o.insert(QStringLiteral("meaning"), orNull(meaning));
    o.insert(QStringLiteral("advice"), orNull(advice));
    return o;
}

} // namespace MqttDoctor
