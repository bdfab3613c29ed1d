#pragma once

#include <QList>
#include <QString>

namespace MqttDoctor {

/**
 * The request types the MQTT gateway names in its JetStream request timeouts (`timeout after %v: request
 * type %q on %q`): the token of the reply subject `$MQTT.JSA.<server>.<type>.<id>`. Static data; any thread.
 */
struct JsRequestType
{
    QString code; ///< "SP"
    QString meaning; ///< "session persist"
    QString request; ///< what the gateway asked for: "stores the session record in $MQTT_sess"

    /** Every type, in the servers' order. */
    static const QList<JsRequestType> &all();
    /** The meaning of `code` ("session persist"), empty when unknown. */
    static QString meaningOf(const QString &code);
    /** "SC stream create, SU stream update, ..." */
    static QString legend();
};

} // namespace MqttDoctor
