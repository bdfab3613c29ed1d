#pragma once
// create_consumer and delete_consumer (sessionconsumeractions.cpp), and the delete_consumer step that
// purge_session and delete_session plan for the durables they remove. Private to repair/actions.

#include <QJsonObject>
#include <QList>
#include <QString>

#include "repair/repairaction.h"

namespace MqttDoctor::SessionRepair {

/** A session subject the delete_consumer precondition re-reads, with what the plan saw on it. */
struct WatchedSubject
{
    QString subject;
    quint64 seq = 0; ///< the record the plan saw (0: none)
    bool purgedBefore = false; ///< an earlier step of the same plan purges exactly that record
    QJsonObject toJson() const;
    static WatchedSubject fromJson(const QJsonObject &o);
};

/**
 * A delete_consumer step (backup of the config, then CONSUMER.DELETE) for `name` of the gathered
 * state; `why` ends the one-line description ("orphaned", "of the undecodable record on ...").
 * `watched` are the session subjects re-read right before it.
 */
RepairStep deleteConsumerStep(const PlanContext &ctx, const QString &stream, const QString &name, const QString &why,
                              const QList<WatchedSubject> &watched);

} // namespace MqttDoctor::SessionRepair
