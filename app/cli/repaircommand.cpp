#include "repaircommand.h"

#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QStandardPaths>

#include <cstdio>

#include "accountchoice.h"
#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisgatherer.h"
#include "diagnosis/findingcatalogue.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/repairexecutor.h"
#include "repair/repairplanner.h"
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
            for (const RepairRequest &r : s.requests)
                out << "     request: " << r.subject
                    << (r.body.isEmpty() ? QString() : u' ' + QString::fromUtf8(QJsonDocument(r.body).toJson(QJsonDocument::Compact))) << '\n';
            for (const RepairBackupSpec &b : s.backups)
                out << "     backup:  " << b.stream << (b.subject.isEmpty() ? QString() : u' ' + b.subject)
                    << (b.includeMessages ? "" : " (configs only)") << '\n';
            if (!s.precondition.isEmpty())
                out << "     checks first: " << s.precondition << '\n';
            if (!s.verification.isEmpty())
                out << "     verifies: " << s.verification << '\n';
            if (!s.undo.isEmpty())
                out << "     undo: " << s.undo << '\n';
        }
    }
    for (const Finding &f : plan.unrepairable) {
        const auto *entry = FindingCatalogue::entry(f.code);
        out << "\n  Not repaired automatically: " << f.code << "  " << f.title << '\n'
            << "     " << (entry ? entry->guidance : f.detail) << '\n';
    }
    for (const QString &n : plan.notes)
        out << "\n  Note: " << n << '\n';
}

bool confirm(QTextStream &out, const RepairPlan &plan)
{
    out << "\nApply these " << plan.steps.size() << " steps to account " << plan.account << "? [y/N] ";
    out.flush();
    char line[64] = {};
    if (!std::fgets(line, sizeof line, stdin))
        return false;
    const QString answer = QString::fromLatin1(line).trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes");
}

