#include "operatoractionformat.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonDocument>
#include <QLocale>

#include "dialogs/repairwizardformat.h"
#include "models/errortext.h"

namespace MqttDoctor::OperatorActionFormat {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("OperatorActionDialog", text);
}

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

QString number(qint64 n)
{
    return QLocale().toString(n);
}

/** A list of at most `maxRows` items, then how many more. */
QString listHtml(const QStringList &itemsHtml, int maxRows)
{
    QString html = QStringLiteral("<ul style=\"margin-top:2px;\">");
    const qsizetype shown = std::min<qsizetype>(itemsHtml.size(), maxRows);
    for (qsizetype i = 0; i < shown; ++i)
        html += QStringLiteral("<li>%1</li>").arg(itemsHtml.at(i));
    if (itemsHtml.size() > shown)
        html += QStringLiteral("<li><i>%1</i></li>").arg(esc(tr("… and %1 more").arg(number(itemsHtml.size() - shown))));
    return html + QStringLiteral("</ul>");
}

/** Monospace block that wraps long JSON instead of scrolling sideways (the repair wizard's). */
QString pre(const QString &html)
{
    return QStringLiteral("<pre style=\"white-space: pre-wrap; margin: 2px 0 2px 16px;\">%1</pre>").arg(html);
}

QString row(const QString &label, const QString &valueHtml)
{
    return QStringLiteral("<tr><td style=\"padding-right:10px; color:#555;\"><nobr>%1</nobr></td><td>%2</td></tr>")
        .arg(esc(label), valueHtml);
}

QString requestText(const RepairRequest &r)
{
    return r.subject + (r.body.isEmpty() ? QString() : u' ' + QString::fromUtf8(QJsonDocument(r.body).toJson(QJsonDocument::Compact)));
}

QString stepHtml(const RepairStep &s, bool expanded)
{
    QString html =
        QStringLiteral("<h4 style=\"margin-bottom:2px;\">%1. %2 %3</h4>")
            .arg(esc(s.id), esc(s.description),
                 s.destructive ? QStringLiteral("<span style=\"color:#a31f1f;\">[%1]</span>").arg(esc(tr("destructive: backed up first")))
                               : QStringLiteral("<span style=\"color:#555;\">[%1]</span>").arg(esc(tr("deletes no data"))));
    QString table;
    for (const RepairBackupSpec &b : s.backups) {
        QString what = b.stream + (b.subject.isEmpty() ? QString() : u' ' + b.subject);
        if (!b.includeMessages)
            what += u' ' + tr("(configs only)");
        table += row(tr("Backs up"), QStringLiteral("<code>%1</code>").arg(esc(what)));
    }
    if (!s.precondition.isEmpty())
        table += row(tr("Checks first"), esc(s.precondition));
    if (!s.verification.isEmpty())
        table += row(tr("Verifies"), esc(s.verification));
    if (!s.undo.isEmpty())
        table += row(tr("Undo"), esc(s.undo));
    if (!table.isEmpty())
        html += QStringLiteral("<table style=\"margin-left:16px;\">%1</table>").arg(table);
    if (s.requests.isEmpty())
        return html;
    const qsizetype total = s.requests.size();
    const qsizetype shown = std::min<qsizetype>(total, expanded ? kRequestsMax : kRequestsShown);
    QStringList lines;
    for (qsizetype i = 0; i < shown; ++i)
        lines << esc(requestText(s.requests.at(i)));
    html += QStringLiteral("<p style=\"margin:4px 0 0 16px; color:#555;\">%1</p>")
                .arg(esc(total == 1 ? tr("The exact request:") : tr("The exact requests (%1):").arg(number(total))))
        + pre(lines.join(u'\n'));
    if (shown < total)
        html += QStringLiteral("<p style=\"margin:0 0 0 16px;\">%1 %2</p>")
                    .arg(esc(tr("… and %1 more of the same kind.").arg(number(total - shown))),
                         expanded ? esc(tr("(Only the first %1 are listed here.)").arg(number(kRequestsMax)))
                                  : QStringLiteral("<a href=\"step:%1\">%2</a>").arg(esc(s.id), esc(tr("Show them"))));
    return html;
}

