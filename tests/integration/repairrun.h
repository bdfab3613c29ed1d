#pragma once
// check → plan → run in-process, as `repair --yes` does, so a test can inject a fault between a step's backup and
// its change (RepairExecutor::Options::beforeApply). Shared by the repair fault and load-fault tests.

#include <functional>

#include "livecheck.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "nats/connectionset.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
#include "repair/repairtarget.h"

namespace MqttDoctor::Test::LiveCheck {

struct Outcome
{
    QString error; ///< could not plan or run
    RepairPlan plan;
    RepairExecutor::Report report;
};

/** check → plan → run, as `repair --yes` does, in-process (so a test can inject a fault). */
inline Outcome repairOnce(const QString &url, const QString &backupDir, const QString &auditPath,
                          const std::function<void(const RepairStep &, const QStringList &)> &beforeApply = {},
                          bool systemConnection = false)
{
    Outcome out;
    Profile profile = acmeProfile(url, true);
    if (systemConnection) { // the connected clients (CONNZ) for the findings that depend on them
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = QStringLiteral("sys");
        profile.system.password = QStringLiteral("syspass");
    }
    profile.servers = url.split(QLatin1Char(','), Qt::SkipEmptyParts); // a cluster's URLs, comma-separated
    ConnectionSet connections(profile);
    auto target = RepairTarget::resolve(connections, QStringLiteral("ACME"));
    if (!target) {
        out.error = target.error().toString();
        return out;
    }
    DiagnosisGatherer::Request request;
    request.account = QStringLiteral("ACME");
    auto input = DiagnosisGatherer::gather(connections, request);
    if (!input) {
        out.error = input.error().toString();
        return out;
    }
    RepairPlanner::Options po;
    po.account = QStringLiteral("ACME");
    out.plan = RepairPlanner::plan(*input, Checks::diagnose(*input), po);
    RepairExecutor::Options eo;
    eo.backupDir = backupDir;
    eo.auditPath = auditPath;
    eo.beforeApply = beforeApply;
    auto report = RepairExecutor::run(*target, out.plan, eo);
    if (!report)
        out.error = report.error().toString();
    else
        out.report = *report;
    return out;
}

inline QString describeOutcome(const Outcome &o)
{
    QStringList lines{o.error, o.report.stoppedBecause};
    for (const RepairStep &s : o.plan.steps)
        lines << QStringLiteral("%1 %2 %3").arg(s.id, s.action, s.description);
    for (const StepOutcome &so : o.report.outcomes)
        lines << QStringLiteral("%1: %2 %3").arg(so.stepId, StepOutcome::stateName(so.state), so.message);
    return lines.join(u'\n');
}

} // namespace MqttDoctor::Test::LiveCheck
