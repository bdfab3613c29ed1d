#include "plantext.h"

#include <QJsonDocument>
#include <QLocale>

#include <cstdio>

namespace MqttDoctor::Cli::PlanText {

void printStepDetails(QTextStream &out, const RepairStep &s, int requestsShown)
{
    const qsizetype shown = requestsShown < 0 ? s.requests.size() : std::min<qsizetype>(s.requests.size(), requestsShown);
    for (qsizetype i = 0; i < shown; ++i) {
        const RepairRequest &r = s.requests.at(i);
        out << "     request: " << r.subject
            << (r.body.isEmpty() ? QString() : u' ' + QString::fromUtf8(QJsonDocument(r.body).toJson(QJsonDocument::Compact))) << '\n';
    }
    if (s.requests.size() > shown) {
        QLocale c = QLocale::c();
        c.setNumberOptions(QLocale::DefaultNumberOptions);
        out << "     ... and " << c.toString(s.requests.size() - shown) << " more requests like these (--json lists them all)\n";
    }
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

int stepsThatWouldRun(const RepairExecutor::Report &report)
{
    int n = 0;
    for (const StepOutcome &o : report.outcomes)
        n += o.state == StepOutcome::State::NotRun ? 1 : 0;
    return n;
}

bool confirm(QTextStream &out, const QString &question)
{
    out << question << " [y/N] ";
    out.flush();
    char line[64] = {};
    if (!std::fgets(line, sizeof line, stdin))
        return false;
    const QString answer = QString::fromLatin1(line).trimmed().toLower();
    return answer == QLatin1String("y") || answer == QLatin1String("yes");
}

} // namespace MqttDoctor::Cli::PlanText