QString seconds(qint64 ms)
{
    return QLocale().toString(double(ms) / 1000.0, 'f', 1);
}

} // namespace

QString title(OperatorRequest::Verb verb)
{
    switch (verb) {
    case OperatorRequest::Verb::DeleteSessions: return tr("Delete Sessions");
    case OperatorRequest::Verb::Disconnect: return tr("Disconnect Clients");
    case OperatorRequest::Verb::ClearRetained: return tr("Clear Retained Messages");
    case OperatorRequest::Verb::DropBacklog: return tr("Drop Queued Messages");
    }
    return {};
}

QString commitText(OperatorRequest::Verb verb)
{
    switch (verb) {
    case OperatorRequest::Verb::DeleteSessions: return tr("&Delete Sessions");
    case OperatorRequest::Verb::Disconnect: return tr("&Disconnect");
    case OperatorRequest::Verb::ClearRetained: return tr("&Clear Retained");
    case OperatorRequest::Verb::DropBacklog: return tr("&Drop Queued Messages");
    }
    return {};
}

QString intro(OperatorRequest::Verb verb)
{
    switch (verb) {
    case OperatorRequest::Verb::DeleteSessions:
        return tr("Each session's record, the durables it names and its QoS 2 records are backed up, then deleted. "
                  "The client starts a clean session when it connects again: its subscriptions and queued messages are gone.");
    case OperatorRequest::Verb::Disconnect:
        return tr("The server closes each client's MQTT connection. Its session stays; a client that reconnects "
                  "by itself comes back at once.");
    case OperatorRequest::Verb::ClearRetained:
        return tr("Each retained message is backed up, then removed from $MQTT_rmsgs: new subscribers no longer get it.");
    case OperatorRequest::Verb::DropBacklog:
        return tr("The queued QoS 1/2 messages that only these sessions wait for are backed up and dropped. The sessions "
                  "and their subscriptions stay.");
    }
    return {};
}

QString stepsHtml(const RepairPlan &plan, const QSet<QString> &expanded, bool allSteps)
{
    QString html;
    const qsizetype total = plan.steps.size();
    const qsizetype shown = allSteps ? total : std::min<qsizetype>(total, kStepsShown);
    for (qsizetype i = 0; i < shown; ++i)
        html += stepHtml(plan.steps.at(i), expanded.contains(plan.steps.at(i).id));
    if (shown < total)
        html += QStringLiteral("<p>%1 <a href=\"steps:all\">%2</a></p>")
                    .arg(esc(tr("… and %1 more steps like these.").arg(number(total - shown))), esc(tr("Show them")));
    return html;
}

QString itemText(const ActionSelection::Item &item)
{
    QString text = !item.clientId.isEmpty() ? item.clientId : !item.topic.isEmpty() ? item.topic : item.subject;
    if (!item.subject.isEmpty() && text != item.subject)
        text += QStringLiteral(" (%1)").arg(item.subject);
    return text;
}

QString selectionHtml(const OperatorPlan &plan, int maxRows)
{
    QString html;
    QStringList acted;
    for (const ActionSelection::Item &item : plan.selection.selected)
        acted << QStringLiteral("<code>%1</code>%2")
                     .arg(esc(itemText(item)), item.why.isEmpty() ? QString() : QStringLiteral(" — %1").arg(esc(item.why)));
    html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>").arg(esc(tr("Changed (%1)").arg(number(acted.size()))));
    html += acted.isEmpty() ? QStringLiteral("<p>%1</p>").arg(esc(tr("Nothing."))) : listHtml(acted, maxRows);

    QStringList left;
    for (const ActionSelection::Item &item : plan.selection.left)
        left << QStringLiteral("<code>%1</code> — %2").arg(esc(itemText(item)), esc(item.why));
    html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>").arg(esc(tr("Left alone (%1)").arg(number(left.size()))));
    html += left.isEmpty() ? QStringLiteral("<p>%1</p>").arg(esc(tr("Nothing: every object asked for is in the plan.")))
                           : listHtml(left, maxRows);

    if (!plan.path.isEmpty())
        html += QStringLiteral("<p><b>%1</b> %2</p>").arg(esc(tr("How:")), esc(plan.path));
    QStringList notes = plan.notes;
    notes += plan.plan.notes;
    notes.removeDuplicates();
    for (const QString &n : std::as_const(notes))
        html += QStringLiteral("<p><i>%1</i> %2</p>").arg(esc(tr("Note:")), esc(n));
    return html;
}

