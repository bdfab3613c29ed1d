#pragma once
// The common part of the retained-message repair actions (retainedactions.cpp):
// the step skeleton (stream, subject, backup of the whole stream), the representative requests of a
// republish of N messages, and the state reads their preconditions and verifications share. Private
// to repair/actions.

#include <optional>

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "repair/repairaction.h"

namespace MqttDoctor {

class RetainedActionBase : public RepairAction
{
public:
    /** `$JS.API.STREAM.INFO.$MQTT_rmsgs` `{"subjects_filter": filter}`: messages per subject. */
    static Result<QHash<QString, qint64>> subjectCounts(const ExecContext &ctx, const QString &filter);
    /** The raw config of $MQTT_rmsgs now; nullopt when it does not exist. */
    static Result<std::optional<QJsonObject>> currentConfig(const ExecContext &ctx);
    /** Ok when nothing is stored on the literal `$MQTT.rmsgs`. */
    static Result<void> noneLeftOnLegacySubject(const ExecContext &ctx);
    /** revert_retained (retainedrevert.cpp). */
    static const RepairAction *revertAction();

protected:
    /** A destructive step on $MQTT_rmsgs of `f`, backed up whole (messages and consumer configs) first. */
    RepairStep baseStep(const Finding &f, const PlanContext &ctx) const;
    /**
     * The requests of "republish `count` `what` to $MQTT.rmsgs.<subject>, then delete them": one
     * representative request of each kind, with the count (JetStream API subjects for the domain).
     */
    static QList<RepairRequest> moveRequests(const PlanContext &ctx, const QString &what, qint64 count);
};

} // namespace MqttDoctor
