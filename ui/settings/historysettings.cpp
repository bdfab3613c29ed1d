#include "historysettings.h"

#include <QSettings>

#include "history/historylocation.h"

namespace MqttDoctor {

QString HistorySettings::folder()
{
    const QString fromEnvironment = qEnvironmentVariable("MQTTDOCTOR_HISTORY_DIR");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    return HistoryLocation::folder(QSettings().value(QStringLiteral("history/folder")).toString());
}

bool HistorySettings::recording()
{
    return QSettings().value(QStringLiteral("history/record"), true).toBool();
}

} // namespace MqttDoctor
