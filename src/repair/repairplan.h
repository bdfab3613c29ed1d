#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "diagnosis/finding.h"

namespace MqttDoctor {

/** One exact JetStream API request a step sends (docs/cli.md, "repair"). */
struct RepairRequest
{
    QString subject; ///< the full subject, e.g. "$JS.API.STREAM.CREATE.$MQTT_sess" (domain prefix included)
    QJsonObject body; ///< the JSON body (empty object: no body)

    QJsonObject toJson() const;
};

/** What a destructive step backs up first (docs/safety.md). */
struct RepairBackupSpec
{
    QString stream;
    QString subject; ///< empty: the whole stream
    bool includeMessages = true;
    bool allConsumers = true;
    QStringList consumers; ///< with allConsumers false: these

    QJsonObject toJson() const;
};

/**
 * One step of a repair plan: an action applied to one object (stream, subject, consumer), with
 * everything an operator needs to judge it before it runs: the exact requests, the -old +new diff,
 * what it backs up, how to undo it and how it is verified. Planned requests are as of planning;
 * the executor re-reads the state right before the step (precondition) and may rebuild them from
 * the current config (read-modify-write; docs/safety.md).
 */
struct RepairStep
{
    QString id; ///< stable within a plan: "1", "2", ...
    QString action; ///< RepairActions name: "create_stream", "update_stream", ...
    QString findingCode; ///< the finding it repairs
    QString account;
    QString stream;
    QString subject; ///< a session subject, when the step is about one
    QString consumer; ///< a consumer name, when the step is about one
    QString clientId;
    QString description; ///< one line for people
    QList<RepairRequest> requests;
    QString diff; ///< natscli-style "-old +new" lines (subject order ignored); empty when none
    bool destructive = false; ///< deletes or overwrites something: backup first, typed confirmation in the GUI
    QList<RepairBackupSpec> backups;
    QString precondition; ///< what must still hold right before the step, in words
    QString undo; ///< how to undo it (e.g. "restore FILE")
    QString verification; ///< what is checked after it
    QStringList dependsOn; ///< ids of steps that must succeed first
    /** Action-specific inputs the planner recorded (expected config, consumer config, ...). */
    QJsonObject params;

    QJsonObject toJson() const;
    /** toJson() with `params`: what a journal keeps to run the step again. */
    QJsonObject toJournalJson() const;
    /** A step from toJournalJson() (also reads toJson(), without params). */
    static RepairStep fromJson(const QJsonObject &json);
};

/** An ordered plan for one account, plus the findings no action repairs (with their guidance). */
struct RepairPlan
{
    QString account;
    QList<RepairStep> steps;
    QList<Finding> findings; ///< the findings the plan was made from
    QList<Finding> unrepairable; ///< findings without a repair action (guidance only)
    QStringList notes; ///< conflicts, skipped findings, ordering decisions

    bool isEmpty() const { return steps.isEmpty(); }
    bool hasDestructiveSteps() const;
    QJsonObject toJson() const;
};

/** How one step ended. */
struct StepOutcome
{
    enum class State { Applied, AlreadyDone, Failed, Skipped, NotRun };
    QString stepId;
    State state = State::NotRun;
    QString message; ///< error text, or what was found already done
    QStringList backupFiles; ///< backups written before the step
    QJsonArray responses; ///< the API replies (secrets never appear in them)

    static QString stateName(State s);
    QJsonObject toJson() const;
};

} // namespace MqttDoctor
