#include "logcatalogueentry.h"

#include <QJsonArray>

#include <type_traits>

#include "common/jsonfieldreader.h"

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

QJsonObject LogCatalogueEntry::toDataJson() const
{
    // Members at their default are left out, so the data file says only what sets an entry apart.
    QJsonObject o;
    const auto string = [&o](const char *key, const QString &value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), value);
    };
    const auto list = [&o](const char *key, const QStringList &value) {
        if (!value.isEmpty())
            o.insert(QLatin1String(key), QJsonArray::fromStringList(value));
    };
    const auto flag = [&o](const char *key, bool value, bool fallback) {
        if (value != fallback)
            o.insert(QLatin1String(key), value);
    };
    const auto byCause = [&o](const char *key, const auto &map) {
        if (map.isEmpty())
            return;
        QJsonObject m;
        for (auto it = map.begin(); it != map.end(); ++it) {
            if constexpr (std::is_same_v<std::decay_t<decltype(it.value())>, QStringList>)
                m.insert(it.key(), QJsonArray::fromStringList(it.value()));
            else
                m.insert(it.key(), it.value());
        }
        o.insert(QLatin1String(key), m);
    };
    string("id", id);
    string("template", text);
    list("fields", fields);
    list("versions", versions);
    list("verified_on", verifiedOn);
    string("level", level);
    string("severity", severity);
    string("stream", stream);
    list("codes", codes);
    flag("cause_decides", causeDecides, false);
    flag("connect_path", connectPath, false);
    flag("inner", inner, false);
    flag("anchored", anchored, true);
    flag("mqtt_client_only", mqttClientOnly, false);
    string("cause_key", causeKey);
    string("meaning", meaning);
    string("advice", advice);
    byCause("codes_by_cause", codesByCause);
    byCause("meaning_by_cause", meaningByCause);
    byCause("advice_by_cause", adviceByCause);
    string("notes", notes);
    return o;
}

Result<LogCatalogueEntry> LogCatalogueEntry::fromDataJson(const QJsonObject &o)
{
    JsonFieldReader r(o, QStringLiteral("log catalogue entry"));
    LogCatalogueEntry e;
    e.id = r.string("id", true);
    r.setName(e.id);
    e.text = r.string("template", true);
    e.fields = r.strings("fields");
    e.versions = r.strings("versions");
    e.verifiedOn = r.strings("verified_on");
    e.level = r.string("level");
    e.severity = r.string("severity");
    e.stream = r.string("stream");
    e.codes = r.strings("codes");
    e.causeDecides = r.flag("cause_decides", false);
    e.connectPath = r.flag("connect_path", false);
    e.inner = r.flag("inner", false);
    e.anchored = r.flag("anchored", true);
    e.mqttClientOnly = r.flag("mqtt_client_only", false);
    e.causeKey = r.string("cause_key");
    e.meaning = r.string("meaning");
    e.advice = r.string("advice");
    e.codesByCause = r.stringLists("codes_by_cause");
    e.meaningByCause = r.stringMap("meaning_by_cause");
    e.adviceByCause = r.stringMap("advice_by_cause");
    e.notes = r.string("notes");
    if (auto checked = r.finish(); !checked.ok())
        return checked.error();
    return e;
}

} // namespace MqttDoctor
