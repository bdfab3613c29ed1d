#include "repaircommand.h"
#include "jsoncontract.h"
#include "plantext.h"
#include "probetext.h"
#include "thresholdoptions.h"

#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>

#include "accountchoice.h"
#include "common/duration.h"
#include "diagnosis/findingcatalogue.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairsession.h"
#include "repair/repairtarget.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

QString defaultBackupDir()
{
    return QFileInfo(AuditLog::defaultPath()).dir().filePath(QStringLiteral("backups"));
}

void printPlan(QTextStream &out, const RepairPlan &plan)
{
    if (plan.steps.isEmpty()) {
        out << "Nothing to repair in account " << plan.account << ".\n";
    } else {
        out << "Repair plan for account " << plan.account << " (" << plan.steps.size() << (plan.steps.size() == 1 ? " step" : " steps")
            << "):\n";
        for (const RepairStep &s : plan.steps) {
            out << "\n  " << s.id << ". " << s.description << (s.destructive ? "  [destructive: backed up first]" : "") << '\n';
            out << "     fixes: " << s.findingCode << "   action: " << s.action << '\n';
            if (!s.dependsOn.isEmpty())
                out << "     after step " << s.dependsOn.join(QStringLiteral(", ")) << '\n';
            if (!s.diff.isEmpty())
                for (const QString &line : s.diff.split(u'\n', Qt::SkipEmptyParts))
                    out << "     " << line << '\n';
            PlanText::printStepDetails(out, s);
        }
    }
    for (const Finding &f : plan.unrepairable) {
        const auto *entry = FindingCatalogue::entry(f.code);
        out << "\n  Not repaired automatically: " << f.code << "  " << f.title << '\n'
            << "     " << (entry ? entry->guidance : f.detail.toString()) << '\n';
    }
    for (const QString &n : plan.notes)
        out << "\n  Note: " << n << '\n';
}

bool confirm(QTextStream &out, const RepairPlan &plan)
{
    return PlanText::confirm(out, QStringLiteral("\nApply these %1 steps to account %2?").arg(plan.steps.size()).arg(plan.account));
}

/** Per-step progress on standard error: "step N: ..." as each step starts and ends, "round N: ..." between rounds. */
RepairSession::EventHandler progressPrinter(QTextStream &err)
{
    return [&err](const RepairEvent &e) {
        switch (e.kind) {
        case RepairEvent::Kind::RoundStarted:
            if (e.round > 1)
                err << "round " << e.round << ": " << e.steps << (e.steps == 1 ? " step" : " steps") << '\n';
            break;
        case RepairEvent::Kind::StepStarted: err << "step " << e.step.id << ": " << e.step.description << " ...\n"; break;
        case RepairEvent::Kind::BackupWritten: err << "step " << e.step.id << ": backup written: " << e.backupFile << '\n'; break;
        case RepairEvent::Kind::StepFinished:
            err << "step " << e.step.id << ": " << StepOutcome::stateName(e.outcome.state)
                << (e.outcome.message.isEmpty() ? QString() : QStringLiteral(" (") + e.outcome.message + u')') << '\n';
            break;
        case RepairEvent::Kind::RoundFinished: err << e.text << '\n'; break;
        case RepairEvent::Kind::Done: break;
        }
        err.flush();
    };
}

void printRoundResult(QTextStream &out, const RepairRound &round)
{
    out << '\n'
        << "Round " << round.number << (round.report.complete ? ": every step done." : ": stopped: ")
        << (round.report.complete ? QString() : round.report.stoppedBecause) << '\n';
    for (const Finding &f : round.fixed)
        out << "  fixed:     " << f.code << "  " << f.title << '\n';
}

void printSummary(QTextStream &out, const RepairSession &session)
{
    const QList<RepairRound> &rounds = session.rounds();
    const RepairExecutor::Report report = session.wholeReport();
    const bool complete = !rounds.isEmpty() && report.complete;
    out << '\n'
        << (complete ? "Repair complete" : "Repair stopped") << " after " << rounds.size()
        << (rounds.size() == 1 ? " round: " : " rounds: ") << session.stopText() << ".\n";
    for (const QString &b : report.backups)
        out << "  backup: " << b << '\n';
    if (!session.lastCheckSucceeded())
        out << "Could not check again: " << (rounds.last().recheckError ? rounds.last().recheckError->toString() : QString()) << '\n';
    for (const Finding &f : session.fixed())
        out << "  fixed:     " << f.code << "  " << f.title << '\n';
    const QList<Finding> remaining = session.remaining();
    for (const Finding &f : remaining)
        out << "  remaining: " << Finding::severityName(f.severity) << ' ' << f.code << "  " << f.title << '\n';
    const QList<Finding> notSelected = session.notSelected();
    for (const Finding &f : notSelected)
        out << "  not selected: " << Finding::severityName(f.severity) << ' ' << f.code << "  " << f.title << '\n';
    if (!notSelected.isEmpty())
        out << (session.onlyCodes().isEmpty() ? "  (may be deliberate: repaired only when named with --finding CODE)\n"
                                              : "  (outside --finding: left alone; run repair without --finding to include them)\n");
    const QList<CoverageGap> gaps = session.remainingGaps();
    for (const CoverageGap &g : gaps)
        out << "  not checked: " << g.text() << '\n';
    const std::optional<MqttProbeResult> &probe = session.probe();
    if (probe)
        printProbes(out, {*probe});
    if (session.lastCheckSucceeded() && remaining.isEmpty() && notSelected.isEmpty()) {
        if (probe && !probe->verified())
            out << "No finding in the streams, but a real MQTT client does not see a working service (above).\n";
        else if (CoverageGap::anyLeavesVerdictOpen(gaps))
            out << "No finding in what the check could look at (see above).\n";
        else
            out << (probe ? "Check is clean, and MQTT delivery is verified.\n"
                          : "Check is clean. (MQTT delivery not verified: give the account's MQTT user with --mqtt-user, or "
                            "mqtt_probe in the profile, to have a real client confirm it.)\n");
    }
}

