// mqttdoctor-iconrender SVG OUTDIR SIZE...: the build's PNGs of the application icon for the hicolor
// theme, OUTDIR/<size>x<size>/apps/<name>.png, rendered from the SVG with Qt's own renderer.
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTextStream>

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QGuiApplication::arguments();
    QTextStream err(stderr);
    if (args.size() < 4) {
        err << "usage: mqttdoctor-iconrender SVG OUTDIR SIZE...\n";
        return 64;
    }
    QSvgRenderer svg(args.at(1));
    if (!svg.isValid()) {
        err << "mqttdoctor-iconrender: " << args.at(1) << " is not a valid SVG\n";
        return 1;
    }
    const QString name = QFileInfo(args.at(1)).completeBaseName();
    for (const QString &s : args.mid(3)) {
        bool ok = false;
        const int size = s.toInt(&ok);
        if (!ok || size < 8 || size > 1024) {
            err << "mqttdoctor-iconrender: bad size \"" << s << "\"\n";
            return 64;
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::SmoothPixmapTransform);
        svg.render(&painter, QRectF(0, 0, size, size));
        painter.end();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args.at(2)).arg(size);
        if (!QDir().mkpath(dir)
            || !image.convertToFormat(QImage::Format_ARGB32).save(dir + QLatin1Char('/') + name + QStringLiteral(".png"), "PNG", 100)) {
            err << "mqttdoctor-iconrender: cannot write " << dir << '\n';
            return 1;
        }
    }
    return 0;
}
