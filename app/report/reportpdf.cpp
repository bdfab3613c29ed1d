#include "reportpdf.h"

#include <QFileInfo>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

namespace MqttDoctor {

Result<void> ReportPdf::write(const HistoryReport::Output &report, const QString &path)
{
    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    pdf.setResolution(150);
    pdf.setTitle(QStringLiteral("NATS MQTT incident report"));
    pdf.setCreator(QStringLiteral("NATS MQTT Doctor"));

    QTextDocument doc;
    // The charts as images twice their size, drawn at their size: sharp in print.
    for (qsizetype i = 0; i < report.charts.size(); ++i) {
        QSvgRenderer svg(report.charts.at(i));
        if (!svg.isValid())
            return Error(Error::Kind::Internal, QStringLiteral("chart %1 of the report is not valid SVG").arg(i));
        QImage image(svg.defaultSize() * 2, QImage::Format_ARGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        svg.render(&painter);
        painter.end();
        doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart-%1.svg").arg(i)), image);
    }
    doc.setHtml(report.htmlWithImages);
    doc.setPageSize(pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
    // Wide tables are scaled to the page by the document's page width; text stays readable at 150 dpi.
    doc.print(&pdf);
    if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
        return Error(Error::Kind::Io, QStringLiteral("cannot write the PDF %1").arg(path),
                     QStringLiteral("check that its folder exists and may be written"));
    return {};
}

} // namespace MqttDoctor
