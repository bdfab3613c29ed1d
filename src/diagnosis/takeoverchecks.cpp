#include "takeoverchecks.h"

#include <QJsonArray>
#include <QJsonObject>

#include "activity/takeoverwatch.h"
#include "common/duration.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"

namespace MqttDoctor::Checks {

QList<Finding> checkTakeovers(const QString &account, const QList<MqttClientEvent> &closed)
{
    TakeoverWatch watch;
    for (const MqttClientEvent &e : closed)
        (void)watch.add(e);
    QList<Finding> out;
    const QString window = formatAge(watch.options().windowMs / 1000);
    for (const TakeoverWatch::Storm &s : watch.storms()) {
        Finding f = FindingCatalogue::make(FindingCodes::clientIdTakeover(), account, {},
                                           {{QStringLiteral("client_id"), s.clientId},
                                            {QStringLiteral("count"), QString::number(s.takeovers)},
                                            {QStringLiteral("window"), window}});
        f.clientId = s.clientId;
        f.detail = QStringLiteral("The servers closed connections of client ID \"%1\" %2 times within %3 (between %4 and %5 UTC) because "
                                  "another connection with the same client ID started: two devices (or two instances of one app) share "
                                  "it and close each other's connection at every CONNECT. Addresses involved: %6.")
                       .arg(s.clientId)
                       .arg(s.takeovers)
                       .arg(window, s.first.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), s.last.toString(QStringLiteral("HH:mm:ss")),
                            s.addresses.isEmpty() ? QStringLiteral("unknown") : s.addresses.join(QStringLiteral(", ")));
        f.expected = QJsonObject{{QStringLiteral("connections_per_client_id"), 1}};
        f.actual = QJsonObject{{QStringLiteral("takeovers"), s.takeovers},
                               {QStringLiteral("window_seconds"), double(watch.options().windowMs) / 1000.0},
                               {QStringLiteral("addresses"), QJsonArray::fromStringList(s.addresses)},
                               {QStringLiteral("first"), s.first.toString(Qt::ISODateWithMs)},
                               {QStringLiteral("last"), s.last.toString(Qt::ISODateWithMs)}};
        out << f;
    }
    return out;
}

} // namespace MqttDoctor::Checks
