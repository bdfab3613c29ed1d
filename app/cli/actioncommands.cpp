#include "actioncommands.h"
#include "interruptguard.h"
#include "jsoncontract.h"
#include "plantext.h"
#include "terminalprogress.h"

#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include "common/duration.h"
#include "common/jsonstreamwriter.h"
#include "nats/connectionset.h"
#include "repair/auditlog.h"
#include "repair/operator/operatorrun.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

using Verb = OperatorRequest::Verb;

/** How many requests of a step the text plan prints before "... and N more like these". */
constexpr int kRequestsShown = 4;
/** How many selected or left-alone objects the text prints before counting the rest. */
constexpr int kItemsShown = 20;

QString defaultBackupDir()
{
    return QFileInfo(AuditLog::defaultPath()).dir().filePath(QStringLiteral("backups"));
}

QString number(qint64 n)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(n);
}

/** "1 durable", "1,204 durables". */
QString counted(qint64 n, const char *one, const char *many)
{
    return number(n) + u' ' + QLatin1String(n == 1 ? one : many);
}

QString title(Verb verb)
{
    switch (verb) {
    case Verb::DeleteSessions: return QStringLiteral("Delete sessions");
    case Verb::Disconnect: return QStringLiteral("Disconnect clients");
    case Verb::ClearRetained: return QStringLiteral("Clear retained messages");
    case Verb::DropBacklog: return QStringLiteral("Drop queued messages");
    }
    return {};
}

QString itemName(const ActionSelection::Item &i)
{
    return i.topic.isEmpty() ? QStringLiteral("\"%1\"").arg(i.clientId) : i.topic;
}

void printPlan(QTextStream &out, const OperatorRun &run)
{
    const OperatorPlan &p = run.plan();
    out << title(run.request().verb) << " in account " << run.account();
    if (!p.path.isEmpty())
        out << " (" << p.path << ')';
    out << ":\n";
    out << "  selected: " << number(p.selection.selected.size()) << "; left alone: " << number(p.selection.left.size()) << '\n';
    for (qsizetype i = 0; i < p.selection.left.size() && i < kItemsShown; ++i)
        out << "    left alone: " << itemName(p.selection.left.at(i)) << ": " << p.selection.left.at(i).why << '\n';
    if (p.selection.left.size() > kItemsShown)
        out << "    ... and " << number(p.selection.left.size() - kItemsShown) << " more left alone (--json lists them all)\n";
    out << "  touches: " << p.counts.text() << '\n';
    if (p.plan.steps.isEmpty()) {
        out << "\nNothing to do.\n";
    } else {
        out << "\nPlan (" << p.plan.steps.size() << (p.plan.steps.size() == 1 ? " step" : " steps") << "):\n";
        for (const RepairStep &s : p.plan.steps) {
            out << "\n  " << s.id << ". " << s.description << (s.destructive ? "  [destructive: backed up first]" : "") << '\n';
            if (!s.dependsOn.isEmpty())
                out << "     after step " << s.dependsOn.join(QStringLiteral(", ")) << '\n';
            PlanText::printStepDetails(out, s, kRequestsShown);
        }
    }
    for (const QString &n : p.notes)
        out << "\n  Note: " << n << '\n';
}

bool confirm(QTextStream &out, const OperatorRun &run)
{
    return PlanText::confirm(out,
                             QStringLiteral("\n%1: apply these %2 steps to account %3 (%4)?")
                                 .arg(title(run.request().verb))
                                 .arg(run.plan().plan.steps.size())
                                 .arg(run.account(), run.plan().counts.text()));
}

/** "step 3 of 200: applied (1,500 of 100,000 sessions)" per finished step, on standard error. */
OperatorRun::EventHandler progressPrinter(QTextStream &err, const OperatorRun &run, TerminalProgress &bar)
{
    auto done = std::make_shared<int>(0);
    const int total = int(run.plan().plan.steps.size());
    return [&err, &bar, done, total](const RepairEvent &e) {
        if (e.kind == RepairEvent::Kind::StepStarted) {
            bar.update(QStringLiteral("step %1 of %2: %3").arg(*done + 1).arg(total).arg(e.step.description.left(100)));
            return;
        }
        if (e.kind != RepairEvent::Kind::StepFinished)
            return;
        ++*done;
        bar.clear();
        err << "step " << e.step.id << " (" << *done << " of " << total << "): " << StepOutcome::stateName(e.outcome.state)
            << (e.outcome.message.isEmpty() ? QString() : QStringLiteral(" (") + e.outcome.message + u')') << '\n';
        err.flush();
    };
}

