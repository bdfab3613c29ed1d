#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "mqtt/layoutchoice.h"
#include "repair/repairplan.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {

/**
 * What the planner knows when it turns findings into steps: the gathered state of the cluster and
 * the account (the same DiagnosisInput the findings came from, records included when read). Pure.
 */
struct PlanContext
{
    const DiagnosisInput *input = nullptr;
    const AccountInfo *account = nullptr; ///< the account being repaired (in input->accounts)
    LayoutChoice layout; ///< expected layout for this account
    QString apiDomain; ///< JetStream API domain ("" none): prefixes request subjects
    const SessionCheckInput *sessions = nullptr; ///< records of the account, when read

    /** `$JS.API.<op>` or `$JS.<domain>.API.<op>`. */
    QString apiSubject(const QString &op) const;
    const StreamInfo *stream(const QString &name) const;
};

/** What a step needs while it runs: the account's connection and where backups go. Worker thread. */
struct ExecContext
{
    RepairTarget target;
    QString backupDir; ///< where the executor writes the step's backups
    const std::atomic<bool> *cancel = nullptr;

    /** One JetStream API request ($JS.API.<op> with the target's domain); the reply's "error" becomes an Error. */
    Result<QJsonObject> api(const QString &op, const QJsonObject &body = {}) const;
    /** One request of apiEach(): `$JS.API.<op>` with its body. */
    struct ApiCall
    {
        QString op;
        QJsonObject body;
    };
    /**
     * Many requests at once, `window` in flight on one reply subscription: each reply (its "error" an Error) in
     * the order of `calls`. Fails as a whole only when a request got no reply at all (timeout, no responders).
     */
    Result<QList<Result<QJsonObject>>> apiEach(const QList<ApiCall> &calls, int window = 64) const;
    /** The stream's current info (config + state), or nullopt when it does not exist (10059). */
    Result<std::optional<QJsonObject>> streamInfo(const QString &stream) const;
    /** The consumer's current info, or nullopt when it (or its stream) does not exist (10014 / 10059). */
    Result<std::optional<QJsonObject>> consumerInfo(const QString &stream, const QString &consumer) const;
};

/** Right before a step: go ahead, nothing to do (a rerun after a crash), or the state moved on. */
struct Precondition
{
    enum class Verdict { Run, AlreadyDone, Changed };
    Verdict verdict = Verdict::Run;
    QString reason; ///< AlreadyDone / Changed: what was found

    static Precondition run() { return {}; }
    static Precondition alreadyDone(const QString &why) { return {Verdict::AlreadyDone, why}; }
    static Precondition changed(const QString &why) { return {Verdict::Changed, why}; }
};

/**
 * One repair action (docs/findings.md, each code's repair). plan() is pure; the rest block
 * on the network (worker thread). The executor calls, per step: precondition(), then takes the
 * step's backups (destructive steps), then apply(), then verify(), and logs the step in the audit
 * log. apply() must be idempotent: "already exists" is re-read, not fatal (docs/safety.md).
 */
class RepairAction
{
public:
    virtual ~RepairAction() = default;
    virtual QString name() const = 0;
    /** The steps that repair `finding` (empty when this finding gives nothing to do; then say why in `note`). */
    virtual QList<RepairStep> plan(const Finding &finding, const PlanContext &ctx, QString *note) const = 0;
    virtual Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const = 0;
    /** Sends the requests; returns the replies (for the audit log and the report). */
    virtual Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const = 0;
    /** Reads back what apply() changed; an error says what is not as intended. */
    virtual Result<void> verify(const RepairStep &step, const ExecContext &ctx) const = 0;
};

/** The registry: every implemented action by name. */
namespace RepairActionRegistry {
const RepairAction *find(const QString &name);
QStringList names();
} // namespace RepairActionRegistry

} // namespace MqttDoctor
