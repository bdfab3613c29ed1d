#include "iconfactory.h"

#include <QImage>
#include <QImageReader>
#include <QPainter>
#include <QPixmap>

namespace MqttDoctor {

namespace {

QImage readIconSvg(const QString &path, int size)
{
    QImageReader reader(path);
    reader.setScaledSize(QSize(size, size));
    const QImage image = reader.read();
    if (image.isNull())
        qWarning("IconFactory: cannot draw %s (%s); is Qt's SVG image plugin installed?", qPrintable(path),
                 qPrintable(reader.errorString()));
    return image;
}

// Composed here, not drawn in an SVG: the selected-row variant of any icon, made from its pixels so
// it always matches the icon (an SVG per icon and mode would be a second copy of every design).
QPixmap whiteSilhouette(const QPixmap &source)
{
    QPixmap out = source;
    QPainter p(&out);
    p.setCompositionMode(QPainter::CompositionMode_SourceIn);
    p.fillRect(out.rect(), Qt::white);
    return out;
}

} // namespace

QString IconFactory::svgPath(Kind kind)
{
    const auto path = [](const char *file) -> QString { return QStringLiteral(":/mqttdoctor/icons/") + QLatin1String(file); };
    switch (kind) {
    case Kind::App: return path("nats-mqtt-doctor.svg");
    case Kind::Cluster: return path("cluster.svg");
    case Kind::Server: return path("server.svg");
    case Kind::Account: return path("account.svg");
    case Kind::AccountWithoutJetStream: return path("account-no-jetstream.svg");
    case Kind::Stream: return path("stream.svg");
    case Kind::LegacyStream: return path("stream-legacy.svg");
    case Kind::Warning: return path("warning.svg");
    case Kind::Error: return path("error.svg");
    case Kind::Ok: return path("ok.svg");
    case Kind::Sessions: return path("sessions.svg");
    case Kind::Retained: return path("retained.svg");
    case Kind::Consumers: return path("consumers.svg");
    }
    return {};
}

QIcon IconFactory::icon(Kind kind)
{
    const QString path = svgPath(kind);
    QIcon icon;
    for (const int size : {16, 20, 24, 32, 48, 64, 128, 256}) {
        const QImage image = readIconSvg(path, size);
        if (image.isNull())
            return {};
        const QPixmap pixmap = QPixmap::fromImage(image);
        icon.addPixmap(pixmap, QIcon::Normal);
        icon.addPixmap(kind == Kind::App ? pixmap : whiteSilhouette(pixmap), QIcon::Selected);
    }
    return icon;
}

QIcon IconFactory::appIcon()
{
    return QIcon(svgPath(Kind::App));
}

} // namespace MqttDoctor