int runRepair(CliContext &ctx)
{
    DiagnosisGatherer::Request request;
    request.account = ctx.parser.value(QStringLiteral("account"));
    const QStringList codes = ctx.parser.values(QStringLiteral("finding"));
    for (const QString &c : codes)
        if (!FindingCatalogue::entry(c))
            return ctx.usage(QStringLiteral("unknown finding code \"%1\"").arg(c),
                             QStringLiteral("codes: ") + FindingCatalogue::codes().join(QStringLiteral(", ")));
    if (ctx.parser.isSet(QStringLiteral("stale-after"))) {
        const QString text = ctx.parser.value(QStringLiteral("stale-after"));
        const auto ms = parseAgeMs(text);
        if (!ms || *ms < 1000)
            return ctx.usage(QStringLiteral("--stale-after must be a duration of at least 1s, not \"%1\"").arg(text),
                             QStringLiteral("for example 30d, 12h or 90m"));
        request.options.staleAfterSecs = qint64(*ms / 1000);
    }
    request.options.knownClientIds = ctx.parser.values(QStringLiteral("client-id"));
    const bool dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    const bool yes = ctx.parser.isSet(QStringLiteral("yes"));
    const QString backupDir = ctx.parser.isSet(QStringLiteral("backup-dir")) ? ctx.parser.value(QStringLiteral("backup-dir")) : defaultBackupDir();

    // Where changes go: the account's own connection (only it may change streams).
    auto target = AccountChoice::repairTarget(*ctx.connections, request.account);
    if (!target)
        return ctx.fail(target.error());
    if (request.account.isEmpty())
        request.account = target->account;
    if (!dryRun)
        if (auto writable = target->checkWritable(QStringLiteral("repair")); !writable)
            return ctx.fail(writable.error());

    auto input = DiagnosisGatherer::gather(*ctx.connections, request);
    if (!input)
        return ctx.fail(input.error());
    const QList<Finding> before = Checks::diagnose(*input);
    RepairPlanner::Options po;
    po.account = request.account.isEmpty() && !input->accounts.isEmpty() ? input->accounts.first().name : request.account;
    po.onlyCodes = codes;
    po.apiDomain = target->apiDomain;
    const RepairPlan plan = RepairPlanner::plan(*input, before, po);

    if (!ctx.json)
        printPlan(ctx.out, plan);
    const auto jsonResult = [&](const QJsonValue &applied, const QJsonArray &backups, const QList<Finding> &remaining,
                                const QJsonArray &fixed) {
        QJsonArray rem;
        for (const Finding &f : remaining)
            rem.append(f.toJson());
        printJson(ctx.out, QJsonObject{{QStringLiteral("plan"), plan.toJson()},
                                       {QStringLiteral("applied"), applied},
                                       {QStringLiteral("backups"), backups},
                                       {QStringLiteral("fixed"), fixed},
                                       {QStringLiteral("remaining"), rem},
                                       {QStringLiteral("dry_run"), dryRun}});
    };
    if (plan.steps.isEmpty()) {
        // Nothing to apply is not "clean": what the plan was made from still stands (exit as check would).
        if (ctx.json)
            jsonResult(QJsonValue(QJsonValue::Null), {}, plan.findings, {});
        return Checks::exitCodeFor(plan.findings);
    }

    RepairExecutor::Options eo;
    eo.backupDir = backupDir;
    eo.dryRun = dryRun;
    if (dryRun) {
        auto report = RepairExecutor::run(*target, plan, eo);
        if (!report)
            return ctx.fail(report.error());
        int wouldRun = 0;
        for (const StepOutcome &o : report->outcomes)
            wouldRun += o.state == StepOutcome::State::NotRun ? 1 : 0;
        if (ctx.json)
            jsonResult(report->toJson(), {}, plan.findings, {});
        else
            ctx.out << "\nDry run: " << wouldRun << " of " << plan.steps.size() << " steps would change something; nothing was changed.\n";
        return wouldRun > 0 ? ExitWarnings : ExitOk;
    }

    if (!yes) {
        if (!isatty(STDIN_FILENO) || ctx.json)
            return ctx.fail(Error(Error::Kind::InvalidInput, QStringLiteral("not applying the plan without confirmation"),
                                  QStringLiteral("review it (--dry-run), then run again with --yes")));
        if (!confirm(ctx.out, plan)) {
            ctx.out << "Nothing was changed.\n";
            return ExitWarnings;
        }
    }

    eo.progress = [&ctx](const RepairStep &step, const StepOutcome &o) {
        if (o.message == QLatin1String("starting"))
            ctx.err << "step " << step.id << ": " << step.description << " ...\n";
        else
            ctx.err << "step " << step.id << ": " << StepOutcome::stateName(o.state) << (o.message.isEmpty() ? QString() : QStringLiteral(" (") + o.message + u')')
                    << '\n';
        ctx.err.flush();
    };
    auto report = RepairExecutor::run(*target, plan, eo);
    if (!report)
        return ctx.fail(report.error());

    // Safety rule 6: check again and say what is fixed and what remains.
    QList<Finding> remaining;
    QJsonArray fixed;
    QStringList fixedText;
    auto after = DiagnosisGatherer::gather(*ctx.connections, request);
    QSet<QString> afterKeys;
    if (after) {
        for (const Finding &f : Checks::diagnose(*after)) {
            if (f.account != po.account && !f.account.isEmpty())
                continue;
            if (!codes.isEmpty() && !codes.contains(f.code))
                continue;
            remaining.append(f);
            afterKeys.insert(f.identity());
        }
        for (const Finding &f : plan.findings)
            if (!afterKeys.contains(f.identity())) {
                fixed.append(f.toJson());
                fixedText << QStringLiteral("%1 %2").arg(f.code, f.title);
            }
    }

    if (ctx.json) {
        jsonResult(report->toJson(), QJsonArray::fromStringList(report->backups), remaining, fixed);
    } else {
        ctx.out << '\n' << (report->complete ? "Repair complete." : "Repair stopped: ") << (report->complete ? QString() : report->stoppedBecause) << '\n';
        for (const QString &b : report->backups)
            ctx.out << "  backup: " << b << '\n';
        if (!after)
            ctx.out << "Could not check again: " << after.error().toString() << '\n';
        for (const QString &f : fixedText)
            ctx.out << "  fixed:     " << f << '\n';
        for (const Finding &f : remaining)
            ctx.out << "  remaining: " << Finding::severityName(f.severity) << ' ' << f.code << "  " << f.title << '\n';
        if (after && remaining.isEmpty())
            ctx.out << "Check is clean.\n";
    }
    if (!report->complete || !after)
        return ExitErrors;
    return Checks::exitCodeFor(remaining);
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
                                       QStringLiteral("id"))},
                   runRepair};
    repair.longRunning = true;
    repair.account = AccountUse::One;
    repair.needsAccountCredentials = true;  // only the account's own connection may change its streams
    return {repair};
}

} // namespace MqttDoctor::Cli
