#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace MqttDoctor {

/** A stream as JSZ or the JetStream API shows it: raw JSON kept so unknown fields survive. */
struct StreamInfo
{
    QString name;
    QJsonObject config;
    QJsonObject state;
    QJsonObject cluster; ///< {name, leader, replicas:[...]}; empty on a single server
    QString created;
    QList<QJsonObject> consumers; ///< consumer info objects, when fetched
    bool consumersKnown = false;
    QString source; ///< "api" (account connection) or "jsz" (system view)

    bool isMqtt() const { return name.startsWith(QLatin1String("$MQTT_")); }
    bool isLegacySession() const { return name.startsWith(QLatin1String("$MQTT_sess_")); }
};

} // namespace MqttDoctor
