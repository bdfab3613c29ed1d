#include "finding.h"

#include <QJsonArray>

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

QString Finding::severityName(Severity s)
{
    switch (s) {
    case Severity::Info: return QStringLiteral("info");
    case Severity::Warning: return QStringLiteral("warning");
    case Severity::Error: return QStringLiteral("error");
    case Severity::Critical: return QStringLiteral("critical");
    }
    return QStringLiteral("info");
}

std::optional<Finding::Severity> Finding::severityFromName(const QString &name)
{
    for (Severity s : {Severity::Info, Severity::Warning, Severity::Error, Severity::Critical})
        if (severityName(s) == name)
            return s;
    return std::nullopt;
}

QJsonObject Finding::toJson() const
{
    const auto orNull = [](const QString &s) { return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s); };
    return QJsonObject{
        {QStringLiteral("code"), code},
        {QStringLiteral("severity"), severityName(severity)},
        {QStringLiteral("account"), account},
        {QStringLiteral("stream"), orNull(stream)},
        {QStringLiteral("subject"), orNull(subject)},
        {QStringLiteral("client_id"), orNull(clientId)},
        {QStringLiteral("title"), title.toString()},
        {QStringLiteral("detail"), detail.toString()},
        {QStringLiteral("evidence"),
         QJsonObject{{QStringLiteral("expected"), expected.toJsonValue()}, {QStringLiteral("actual"), actual.toJsonValue()}}},
        {QStringLiteral("explains"), QJsonArray::fromStringList(explains)},
        {QStringLiteral("repair"), orNull(repair)}};
}

void Finding::writeJson(JsonStreamWriter &w) const
{
    // toJson()'s members in its order (sorted keys), written as they are made (a text kept as a pattern
    // without making it).
    w.beginObject();
    w.string(QStringLiteral("account"), account);
    w.stringOrNull(QStringLiteral("client_id"), clientId);
    w.string(QStringLiteral("code"), code);
    detail.writeJson(w, QStringLiteral("detail"));
    w.beginObject(QStringLiteral("evidence"));
    actual.writeJson(w, QStringLiteral("actual"));
    expected.writeJson(w, QStringLiteral("expected"));
    w.endObject();
    w.strings(QStringLiteral("explains"), explains);
    w.stringOrNull(QStringLiteral("repair"), repair);
    w.string(QStringLiteral("severity"), severityName(severity));
    w.stringOrNull(QStringLiteral("stream"), stream);
    w.stringOrNull(QStringLiteral("subject"), subject);
    title.writeJson(w, QStringLiteral("title"));
    w.endObject();
}

QString Finding::identity() const
{
    return QStringList{code, account, stream, subject, clientId, title.toString()}.join(u'|');
}

} // namespace MqttDoctor
