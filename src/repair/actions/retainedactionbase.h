#pragma once
// The common part of the retained-message repair actions (retainedactions.cpp, retainedrevert.cpp): the
// step skeleton (stream, subject, backup of the whole stream) and the representative requests of a
// republish of N messages. Private to repair/actions.

#include <QList>
#include <QString>

#include "repair/repairaction.h"

namespace MqttDoctor {

class RetainedActionBase : public RepairAction
{
protected:
    /**
     * How every retained action's plan opens: the plan's $MQTT_rmsgs when `f` is a finding of `code`; else
     * nullptr, and `note` says "<action>: nothing to <verb> for <f's code>." (no step planned).
     */
    const StreamInfo *retainedStreamFor(const Finding &f, const PlanContext &ctx, const QString &code, const QString &verb,
                                        QString *note) const;
    /** A destructive step on $MQTT_rmsgs of `f`, backed up whole (messages and consumer configs) first. */
    RepairStep baseStep(const Finding &f, const PlanContext &ctx) const;
    /**
     * The requests of "republish `count` `what` to $MQTT.rmsgs.<subject>, then delete them": one
     * representative request of each kind, with the count (JetStream API subjects for the domain).
     */
    static QList<RepairRequest> moveRequests(const PlanContext &ctx, const QString &what, qint64 count);
};

} // namespace MqttDoctor
