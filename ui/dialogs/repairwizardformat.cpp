#include "repairwizardformat.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include "diagnosis/findingcatalogue.h"
#include "models/displayformat.h"

namespace MqttDoctor::RepairWizardFormat {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("RepairWizard", text);
}

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

/** Monospace block that wraps long JSON instead of scrolling sideways. */
QString pre(const QString &html)
{
    return QStringLiteral("<pre style=\"white-space: pre-wrap; margin: 2px 0 2px 16px;\">%1</pre>").arg(html);
}

QString diffHtml(const QString &diff)
{
    QStringList lines;
    for (const QString &line : diff.split(u'\n', Qt::SkipEmptyParts)) {
        if (line.startsWith(u'-'))
            lines << QStringLiteral("<span style=\"color:#a31f1f;\">%1</span>").arg(esc(line));
        else if (line.startsWith(u'+'))
            lines << QStringLiteral("<span style=\"color:#1b6e3a;\">%1</span>").arg(esc(line));
        else
            lines << esc(line);
    }
    return pre(lines.join(u'\n'));
}

QString row(const QString &label, const QString &valueHtml)
{
    return QStringLiteral("<tr><td style=\"padding-right:10px; color:#555;\"><nobr>%1</nobr></td><td>%2</td></tr>")
        .arg(esc(label), valueHtml);
}

QString findingLine(const Finding &f)
{
    const QString object = DisplayFormat::findingWhere(f);
    return QStringLiteral("<b>%1</b> %2%3")
        .arg(esc(f.code), esc(f.title),
             object.isEmpty() ? QString() : QStringLiteral(" <span style=\"color:#555;\">(%1)</span>").arg(esc(object)));
}

} // namespace

QString blockedText(const std::optional<Error> &blocked)
{
    if (!blocked)
        return {};
    if (blocked->kind() == Error::Kind::ReadOnly)
        return tr("Changes are off: this connection is read-only. To repair, turn on \"Allow changes\" in "
                  "the connection settings (Connect…), or run the command-line tool with --allow-changes.");
    return tr("Changes are not possible: %1. Add the account's own credentials to the connection profile "
              "(Connect…, Accounts): only they may change the account's streams.")
        .arg(blocked->message());
}

QString stateText(StepOutcome::State state)
{
    switch (state) {
    case StepOutcome::State::Applied: return tr("Applied");
    case StepOutcome::State::AlreadyDone: return tr("Already done");
    case StepOutcome::State::Failed: return tr("Failed");
    case StepOutcome::State::Skipped: return tr("Skipped");
    case StepOutcome::State::NotRun: return tr("Not run");
    }
    return {};
}

QString planHtml(const RepairPlan &plan)
{
    QString html;
    if (plan.steps.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("Nothing to repair automatically in account %1.").arg(plan.account)));
    for (const RepairStep &s : plan.steps) {
        html += QStringLiteral("<h4 style=\"margin-bottom:2px;\">%1. %2%3</h4>")
                    .arg(esc(s.id), esc(s.description),
                         s.destructive
                             ? QStringLiteral(" <span style=\"color:#a31f1f;\">[%1]</span>").arg(esc(tr("destructive: backed up first")))
                             : QString());
        QString table = row(
            tr("Fixes"), QStringLiteral("%1 &nbsp;·&nbsp; %2 <code>%3</code>").arg(esc(s.findingCode), esc(tr("action")), esc(s.action)));
        if (!s.dependsOn.isEmpty())
            table += row(tr("After"), esc(tr("step %1").arg(s.dependsOn.join(QStringLiteral(", ")))));
        if (!s.precondition.isEmpty())
            table += row(tr("Checks first"), esc(s.precondition));
        for (const RepairBackupSpec &b : s.backups) {
            QString what = b.stream + (b.subject.isEmpty() ? QString() : u' ' + b.subject);
            if (!b.includeMessages)
                what += u' ' + tr("(configs only)");
            table += row(tr("Backs up"), QStringLiteral("<code>%1</code>").arg(esc(what)));
        }
        if (!s.verification.isEmpty())
            table += row(tr("Verifies"), esc(s.verification));
        if (!s.undo.isEmpty())
            table += row(tr("Undo"), esc(s.undo));
        html += QStringLiteral("<table style=\"margin-left:16px;\">%1</table>").arg(table);
        if (!s.diff.isEmpty())
            html += diffHtml(s.diff);
        QStringList requests;
        for (const RepairRequest &r : s.requests)
            requests << esc(
                r.subject
                + (r.body.isEmpty() ? QString() : u' ' + QString::fromUtf8(QJsonDocument(r.body).toJson(QJsonDocument::Compact))));
        if (!requests.isEmpty())
            html += QStringLiteral("<p style=\"margin:4px 0 0 16px; color:#555;\">%1</p>").arg(esc(tr("Requests:")))
                + pre(requests.join(u'\n'));
    }
    if (!plan.unrepairable.isEmpty()) {
        html += QStringLiteral("<h4>%1</h4><ul>").arg(esc(tr("Not repaired automatically")));
        for (const Finding &f : plan.unrepairable) {
            const auto *entry = FindingCatalogue::entry(f.code);
            html += QStringLiteral("<li>%1<br/>%2</li>").arg(findingLine(f), esc(entry ? entry->guidance : f.detail.toString()));
        }
        html += QStringLiteral("</ul>");
    }
    for (const QString &n : plan.notes)
        html += QStringLiteral("<p><i>%1</i> %2</p>").arg(esc(tr("Note:")), esc(n));
    return html;
}

