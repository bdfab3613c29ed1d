#include "repairround.h"

#include <QJsonArray>

namespace MqttDoctor {

QJsonArray RepairRound::findingsJson(const QList<Finding> &findings)
{
    QJsonArray out;
    for (const Finding &f : findings)
        out.append(f.toJson());
    return out;
}

QJsonObject RepairRound::toJson() const
{
    QJsonObject o{{QStringLiteral("round"), number},
                  {QStringLiteral("plan"), plan.toJson()},
                  {QStringLiteral("applied"), report.toJson()},
                  {QStringLiteral("backups"), QJsonArray::fromStringList(report.backups)},
                  {QStringLiteral("fixed"), findingsJson(fixed)},
                  {QStringLiteral("remaining"), checked ? QJsonValue(findingsJson(after)) : QJsonValue(QJsonValue::Null)}};
    if (checked) {
        QJsonArray gapsJson;
        for (const CoverageGap &g : gaps)
            gapsJson.append(g.toJson());
        o.insert(QStringLiteral("not_checked"), gapsJson);
    }
    if (recheckError)
        o.insert(QStringLiteral("check_error"), recheckError->toString());
    return o;
}

} // namespace MqttDoctor