void printResult(QTextStream &out, const OperatorRun &run)
{
    const RepairExecutor::Report &report = *run.report();
    qint64 deleted = 0, gone = 0, durables = 0, qos2 = 0, cleared = 0, dropped = 0, forgotten = -1;
    QList<QJsonObject> left;
    for (const StepOutcome &o : report.outcomes)
        for (const QJsonValue &v : o.responses) {
            const QJsonObject r = v.toObject();
            deleted += r.value(QLatin1String("deleted")).toInteger();
            gone += r.value(QLatin1String("already_gone")).toInteger();
            durables += r.value(QLatin1String("durables_deleted")).toInteger();
            qos2 += r.value(QLatin1String("qos2_deleted")).toInteger();
            cleared += r.value(QLatin1String("cleared")).toInteger();
            dropped += r.value(QLatin1String("dropped")).toInteger();
            if (r.contains(QLatin1String("forgotten_through_mqtt")))
                forgotten = std::max<qint64>(forgotten, 0) + r.value(QLatin1String("forgotten_through_mqtt")).toInteger();
            for (const QJsonValue &l : r.value(QLatin1String("left")).toArray())
                left << l.toObject();
        }
    out << '\n' << (report.complete ? "Done" : "Stopped") << ": ";
    switch (run.request().verb) {
    case Verb::DeleteSessions:
        out << counted(deleted, "session record", "session records") << ", " << counted(durables, "durable", "durables") << " and "
            << counted(qos2, "QoS 2 record", "QoS 2 records") << " deleted";
        if (gone > 0)
            out << "; " << number(gone) << " were gone already";
        break;
    case Verb::Disconnect: {
        int closed = 0;
        for (const StepOutcome &o : report.outcomes)
            closed += o.state == StepOutcome::State::Applied || o.state == StepOutcome::State::AlreadyDone ? 1 : 0;
        out << closed << " of " << counted(report.outcomes.size(), "connection", "connections") << " closed";
        break;
    }
    case Verb::ClearRetained: out << counted(cleared, "retained message", "retained messages") << " cleared"; break;
    case Verb::DropBacklog: out << counted(dropped, "queued message", "queued messages") << " dropped"; break;
    }
    out << ".\n";
    if (!report.complete)
        out << "  " << report.stoppedBecause << '\n';
    if (forgotten >= 0)
        out << "  " << number(forgotten) << " client IDs connected once with a clean session, so that no server keeps them in memory\n";
    for (qsizetype i = 0; i < left.size() && i < kItemsShown; ++i) {
        const QJsonObject &l = left.at(i);
        out << "  left alone: "
            << (l.contains(QLatin1String("topic")) ? l.value(QLatin1String("topic")).toString()
                                                   : QStringLiteral("\"%1\"").arg(l.value(QLatin1String("client_id")).toString()))
            << ": " << l.value(QLatin1String("why")).toString() << '\n';
    }
    if (left.size() > kItemsShown)
        out << "  ... and " << number(left.size() - kItemsShown) << " more left alone (--json lists them all)\n";
    for (const ClientReturn &r : run.returns()) {
        if (r.returned)
            out << "  \"" << r.clientId << "\" came back " << r.afterMs << " ms later, on " << r.server << " from " << r.address
                << " (a device with automatic reconnect does; stop the device or delete its credentials to keep it out)\n";
        else
            out << "  \"" << r.clientId << "\" did not come back within " << r.afterMs << " ms\n";
    }
    const int shownBackups = 10;
    for (qsizetype i = 0; i < report.backups.size() && i < shownBackups; ++i)
        out << "  backup: " << report.backups.at(i) << '\n';
    if (report.backups.size() > shownBackups)
        out << "  ... and " << report.backups.size() - shownBackups << " more backup files in the same folder\n";
    if (!run.journalPath().isEmpty())
        out << "  journal: " << run.journalPath()
            << (report.complete ? QString() : QStringLiteral("  (continue with --resume %1)").arg(run.journalPath())) << '\n';
}

