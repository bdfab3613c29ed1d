#include "checkwatch.h"

#include "checkhistory.h"
#include "jsoncontract.h"

#include <thread>

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/coveragegap.h"
#include "interruptguard.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

/** One check's outcome: its findings by identity, what it could not look at, or why it failed. */
struct State
{
    QList<Finding> findings;
    QSet<QString> identities;
    QStringList gaps; ///< CoverageGap::text() of the gaps that leave the verdict open
    QList<CoverageGap> gapList;
    std::optional<Error> error;
    int exitCode = ExitOk;
    /** The accounts' samples, which the next round's two-sample checks compare with. */
    QHash<QString, AccountSample> samples;
};

State checkOnce(CliContext &ctx, const DiagnosisGatherer::Request &request)
{
    State s;
    auto input = DiagnosisGatherer::gather(*ctx.connections, request);
    if (!input) {
        s.error = input.error();
        s.exitCode = exitCodeFor(*s.error);
        return s;
    }
    s.findings = Checks::diagnose(*input);
    s.samples = DiagnosisGatherer::samplesOf(*input);
    for (const Finding &f : s.findings)
        s.identities.insert(f.identity());
    for (const CoverageGap &g : input->gaps)
        if (g.leavesVerdictOpen()) {
            s.gaps << g.text();
            s.gapList << g;
        }
    s.exitCode = Checks::exitCodeFor(s.findings);
    if (!s.gaps.isEmpty() && s.exitCode != ExitErrors)
        s.exitCode = ExitCouldNotCheck;
    if (CheckHistory::wanted(ctx))
        static_cast<void>(CheckHistory::record(ctx, *input, s.findings, s.exitCode));
    return s;
}

QString findingLine(const Finding &f)
{
    QStringList where{f.account};
    if (!f.stream.isEmpty())
        where << f.stream;
    if (!f.clientId.isEmpty())
        where << QStringLiteral("client %1").arg(f.clientId);
    return QStringLiteral("%1 %2  %3  %4").arg(Finding::severityName(f.severity), f.code, where.join(QStringLiteral(" · ")), f.title);
}

} // namespace

int runCheckWatch(CliContext &ctx, const DiagnosisGatherer::Request &request, qint64 intervalMs)
{
    const InterruptGuard interrupt;
    if (!ctx.json) {
        ctx.err << "Checking every " << formatAge(std::max<qint64>(1, intervalMs / 1000)) << "; only changes are printed. Ctrl-C ends.\n";
        ctx.err.flush();
    }
    std::optional<State> last;
    // Each round compares with the one before (CONSUMER_STUCK's deliveries, JETSTREAM_API_ERRORS).
    DiagnosisGatherer::Request round = request;
    while (!interrupt.raised()) {
        QElapsedTimer took;
        took.start();
        State now = checkOnce(ctx, round);
        if (!now.error)
            round.previousSamples = now.samples;
        const QString stamp = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        QList<Finding> added;
        QList<Finding> resolved;
        for (const Finding &f : now.findings)
            if (!last || !last->identities.contains(f.identity()))
                added << f;
        if (last && !now.error)
            for (const Finding &f : last->findings)
                if (!now.identities.contains(f.identity()))
                    resolved << f;
        const bool gapsChanged = !last || last->gaps != now.gaps;
        const bool errorChanged = !last || last->error.has_value() != now.error.has_value()
            || (now.error && last->error && now.error->toString() != last->error->toString());
        // A failed check says nothing about the findings: they are neither new nor resolved.
        if (now.error) {
            added.clear();
            now.findings = last ? last->findings : QList<Finding>();
            now.identities = last ? last->identities : QSet<QString>();
        }
        const bool changed = !added.isEmpty() || !resolved.isEmpty() || (gapsChanged && !now.error) || errorChanged;
        if (changed) {
            if (ctx.json) {
                QJsonObject o{{QStringLiteral("time"), stamp},
                              {QStringLiteral("exit_code"), now.exitCode},
                              {QStringLiteral("findings"), int(now.findings.size())}};
                QJsonArray a, r, g;
                for (const Finding &f : added)
                    a.append(f.toJson());
                for (const Finding &f : resolved)
                    r.append(f.toJson());
                for (const CoverageGap &gap : now.gapList)
                    g.append(gap.toJson());
                o.insert(QStringLiteral("new"), a);
                o.insert(QStringLiteral("resolved"), r);
                o.insert(QStringLiteral("not_checked"), g);
                if (now.error)
                    o.insert(QStringLiteral("error"), errorJson(*now.error));
                printJsonLine(ctx.out, JsonContract::stamped(QStringLiteral("check-watch"), o));
            } else {
                const QString time = QDateTime::currentDateTime().toString(QStringLiteral("HH:mm:ss"));
                if (now.error) {
                    ctx.out << time << "  could not check: " << now.error->toString() << '\n';
                } else {
                    if (!last)
                        ctx.out << time << "  " << now.findings.size() << (now.findings.size() == 1 ? " finding" : " findings") << " (exit "
                                << now.exitCode << ")\n";
                    for (const Finding &f : added)
                        ctx.out << time << "  + " << findingLine(f) << '\n';
                    for (const Finding &f : resolved)
                        ctx.out << time << "  - " << findingLine(f) << "  (resolved)\n";
                    if (gapsChanged)
                        for (const QString &g : now.gaps)
                            ctx.out << time << "  not checked: " << g << '\n';
                    if (gapsChanged && now.gaps.isEmpty() && last && !last->gaps.isEmpty())
                        ctx.out << time << "  everything could be checked again\n";
                    if (last && (added.size() + resolved.size()) > 0)
                        ctx.out << time << "  now " << now.findings.size() << (now.findings.size() == 1 ? " finding" : " findings")
                                << " (exit " << now.exitCode << ")\n";
                }
                ctx.out.flush();
            }
        }
        last = std::move(now);
        // Wait out the interval from the start of this check, noticing Ctrl-C within 100 ms.
        while (!interrupt.raised() && took.elapsed() < intervalMs)
            std::this_thread::sleep_for(std::chrono::milliseconds(std::min<qint64>(100, intervalMs - took.elapsed())));
    }
    if (!ctx.json) {
        ctx.out << "Stopped; the last check's exit code: " << (last ? last->exitCode : ExitOk) << ".\n";
        ctx.out.flush();
    }
    return last ? last->exitCode : ExitOk;
}

} // namespace MqttDoctor::Cli
