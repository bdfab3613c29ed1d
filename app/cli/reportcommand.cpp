#include "reportcommand.h"

#include <cstring>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include "checkhistory.h"
#include "common/duration.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyreport.h"
#include "jsoncontract.h"
#include "nats/connectionoptions.h"
#include "nats/profile.h"
#include "repair/auditlog.h"
#include "reportpdf.h"

namespace MqttDoctor::Cli {

namespace {

int runReport(CliContext &ctx)
{
    const QString out = ctx.parser.value(QStringLiteral("out"));
    const QString pdf = ctx.parser.value(QStringLiteral("pdf"));
    if (out.isEmpty() && pdf.isEmpty())
        return ctx.usage(QStringLiteral("give --out FILE.html, --pdf FILE.pdf or both"),
                         QStringLiteral("the HTML is self-contained (charts inline); attach either to a ticket"));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    HistoryReport::Options options;
    options.window.account = ctx.parser.value(QStringLiteral("account"));
    const QString since = ctx.parser.value(QStringLiteral("since"));
    const auto from = CheckHistory::parseWhen(since, now);
    if (!from)
        return ctx.usage(QStringLiteral("--since must be a duration (6h, 2d) or a time, not \"%1\"").arg(since));
    options.window.since = *from;
    if (const QString until = ctx.parser.value(QStringLiteral("until")); !until.isEmpty()) {
        const auto to = CheckHistory::parseWhen(until, now);
        if (!to || *to < *from)
            return ctx.usage(QStringLiteral("--until must be a duration or a time after --since, not \"%1\"").arg(until));
        options.window.until = *to;
    }
    options.hashClientIds = ctx.parser.isSet(QStringLiteral("hash-client-ids"));
    options.auditLogPath =
        ctx.parser.isSet(QStringLiteral("audit-log")) ? ctx.parser.value(QStringLiteral("audit-log")) : AuditLog::defaultPath();

    auto reading = CheckHistory::openForReading(ctx);
    if (!reading)
        return ctx.fail(reading.error());
    options.cluster = reading->cluster;
    auto report = HistoryReport::make(*reading->db, options);
    if (!report)
        return ctx.fail(report.error());

    if (!out.isEmpty()) {
        QSaveFile file(out);
        if (!file.open(QIODevice::WriteOnly) || file.write(report->html.toUtf8()) < 0 || !file.commit())
            return ctx.fail(Error(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(out, file.errorString())));
    }
    if (!pdf.isEmpty())
        if (auto written = ReportPdf::write(*report, pdf); !written)
            return ctx.fail(written.error());
    if (ctx.json) {
        QJsonObject o{
            {QStringLiteral("cluster"), options.cluster},
            {QStringLiteral("database"), reading->db->path()},
            {QStringLiteral("html"), out.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QFileInfo(out).absoluteFilePath())},
            {QStringLiteral("pdf"), pdf.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(QFileInfo(pdf).absoluteFilePath())},
            {QStringLiteral("checks"), report->checks},
            {QStringLiteral("findings"), report->findings},
            {QStringLiteral("entries"), report->entries},
            {QStringLiteral("repairs"), report->repairs}};
        ctx.out << QJsonDocument(JsonContract::stamped(QStringLiteral("report"), o)).toJson(QJsonDocument::Indented);
    } else {
        ctx.out << "Report of " << options.cluster
                << (options.window.account.isEmpty() ? QString() : QStringLiteral(" / ") + options.window.account) << ": " << report->checks
                << " checks, " << report->findings << " findings, " << report->entries << " changes, " << report->repairs << " repairs.\n";
        if (!out.isEmpty())
            ctx.out << "HTML: " << QFileInfo(out).absoluteFilePath() << '\n';
        if (!pdf.isEmpty())
            ctx.out << "PDF:  " << QFileInfo(pdf).absoluteFilePath() << '\n';
    }
    return report->checks == 0 ? ExitCouldNotCheck : ExitOk;
}

} // namespace

bool reportNeedsGui(int argc, char *argv[])
{
    bool report = false, pdf = false;
    for (int i = 1; i < argc; ++i) {
        report = report || std::strcmp(argv[i], "report") == 0;
        pdf = pdf || std::strcmp(argv[i], "--pdf") == 0 || std::strncmp(argv[i], "--pdf=", 6) == 0;
    }
    return report && pdf;
}

QList<Command> reportCommands()
{
    Command report{
        QStringLiteral("report"),
        QStringLiteral("An incident report from the local history for a ticket: findings with first seen, charts, the "
                       "timeline, the repairs of the audit log, the servers' versions; HTML (self-contained) and PDF."),
        {QCommandLineOption(QStringLiteral("out"), QStringLiteral("Write the HTML report here."), QStringLiteral("file")),
         QCommandLineOption(QStringLiteral("pdf"), QStringLiteral("Write the PDF report here."), QStringLiteral("file")),
         QCommandLineOption(QStringLiteral("since"), QStringLiteral("From this long ago or this time (default 6h)."),
                            QStringLiteral("when"), QStringLiteral("6h")),
         QCommandLineOption(QStringLiteral("until"), QStringLiteral("Up to this long ago or this time (default: now)."),
                            QStringLiteral("when")),
         QCommandLineOption(QStringLiteral("account"), QStringLiteral("One account (its counts are charted too)."), QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("cluster"), QStringLiteral("The cluster whose history to read."), QStringLiteral("name")),
         QCommandLineOption(QStringLiteral("hash-client-ids"),
                            QStringLiteral("Replace every client ID by its session hash (client#<hash>).")),
         QCommandLineOption(QStringLiteral("audit-log"), QStringLiteral("The audit log to take the repairs from."), QStringLiteral("file")),
         CheckHistory::folderOption()},
        runReport,
        false};
    return {report};
}

} // namespace MqttDoctor::Cli
