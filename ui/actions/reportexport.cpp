#include "reportexport.h"

#include <QFileInfo>
#include <QSaveFile>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyreport.h"
#include "reportpdf.h"

namespace MqttDoctor {

namespace {

struct Written
{
    QString html;
    QString pdf;
    int findings = 0;
    int checks = 0;
};

Result<Written> exportReport(const ReportExport::Request &request, const QString &folder)
{
    auto path = HistoryLocation::find(folder, request.cluster, request.urls);
    if (!path)
        return path.error();
    // Read only: an export never changes the history (and may run while a refresh is being recorded).
    auto db = HistoryDatabase::open(*path, HistoryDatabase::Mode::ReadOnly);
    if (!db)
        return db.error();
    HistoryReport::Options options;
    options.window.account = request.account;
    options.window.since = QDateTime::currentDateTimeUtc().addSecs(-request.seconds);
    options.cluster = (*db)->meta(QStringLiteral("cluster"));
    if (options.cluster.isEmpty())
        options.cluster = request.cluster.isEmpty() ? QFileInfo(*path).completeBaseName() : request.cluster;
    options.auditLogPath = request.auditLogPath;
    options.hashClientIds = request.hashClientIds;
    auto report = HistoryReport::make(**db, options);
    if (!report)
        return report.error();

    const QString base = ReportExport::basePath(request.path);
    Written written{base + QStringLiteral(".html"), base + QStringLiteral(".pdf"), report->findings, report->checks};
    QSaveFile file(written.html);
    if (!file.open(QIODevice::WriteOnly) || file.write(report->html.toUtf8()) < 0 || !file.commit())
        return Error(Error::Kind::Io, ReportExport::tr("cannot write %1: %2").arg(written.html, file.errorString()));
    if (auto pdf = ReportPdf::write(*report, written.pdf); !pdf)
        return pdf.error();
    written.html = QFileInfo(written.html).absoluteFilePath();
    written.pdf = QFileInfo(written.pdf).absoluteFilePath();
    return written;
}

} // namespace

ReportExport::ReportExport(QObject *parent) : QObject(parent), m_runner(std::make_unique<AsyncRunner>(1)) {}

ReportExport::~ReportExport()
{
    shutdown();
}

QString ReportExport::basePath(const QString &path)
{
    for (const QString &suffix : {QStringLiteral(".html"), QStringLiteral(".htm"), QStringLiteral(".pdf")})
        if (path.endsWith(suffix, Qt::CaseInsensitive))
            return path.left(path.size() - suffix.size());
    return path;
}

void ReportExport::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    ++m_generation;
    m_runner->shutdown();
}

bool ReportExport::start(const Request &request)
{
    if (m_shutDown || m_running || request.path.isEmpty())
        return false;
    m_running = true;
    const quint64 gen = m_generation;
    static_cast<void>(m_runner->run([this, gen, request, folder = HistoryLocation::folder(request.folder)] {
        auto written = exportReport(request, folder);
        GuiDelivery::post(this, m_generation, gen, [this, written = std::move(written)] {
            m_running = false;
            if (written)
                emit finished(written->html, written->pdf, written->findings, written->checks);
            else
                emit failed(written.error());
        });
    }));
    return true;
}

} // namespace MqttDoctor
