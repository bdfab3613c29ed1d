#include "operatorplan.h"

#include <QJsonArray>
#include <QLocale>

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

namespace {

QJsonObject itemJson(const ActionSelection::Item &item, bool withWhy)
{
    QJsonObject o;
    if (!item.clientId.isEmpty())
        o.insert(QStringLiteral("client_id"), item.clientId);
    if (!item.topic.isEmpty())
        o.insert(QStringLiteral("topic"), item.topic);
    if (!item.subject.isEmpty())
        o.insert(QStringLiteral("subject"), item.subject);
    if (withWhy || !item.why.isEmpty())
        o.insert(QStringLiteral("why"), item.why);
    return o;
}

} // namespace

QJsonObject ActionSelection::toJson() const
{
    QJsonArray sel;
    for (const Item &i : selected)
        sel.append(itemJson(i, false));
    QJsonArray l;
    for (const Item &i : left)
        l.append(itemJson(i, true));
    return QJsonObject{{QStringLiteral("selected"), sel}, {QStringLiteral("left"), l}};
}

void ActionSelection::writeJson(JsonStreamWriter &w, const QString &key) const
{
    w.beginObject(key);
    w.beginArray(QStringLiteral("left"));
    for (const Item &i : left)
        w.value({}, itemJson(i, true));
    w.endArray();
    w.beginArray(QStringLiteral("selected"));
    for (const Item &i : selected)
        w.value({}, itemJson(i, false));
    w.endArray();
    w.endObject();
}

QJsonObject ActionCounts::toJson() const
{
    return QJsonObject{{QStringLiteral("sessions"), sessions},        {QStringLiteral("durables"), durables},
                       {QStringLiteral("qos2_records"), qos2Records}, {QStringLiteral("queued_messages"), queuedMessages},
                       {QStringLiteral("retained"), retained},        {QStringLiteral("connections"), connections}};
}

QString ActionCounts::text() const
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    QStringList parts;
    const auto add = [&](qint64 n, const char *one, const char *many) {
        if (n > 0)
            parts << QStringLiteral("%1 %2").arg(c.toString(n), QLatin1String(n == 1 ? one : many));
    };
    add(sessions, "session record", "session records");
    add(durables, "durable", "durables");
    add(qos2Records, "QoS 2 record", "QoS 2 records");
    add(queuedMessages, "queued message", "queued messages");
    add(retained, "retained message", "retained messages");
    add(connections, "connection", "connections");
    return parts.isEmpty() ? QStringLiteral("nothing") : parts.join(QStringLiteral(", "));
}

QJsonObject ClientReturn::toJson() const
{
    QJsonObject o{{QStringLiteral("client_id"), clientId}, {QStringLiteral("returned"), returned}, {QStringLiteral("after_ms"), afterMs}};
    if (returned) {
        o.insert(QStringLiteral("server"), server);
        o.insert(QStringLiteral("address"), address);
    }
    return o;
}

} // namespace MqttDoctor