int runRepair(CliContext &ctx)
{
    RepairSession::Options options;
    options.account = ctx.parser.value(QStringLiteral("account"));
    options.onlyCodes = ctx.parser.values(QStringLiteral("finding"));
    for (const QString &c : std::as_const(options.onlyCodes))
        if (!FindingCatalogue::entry(c))
            return ctx.usage(QStringLiteral("unknown finding code \"%1\"").arg(c),
                             QStringLiteral("codes: ") + FindingCatalogue::codes().join(QStringLiteral(", ")));
    if (const auto rc = parseThresholdOptions(ctx, options.checkOptions))
        return *rc;
    options.backupDir =
        ctx.parser.isSet(QStringLiteral("backup-dir")) ? ctx.parser.value(QStringLiteral("backup-dir")) : defaultBackupDir();
    const bool dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    const bool yes = ctx.parser.isSet(QStringLiteral("yes"));

    // Where changes go: the account's own connection (only it may change streams). Refused before anything is read.
    auto target = AccountChoice::repairTarget(*ctx.connections, options.account);
    if (!target)
        return ctx.fail(target.error());
    if (options.account.isEmpty())
        options.account = target->account;
    if (!dryRun)
        if (auto writable = target->checkWritable(QStringLiteral("repair")); !writable)
            return ctx.fail(writable.error());

    RepairSession session(*ctx.connections, options);
    if (auto checked = session.check(); !checked)
        return ctx.fail(checked.error());
    session.planFirstRound();
    if (!ctx.json)
        printPlan(ctx.out, session.pendingPlan());
    const auto finish = [&]() {
        if (ctx.json)
            printJson(ctx.out, JsonContract::stamped(QStringLiteral("repair"), session.toJson()));
        else if (!session.rounds().isEmpty())
            printSummary(ctx.out, session);
        return session.exitCode();
    };
    // Nothing to apply is not "clean": what the plan was made from still stands (exit as check would).
    if (!session.hasPendingRound())
        return finish();

    if (dryRun) {
        auto report = session.dryRun();
        if (!report)
            return ctx.fail(report.error());
        if (!ctx.json) {
            const int wouldRun = PlanText::stepsThatWouldRun(*report);
            ctx.out << "\nDry run: " << wouldRun << " of " << session.pendingPlan().steps.size()
                    << " steps would change something; nothing was changed.\n";
        }
        return finish();
    }

    const bool ask = !yes;
    if (ask && (!isatty(STDIN_FILENO) || ctx.json))
        return ctx.fail(Error(Error::Kind::InvalidInput, QStringLiteral("not applying the plan without confirmation"),
                              QStringLiteral("review it (--dry-run), then run again with --yes")));
    if (ask && !confirm(ctx.out, session.pendingPlan())) {
        session.decline();
        ctx.out << "Nothing was changed.\n";
        return session.exitCode();
    }

    const RepairSession::EventHandler progress = progressPrinter(ctx.err);
    while (session.hasPendingRound()) {
        if (auto ran = session.runRound(progress); !ran)
            return ctx.fail(ran.error());
        if (ctx.json)
            continue;
        printRoundResult(ctx.out, session.rounds().last());
        if (!session.hasPendingRound())
            break;
        // The round made new findings visible (e.g. durables whose session records went with a deleted stream).
        ctx.out << "\nThe check after round " << session.rounds().last().number << " found problems the repair uncovered. Round "
                << session.pendingRound() << ":\n";
        printPlan(ctx.out, session.pendingPlan());
        if (ask && !confirm(ctx.out, session.pendingPlan())) {
            session.decline();
            break;
        }
        if (!ask)
            ctx.out << "\nApplying round " << session.pendingRound() << " (--yes covers every round of this run).\n";
    }
    return finish();
}

} // namespace

QList<Command> repairCommands()
{
    Command repair{QStringLiteral("repair"),
                   QStringLiteral("Plan, back up, apply and verify the repairs of an account's findings."),
                   {QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                                       QStringLiteral("name")),
                    QCommandLineOption(QStringLiteral("finding"), QStringLiteral("Only repair findings with this code (repeatable)."),
                                       QStringLiteral("code")),
                    QCommandLineOption(QStringLiteral("dry-run"),
                                       QStringLiteral("Show the plan and check each step's precondition; change nothing (exit 1 when "
                                                      "something would change).")),
                    QCommandLineOption(QStringLiteral("yes"), QStringLiteral("Apply without asking (required without a terminal).")),
                    QCommandLineOption(QStringLiteral("backup-dir"), QStringLiteral("Where backups go before destructive steps."),
                                       QStringLiteral("dir"), defaultBackupDir()),
                    QCommandLineOption(QStringLiteral("stale-after"), QStringLiteral("SESSION_STALE threshold, as for check."),
                                       QStringLiteral("duration"), QStringLiteral("30d")),
                    QCommandLineOption(QStringLiteral("client-id"), QStringLiteral("A known client ID, as for check (repeatable)."),
                                       QStringLiteral("id")),
                    QCommandLineOption(QStringLiteral("pinned-warn-at"), QStringLiteral("INTEREST_PINNED threshold, as for check."),
                                       QStringLiteral("messages"), QStringLiteral("10000"))},
                   runRepair};
    repair.longRunning = true;
    repair.account = AccountUse::One;
    repair.needsAccountCredentials = true; // only the account's own connection may change its streams
    return {repair};
}

} // namespace MqttDoctor::Cli
