#include "diagnosis/logcataloguecause.h"

#include <QJsonArray>

#include "common/jsonfieldreader.h"

namespace MqttDoctor {

QString LogCatalogueCause::text() const
{
    if (!errorText.isEmpty() || !key.startsWith(QLatin1String("js:")))
        return errorText;
    return description + QStringLiteral(" (") + QStringView(key).sliced(3) + u')';
}

QJsonObject LogCatalogueCause::toDataJson() const
{
    QJsonObject o{{QStringLiteral("key"), key}};
    const auto text = [&o](const char *name, const QString &value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(name), value);
    };
    text("description", description);
    text("text", errorText);
    if (!codes.isEmpty())
        o.insert(QStringLiteral("codes"), QJsonArray::fromStringList(codes));
    text("severity", severity);
    text("meaning", meaning);
    text("advice", advice);
    return o;
}

Result<LogCatalogueCause> LogCatalogueCause::fromDataJson(const QJsonObject &object)
{
    JsonFieldReader r(object, QStringLiteral("log catalogue cause"));
    LogCatalogueCause c;
    c.key = r.string("key", true);
    r.setName(c.key);
    c.description = r.string("description");
    c.errorText = r.string("text");
    c.codes = r.strings("codes");
    c.severity = r.string("severity");
    c.meaning = r.string("meaning");
    c.advice = r.string("advice");
    if (auto checked = r.finish(); !checked.ok())
        return checked.error();
    return c;
}

} // namespace MqttDoctor
