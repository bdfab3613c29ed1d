#include "repairplanner.h"

#include <QHash>
#include <QSet>

#include <algorithm>

#include "diagnosis/findingcodes.h"
#include "mqtt/layouts.h"
#include "repair/repairaction.h"

namespace MqttDoctor::RepairPlanner {

namespace RA = RepairActions;

int phaseOf(const QString &action)
{
    if (action == RA::resolveOverlap())
        return 1;
    if (action == RA::createStream())
        return 2;
    if (action == RA::updateStream() || action == RA::recreateStream() || action == RA::migrateRetained() || action == RA::republish()
        || action == RA::revertRetained())
        return 3;
    if (action == RA::migrateLegacySessions())
        return 4;
    return 5; // record-level: purge_session, delete_session, create_consumer, delete_consumer
}

namespace {

/** Steps that do the same thing to the same object are planned once. */
QString dedupeKey(const RepairStep &s)
{
    // One read-modify-write per stream covers every field that differs from the expected config.
    if (s.action == RA::updateStream())
        return s.action + u'|' + s.stream;
    return QStringList{s.action, s.stream, s.subject, s.consumer}.join(u'|');
}

const AccountInfo *findAccount(const DiagnosisInput &input, const QString &name)
{
    for (const AccountInfo &a : input.accounts)
        if (a.name == name)
            return &a;
    return nullptr;
}

/** One action's step, with its local id still to be remapped to a plan-wide one. */
struct Planned
{
    RepairStep step;
    int group = 0; // which plan() call produced it
    int order = 0; // position in the findings' order
};

/** A step's dependency by its local id: (group, local id). */
using LocalDep = QPair<int, QString>;

/** The steps of the findings' actions, in the findings' order, each planned once. */
struct Collected
{
    QList<Planned> planned;
    /** Dependencies of dropped duplicates, carried over to the step that was kept (by its order). */
    QHash<int, QList<LocalDep>> inheritedDeps;
};

/**
 * Each selected finding of the account into `out` (findings, unrepairable, notes) and its action's steps
 * into the result; a step that does the same as an earlier one (dedupeKey) is dropped, its dependencies
 * carried over to the one kept.
 */
Collected collectSteps(const QList<Finding> &findings, const PlanContext &ctx, const Options &options, RepairPlan &out)
{
    Collected c;
    QHash<QString, int> seen; // dedupe key -> index in planned
    int group = 0;
    for (const Finding &f : findings) {
        if (f.account != options.account)
            continue;
        if (!options.onlyCodes.isEmpty() && !options.onlyCodes.contains(f.code))
            continue;
        out.findings.append(f);
        if (f.repair.isEmpty()) {
            out.unrepairable.append(f);
            continue;
        }
        const RepairAction *action = RepairActionRegistry::find(f.repair);
        if (!action) {
            out.unrepairable.append(f);
            out.notes << QStringLiteral("%1 (%2): the repair action %3 is not available in this version; see the finding's guidance.")
                             .arg(f.code, f.title, f.repair);
            continue;
        }
        if (!ctx.account) {
            out.notes << QStringLiteral("%1: account %2 was not found in the gathered state.").arg(f.code, options.account);
            continue;
        }
        QString note;
        const QList<RepairStep> steps = action->plan(f, ctx, &note);
        if (!note.isEmpty())
            out.notes << note;
        ++group;
        for (RepairStep s : steps) {
            if (s.account.isEmpty())
                s.account = options.account;
            if (s.findingCode.isEmpty())
                s.findingCode = f.code;
            const QString key = dedupeKey(s);
            if (const auto kept = seen.constFind(key); kept != seen.cend()) {
                for (const QString &local : s.dependsOn)
                    c.inheritedDeps[c.planned.at(*kept).order].append({group, local});
                continue;
            }
            seen.insert(key, int(c.planned.size()));
            c.planned.append({s, group, int(c.planned.size())});
        }
    }
    return c;
}

/** A stream that is recreated needs no in-place update: its update_stream steps are dropped, with a note. */
void dropUpdatesOfRecreated(QList<Planned> &planned, QStringList &notes)
{
    QSet<QString> recreated;
    for (const Planned &p : planned)
        if (p.step.action == RA::recreateStream())
            recreated.insert(p.step.stream);
    planned.erase(std::remove_if(planned.begin(), planned.end(),
                                 [&](const Planned &p) {
                                     if (p.step.action != RA::updateStream() || !recreated.contains(p.step.stream))
                                         return false;
                                     notes << QStringLiteral(
                                                  "%1 is recreated with the expected config, so its in-place update is not needed.")
                                                  .arg(p.step.stream);
                                     return true;
                                 }),
                  planned.end());
}

/**
 * The steps (in phase order) with plan-wide ids, 1 up, and their dependencies as those ids: within a group
 * by their local ids (inherited ones included), and the steps of earlier phases they wait for.
 */
QList<RepairStep> numberAndLink(QList<Planned> planned, const QHash<int, QList<LocalDep>> &inheritedDeps)
{
    QHash<LocalDep, QString> localToGlobal;
    for (int i = 0; i < planned.size(); ++i) {
        const QString global = QString::number(i + 1);
        if (!planned[i].step.id.isEmpty())
            localToGlobal.insert({planned[i].group, planned[i].step.id}, global);
        planned[i].step.id = global;
    }
    QList<RepairStep> steps;
    for (Planned &p : planned) {
        QStringList deps;
        QList<LocalDep> locals;
        for (const QString &local : p.step.dependsOn)
            locals.append({p.group, local});
        locals += inheritedDeps.value(p.order);
        for (const auto &local : locals) {
            const QString g = localToGlobal.value(local);
            if (!g.isEmpty() && g != p.step.id && !deps.contains(g))
                deps << g;
        }
        const int phase = phaseOf(p.step.action);
        for (const Planned &earlier : planned) {
            if (earlier.step.id == p.step.id)
                break;
            const int earlierPhase = phaseOf(earlier.step.action);
            // Creations wait for every blocker to be out of the way; later steps wait for their stream's steps.
            const bool blocker = earlierPhase == 1 && phase == 2;
            const bool sameStream =
                earlierPhase < phase && earlierPhase <= 3 && !p.step.stream.isEmpty() && earlier.step.stream == p.step.stream;
            if ((blocker || sameStream) && !deps.contains(earlier.step.id))
                deps << earlier.step.id;
        }
        p.step.dependsOn = deps;
        steps.append(p.step);
    }
    return steps;
}

} // namespace

RepairPlan plan(const DiagnosisInput &input, const QList<Finding> &findings, const Options &options)
{
    RepairPlan out;
    out.account = options.account;
    PlanContext ctx;
    ctx.input = &input;
    ctx.account = findAccount(input, options.account);
    ctx.apiDomain = options.apiDomain;
    if (ctx.account)
        ctx.layout = Layouts::choose(input.servers, input.options.layout, ctx.account->streams);
    const auto sessions = input.sessions.constFind(options.account);
    if (sessions != input.sessions.cend())
        ctx.sessions = &sessions.value();

    Collected collected = collectSteps(findings, ctx, options, out);
    dropUpdatesOfRecreated(collected.planned, out.notes);
    std::stable_sort(collected.planned.begin(), collected.planned.end(), [](const Planned &a, const Planned &b) {
        const int pa = phaseOf(a.step.action);
        const int pb = phaseOf(b.step.action);
        return pa != pb ? pa < pb : a.order < b.order;
    });
    out.steps = numberAndLink(std::move(collected.planned), collected.inheritedDeps);
    return out;
}

} // namespace MqttDoctor::RepairPlanner