QString outcomeHtml(const Outcome &outcome, int maxRows)
{
    QString html;
    const std::optional<RepairExecutor::Report> &report = outcome.report;
    if (!report) {
        html += QStringLiteral("<p><b style=\"color:#a31f1f;\">%1</b> %2</p>")
                    .arg(esc(tr("Could not run:")),
                         esc(outcome.runError ? ErrorText::withHint(*outcome.runError, QStringLiteral(" — ")) : QString()));
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("Nothing was changed.")));
        return html;
    }
    if (report->complete)
        html += QStringLiteral("<p><b style=\"color:#1b6e3a;\">%1</b></p>").arg(esc(tr("Done.")));
    else
        html += QStringLiteral("<p><b style=\"color:#a31f1f;\">%1</b> %2</p>")
                    .arg(esc(outcome.stopped ? tr("Stopped:") : tr("Not finished:")), esc(report->stoppedBecause));
    if (outcome.runError)
        html += QStringLiteral("<p style=\"color:#a31f1f;\">%1</p>").arg(esc(ErrorText::withHint(*outcome.runError)));

    QHash<QString, QString> descriptions;
    for (const RepairStep &s : outcome.steps)
        descriptions.insert(s.id, s.description);
    QStringList steps;
    int applied = 0;
    for (const StepOutcome &o : report->outcomes) {
        applied += o.state == StepOutcome::State::Applied || o.state == StepOutcome::State::AlreadyDone ? 1 : 0;
        QString line = QStringLiteral("<b>%1</b> %2. %3")
                           .arg(esc(RepairWizardFormat::stateText(o.state)), esc(o.stepId), esc(descriptions.value(o.stepId)));
        if (!o.message.isEmpty())
            line += QStringLiteral(" <span style=\"color:#555;\">(%1)</span>").arg(esc(o.message));
        steps << line;
    }
    html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>")
                .arg(esc(tr("What was done: %1 of %2 steps").arg(applied).arg(report->outcomes.size())));
    html += listHtml(steps, maxRows);

    if (outcome.verb == OperatorRequest::Verb::Disconnect && !outcome.returns.isEmpty()) {
        QStringList back;
        for (const ClientReturn &r : outcome.returns)
            back << (r.returned ? esc(tr("%1 came back after %2 s on %3 from %4").arg(r.clientId, seconds(r.afterMs), r.server, r.address))
                                : esc(tr("%1 did not come back within %2 s").arg(r.clientId, seconds(r.afterMs))));
        html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>").arg(esc(tr("Did the clients come back?")));
        html += listHtml(back, maxRows);
    }

    html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>").arg(esc(tr("Backups written")));
    if (report->backups.isEmpty()) {
        html += QStringLiteral("<p>%1</p>").arg(esc(tr("None (no step deleted anything).")));
    } else {
        QStringList files;
        for (const QString &b : report->backups)
            files << QStringLiteral("<code>%1</code>").arg(esc(b));
        html += listHtml(files, maxRows);
        html +=
            QStringLiteral("<p>%1</p>")
                .arg(esc(tr("Put one back with: nats-mqtt-doctor-cli --allow-changes restore FILE --merge (adds what the backup holds and "
                            "the stream lacks)")));
    }

    if (!outcome.left.isEmpty()) {
        QStringList left;
        for (const ActionSelection::Item &item : outcome.left)
            left << QStringLiteral("<code>%1</code> — %2").arg(esc(itemText(item)), esc(item.why));
        html += QStringLiteral("<h4 style=\"margin-bottom:0;\">%1</h4>").arg(esc(tr("Left alone (%1)").arg(number(left.size()))));
        html += listHtml(left, maxRows);
    }

    if (!report->complete && !outcome.journalPath.isEmpty())
        html += QStringLiteral("<p>%1<br><code>%2</code></p>")
                    .arg(esc(tr("The journal of this run says which steps are done; Resume continues with the others (each "
                                "checked again first):")),
                         esc(outcome.journalPath));
    return html;
}

} // namespace MqttDoctor::OperatorActionFormat