QString outcomeHtml(const QStringList &accounts, const RepairExecutor::Report &report, const QList<Finding> &fixed,
                    const QList<Finding> &remaining, const QString &recheckError, const RoundState &rounds)
{
    QString html;
    if (report.complete)
        html += QStringLiteral("<p><b style=\"color:#1b6e3a;\">%1</b></p>")
                    .arg(esc(rounds.ran > 1 ? tr("Repair complete: %1 rounds.").arg(rounds.ran) : tr("Repair complete.")));
    else
        html += QStringLiteral("<p><b style=\"color:#a31f1f;\">%1</b> %2</p>").arg(esc(tr("Repair stopped:")), esc(report.stoppedBecause));
    if (rounds.next > 0)
        html += QStringLiteral("<p><b>%1</b></p>")
                    .arg(esc(tr("The check after this round found problems the repair uncovered. Round %1 is planned: review it "
                                "(Review Round %1…) to apply it, or Finish to leave them.")
                                 .arg(rounds.next)));
    else if (!rounds.stopText.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("The run ended: %1.").arg(rounds.stopText)));

    html += QStringLiteral("<h4>%1</h4>").arg(esc(tr("Backups written")));
    if (report.backups.isEmpty()) {
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("None (no step destroyed anything).")));
    } else {
        html += QStringLiteral("<ul>");
        for (const QString &b : report.backups)
            html += QStringLiteral("<li><code>%1</code></li>").arg(esc(b));
        html += QStringLiteral("</ul><p>%1</p>").arg(esc(tr("Restore one with: nats-mqtt-doctor-cli restore FILE")));
    }

    html +=
        QStringLiteral("<h4>%1</h4>").arg(esc(tr("Verification: a fresh check of account(s) %1").arg(accounts.join(QStringLiteral(", ")))));
    if (!recheckError.isEmpty()) {
        html += QStringLiteral("<p style=\"color:#a31f1f;\">%1</p>").arg(esc(tr("Could not check again: %1").arg(recheckError)));
        return html;
    }
    if (!fixed.isEmpty()) {
        html += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("Fixed:")));
        for (const Finding &f : fixed)
            html += QStringLiteral("<li style=\"color:#1b6e3a;\">%1</li>").arg(findingLine(f));
        html += QStringLiteral("</ul>");
    }
    for (const QString &p : rounds.probes)
        html += QStringLiteral("<p style=\"color:%1;\">%2</p>")
                    .arg(rounds.probeFailed ? QStringLiteral("#a31f1f") : QStringLiteral("#1b6e3a"), esc(p));
    if (remaining.isEmpty()) {
        if (rounds.probeFailed) {
            html += QStringLiteral("<p>%1</p>")
                        .arg(esc(tr("No finding in the streams, but a real MQTT client does not see a working service (above).")));
        } else if (!rounds.openGaps.isEmpty()) {
            html += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("No finding in what the check could look at. Not checked:")));
            for (const QString &g : rounds.openGaps)
                html += QStringLiteral("<li>%1</li>").arg(esc(g));
            html += QStringLiteral("</ul>");
        } else {
            html += QStringLiteral("<p>%1</p>")
                        .arg(esc(rounds.probes.isEmpty() ? tr("The check is clean.")
                                                         : tr("The check is clean, and MQTT delivery is verified.")));
        }
    } else {
        html += QStringLiteral("<p>%1</p><ul>").arg(esc(tr("Remaining:")));
        for (const Finding &f : remaining)
            html += QStringLiteral("<li>%1: %2</li>").arg(esc(Finding::severityName(f.severity)), findingLine(f));
        html += QStringLiteral("</ul>");
    }
    return html;
}

} // namespace MqttDoctor::RepairWizardFormat