/** The request from the command line; a usage error (exit 64) when it does not make one. */
std::optional<int> parseRequest(CliContext &ctx, Verb verb, OperatorRequest &req)
{
    req.verb = verb;
    req.account = ctx.parser.value(QStringLiteral("account"));
    const QStringList args = ctx.parser.positionalArguments().mid(1);
    if (verb == Verb::ClearRetained)
        req.topics = args;
    else
        req.clientIds = args;
    if (verb == Verb::DeleteSessions) {
        if (ctx.parser.isSet(QStringLiteral("not-seen-for"))) {
            const auto ms = parseAgeMs(ctx.parser.value(QStringLiteral("not-seen-for")));
            if (!ms || *ms <= 0)
                return ctx.usage(
                    QStringLiteral("--not-seen-for: \"%1\" is not a duration").arg(ctx.parser.value(QStringLiteral("not-seen-for"))),
                    QStringLiteral("e.g. 30d, 12h, 90m"));
            req.policy.notSeenForSecs = qint64(*ms / 1000);
        }
        req.policy.clientIdGlob = ctx.parser.value(QStringLiteral("client-id"));
        req.policy.noSubscriptions = ctx.parser.isSet(QStringLiteral("no-subscriptions"));
        if (ctx.parser.isSet(QStringLiteral("batch-size"))) {
            bool ok = false;
            req.batchSize = ctx.parser.value(QStringLiteral("batch-size")).toInt(&ok);
            if (!ok || req.batchSize < 1 || req.batchSize > 10000)
                return ctx.usage(QStringLiteral("--batch-size: \"%1\" is not a number from 1 to 10000")
                                     .arg(ctx.parser.value(QStringLiteral("batch-size"))));
        }
    }
    if (verb == Verb::DeleteSessions || verb == Verb::DropBacklog)
        req.disconnectFirst = ctx.parser.isSet(QStringLiteral("disconnect-first"));
    if (ctx.parser.isSet(QStringLiteral("resume")))
        return std::nullopt; // the journal holds the request
    if (auto v = req.validate(); !v)
        return ctx.usage(v.error().message(), v.error().hint());
    return std::nullopt;
}

int runAction(CliContext &ctx, Verb verb)
{
    OperatorRun::Options options;
    if (const auto rc = parseRequest(ctx, verb, options.request))
        return *rc;
    options.backupDir =
        ctx.parser.isSet(QStringLiteral("backup-dir")) ? ctx.parser.value(QStringLiteral("backup-dir")) : defaultBackupDir();
    if (verb == Verb::Disconnect && ctx.parser.isSet(QStringLiteral("wait"))) {
        bool ok = false;
        const double s = ctx.parser.value(QStringLiteral("wait")).toDouble(&ok);
        if (!ok || s < 0 || s > 600)
            return ctx.usage(
                QStringLiteral("--wait: \"%1\" is not a number of seconds from 0 to 600").arg(ctx.parser.value(QStringLiteral("wait"))));
        options.reconnectWaitMs = int(s * 1000);
    }
    const bool dryRun = ctx.parser.isSet(QStringLiteral("dry-run"));
    const bool yes = ctx.parser.isSet(QStringLiteral("yes"));
    const QString resume = ctx.parser.value(QStringLiteral("resume"));
    InterruptGuard interrupt;
    options.cancel = &InterruptGuard::flag();

    OperatorRun run(*ctx.connections, options);
    if (!resume.isEmpty()) {
        if (auto r = run.prepareResume(resume); !r)
            return ctx.fail(r.error());
        if (run.request().verb != verb)
            return ctx.usage(QStringLiteral("%1 is the journal of %2, not of %3")
                                 .arg(resume, OperatorRequest::commandName(run.request().verb), OperatorRequest::commandName(verb)));
    } else if (auto prepared = run.prepare(); !prepared) {
        return ctx.fail(prepared.error());
    }
    if (!ctx.json)
        printPlan(ctx.out, run);
    const auto finish = [&]() {
        if (ctx.json) {
            JsonStreamWriter w(ctx.out);
            run.writeJson(w, JsonContract::id(QStringLiteral("action")));
        } else if (run.report() && !dryRun)
            printResult(ctx.out, run);
        return run.exitCode();
    };
    if (run.plan().isEmpty())
        return finish();
    if (dryRun) {
        auto report = run.dryRun();
        if (!report)
            return ctx.fail(report.error());
        if (!ctx.json) {
            const int wouldRun = PlanText::stepsThatWouldRun(*report);
            ctx.out << "\nDry run: " << wouldRun << " of " << run.plan().plan.steps.size() << " steps would change something ("
                    << run.plan().counts.text() << "); nothing was changed.\n";
        }
        return finish();
    }
    if (run.blocked())
        return ctx.fail(*run.blocked());
    if (!yes && (!isatty(STDIN_FILENO) || ctx.json))
        return ctx.fail(Error(Error::Kind::InvalidInput, QStringLiteral("not applying the plan without confirmation"),
                              QStringLiteral("review it (--dry-run), then run again with --yes")));
    if (!yes && !confirm(ctx.out, run)) {
        ctx.out << "Nothing was changed.\n";
        return 0;
    }
    TerminalProgress bar(ctx.err);
    auto ran = run.run(ctx.json ? OperatorRun::EventHandler() : progressPrinter(ctx.err, run, bar));
    bar.clear();
    if (!ran)
        return ctx.fail(ran.error());
    return finish();
}

QCommandLineOption accountOption()
{
    return QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                              QStringLiteral("name"));
}

QList<QCommandLineOption> changeOptions()
{
    return {
        QCommandLineOption(QStringLiteral("dry-run"), QStringLiteral("Show the plan and check each step's precondition; change nothing.")),
        QCommandLineOption(QStringLiteral("yes"), QStringLiteral("Apply without asking (required without a terminal).")),
        QCommandLineOption(QStringLiteral("backup-dir"), QStringLiteral("Where backups and the run's journal go."), QStringLiteral("dir"),
                           defaultBackupDir()),
        QCommandLineOption(QStringLiteral("resume"),
                           QStringLiteral("Continue the run this journal describes (a cancelled or killed run): the steps not done."),
                           QStringLiteral("journal"))};
}

Command actionCommand(Verb verb, const QString &summary, const QList<QCommandLineOption> &own, const CommandArgument &argument)
{
    Command c{OperatorRequest::commandName(verb), summary, QList<QCommandLineOption>{accountOption()} + own + changeOptions(),
              [verb](CliContext &ctx) { return runAction(ctx, verb); }};
    c.arguments = {argument};
    c.longRunning = true;
    c.account = AccountUse::One;
    c.needsAccountCredentials = true; // only the account's own connection may change its streams
    return c;
}

} // namespace

QList<Command> actionCommands()
{
    const QCommandLineOption disconnectFirst(QStringLiteral("disconnect-first"),
                                             QStringLiteral("Disconnect a connected client first (where the server can) instead of "
                                                            "leaving its session alone."));
    Command deleteSessions = actionCommand(
        Verb::DeleteSessions,
        QStringLiteral("Delete MQTT sessions (record, durables, PUBREL consumer, QoS 2 records), backed up, by client ID or policy."),
        {QCommandLineOption(QStringLiteral("not-seen-for"),
                            QStringLiteral("Sessions not connected and not written for this long (30d, 12h)."), QStringLiteral("duration")),
         QCommandLineOption(QStringLiteral("client-id"), QStringLiteral("Sessions whose client ID matches this glob (sensor-*)."),
                            QStringLiteral("glob")),
         QCommandLineOption(QStringLiteral("no-subscriptions"), QStringLiteral("Sessions without any subscription.")), disconnectFirst,
         QCommandLineOption(QStringLiteral("batch-size"), QStringLiteral("Sessions per step (default 500)."), QStringLiteral("n"))},
        {QStringLiteral("CLIENT_ID"), QStringLiteral("The MQTT client IDs whose sessions to delete (or a policy option)."), true, true});
    Command disconnect = actionCommand(
        Verb::Disconnect,
        QStringLiteral("Disconnect MQTT clients by client ID (the server's kick request) and show whether they came back."),
        {QCommandLineOption(QStringLiteral("wait"), QStringLiteral("How long to watch for the client coming back (default 3)."),
                            QStringLiteral("seconds"))},
        {QStringLiteral("CLIENT_ID"), QStringLiteral("The MQTT client IDs to disconnect."), false, true});
    Command clearRetained = actionCommand(
        Verb::ClearRetained, QStringLiteral("Clear retained messages by topic or MQTT filter (sensors/+/temp), backed up."), {},
        {QStringLiteral("TOPIC"), QStringLiteral("MQTT topics or filters whose retained messages to clear."), false, true});
    Command dropBacklog = actionCommand(
        Verb::DropBacklog,
        QStringLiteral("Drop the queued QoS 1/2 messages only these sessions wait for (other sessions keep theirs), backed up."),
        {disconnectFirst},
        {QStringLiteral("CLIENT_ID"), QStringLiteral("The MQTT client IDs whose queued messages to drop."), false, true});
    return {deleteSessions, disconnect, clearRetained, dropBacklog};
}

} // namespace MqttDoctor::Cli
