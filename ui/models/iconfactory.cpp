#include "iconfactory.h"

#include <QFile>
#include <QImageReader>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace MqttDoctor {

namespace {

const QColor kInk(0x2f, 0x4a, 0x6b);
const QColor kTeal(0x1f, 0x9e, 0x89);
const QColor kAmber(0xe0, 0x8e, 0x0b);
const QColor kRed(0xc6, 0x28, 0x28);
const QColor kGray(0x9a, 0xa0, 0xa6);

// Everything is drawn on a 100 x 100 canvas and scaled.
void paintApp(QPainter &p)
{
    QLinearGradient bg(0, 0, 0, 100);
    bg.setColorAt(0, QColor(0x27, 0x4b, 0x7a));
    bg.setColorAt(1, QColor(0x17, 0x2f, 0x50));
    p.setPen(Qt::NoPen);
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(4, 4, 92, 92), 20, 20);
    // A pulse line running through a message "M".
    QPainterPath pulse;
    pulse.moveTo(14, 56);
    pulse.lineTo(30, 56);
    pulse.lineTo(38, 34);
    pulse.lineTo(50, 74);
    pulse.lineTo(62, 34);
    pulse.lineTo(70, 56);
    pulse.lineTo(86, 56);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0x7f, 0xe0, 0xc5), 8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPath(pulse);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xff, 0xff, 0xff));
    p.drawEllipse(QPointF(86, 56), 6, 6);
}

void paintCluster(QPainter &p)
{
    p.setPen(QPen(kInk, 6));
    p.drawLine(QPointF(50, 22), QPointF(22, 74));
    p.drawLine(QPointF(50, 22), QPointF(78, 74));
    p.drawLine(QPointF(22, 74), QPointF(78, 74));
    p.setPen(Qt::NoPen);
    p.setBrush(kTeal);
    for (const QPointF c : {QPointF(50, 22), QPointF(22, 74), QPointF(78, 74)})
        p.drawEllipse(c, 15, 15);
}

void paintServer(QPainter &p)
{
    p.setPen(Qt::NoPen);
    for (const qreal y : {14.0, 40.0, 66.0}) {
        p.setBrush(kInk);
        p.drawRoundedRect(QRectF(12, y, 76, 21), 5, 5);
        p.setBrush(kTeal);
        p.drawEllipse(QPointF(74, y + 10.5), 5, 5);
    }
}

void paintAccount(QPainter &p, const QColor &color)
{
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(QPointF(50, 32), 19, 19);
    QPainterPath body;
    body.moveTo(14, 92);
    body.cubicTo(14, 58, 86, 58, 86, 92);
    body.closeSubpath();
    p.drawPath(body);
}

void paintStream(QPainter &p, const QColor &color)
{
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawRoundedRect(QRectF(10, 16, 80, 16), 6, 6);
    p.drawRoundedRect(QRectF(10, 42, 62, 16), 6, 6);
    p.drawRoundedRect(QRectF(10, 68, 44, 16), 6, 6);
}

void paintBadge(QPainter &p, const QColor &color, const QPointF &center, qreal radius)
{
    p.setPen(QPen(Qt::white, 4));
    p.setBrush(color);
    p.drawEllipse(center, radius, radius);
}

void paintWarning(QPainter &p)
{
    QPainterPath tri;
    tri.moveTo(50, 8);
    tri.lineTo(94, 88);
    tri.lineTo(6, 88);
    tri.closeSubpath();
    p.setPen(QPen(kAmber, 6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(kAmber);
    p.drawPath(tri);
    p.setPen(QPen(Qt::white, 10, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(50, 36), QPointF(50, 60));
    p.drawPoint(QPointF(50, 76));
}

void paintError(QPainter &p)
{
    p.setPen(Qt::NoPen);
    p.setBrush(kRed);
    p.drawEllipse(QPointF(50, 50), 44, 44);
    p.setPen(QPen(Qt::white, 11, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(34, 34), QPointF(66, 66));
    p.drawLine(QPointF(66, 34), QPointF(34, 66));
}

void paintOk(QPainter &p)
{
    p.setPen(Qt::NoPen);
    p.setBrush(kTeal);
    p.drawEllipse(QPointF(50, 50), 44, 44);
    p.setPen(QPen(Qt::white, 11, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    QPainterPath tick;
    tick.moveTo(30, 52);
    tick.lineTo(44, 66);
    tick.lineTo(70, 36);
    p.setBrush(Qt::NoBrush);
    p.drawPath(tick);
}

// The record views: the same designs as resources/icons/{sessions,retained,consumers}.svg.
void paintSessions(QPainter &p)
{
    p.setPen(Qt::NoPen);
    p.setBrush(kInk);
    p.drawRoundedRect(QRectF(8, 20, 84, 62), 9, 9);
    p.setBrush(kTeal);
    p.drawEllipse(QPointF(30, 44), 10, 10);
    QPainterPath body;
    body.moveTo(16, 72);
    body.cubicTo(16, 56, 44, 56, 44, 72);
    body.closeSubpath();
    p.drawPath(body);
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(52, 36, 30, 8), 4, 4);
    p.drawRoundedRect(QRectF(52, 54, 22, 8), 4, 4);
}

void paintRetained(QPainter &p)
{
    QPainterPath bubble;
    bubble.addRoundedRect(QRectF(8, 24, 84, 48), 6, 6);
    QPainterPath tail;
    tail.moveTo(40, 70);
    tail.lineTo(24, 88);
    tail.lineTo(24, 70);
    tail.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(kInk);
    p.drawPath(bubble.united(tail));
    p.setBrush(Qt::white);
    p.drawRoundedRect(QRectF(22, 38, 44, 8), 4, 4);
    p.drawRoundedRect(QRectF(22, 52, 30, 8), 4, 4);
    paintBadge(p, kAmber, QPointF(78, 22), 13);
}

void paintConsumers(QPainter &p)
{
    p.setPen(Qt::NoPen);
    p.setBrush(kInk);
    for (const qreal y : {22.0, 44.0, 66.0})
        p.drawRoundedRect(QRectF(6, y, 38, 12), 5, 5);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(kInk, 8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawLine(QPointF(50, 50), QPointF(64, 50));
    QPainterPath head;
    head.moveTo(58, 38);
    head.lineTo(70, 50);
    head.lineTo(58, 62);
    p.drawPath(head);
    p.setPen(Qt::NoPen);
    p.setBrush(kTeal);
    p.drawEllipse(QPointF(82, 50), 13, 13);
}

void paint(QPainter &p, IconFactory::Kind kind)
{
    using Kind = IconFactory::Kind;
    switch (kind) {
    case Kind::App: paintApp(p); break;
    case Kind::Cluster: paintCluster(p); break;
    case Kind::Server: paintServer(p); break;
    case Kind::Account: paintAccount(p, kInk); break;
    case Kind::AccountWithoutJetStream:
        paintAccount(p, kGray);
        paintBadge(p, kGray.darker(130), QPointF(76, 76), 14);
        p.setPen(QPen(Qt::white, 5, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(69, 76), QPointF(83, 76));
        break;
    case Kind::Stream: paintStream(p, kTeal); break;
    case Kind::LegacyStream:
        paintStream(p, kGray);
        paintBadge(p, kAmber, QPointF(76, 74), 16);
        p.setPen(QPen(Qt::white, 5, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(76, 66), QPointF(76, 75));
        p.drawPoint(QPointF(76, 83));
        break;
    case Kind::Warning: paintWarning(p); break;
    case Kind::Error: paintError(p); break;
    case Kind::Ok: paintOk(p); break;
    case Kind::Sessions: paintSessions(p); break;
    case Kind::Retained: paintRetained(p); break;
    case Kind::Consumers: paintConsumers(p); break;
    }
}

QPixmap render(IconFactory::Kind kind, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(size / 100.0, size / 100.0);
    paint(p, kind);
    return pixmap;
}

// On a selection highlight the colours vanish: selected rows get a white silhouette.
QPixmap silhouette(const QPixmap &source)
{
    QPixmap out = source;
    QPainter p(&out);
    p.setCompositionMode(QPainter::CompositionMode_SourceIn);
    p.fillRect(out.rect(), Qt::white);
    return out;
}

QString svgFile(IconFactory::Kind kind)
{
    switch (kind) {
    case IconFactory::Kind::Sessions: return QStringLiteral(":/mqttdoctor/icons/sessions.svg");
    case IconFactory::Kind::Retained: return QStringLiteral(":/mqttdoctor/icons/retained.svg");
    case IconFactory::Kind::Consumers: return QStringLiteral(":/mqttdoctor/icons/consumers.svg");
    default: return {};
    }
}

} // namespace

QIcon IconFactory::icon(Kind kind)
{
    if (const QString svg = svgFile(kind); !svg.isEmpty() && QFile::exists(svg)
        && QImageReader::supportedImageFormats().contains("svg"))
        return QIcon(svg);
    QIcon icon;
    for (const int size : {16, 20, 24, 32, 48, 64, 128, 256}) {
        const QPixmap pixmap = render(kind, size);
        icon.addPixmap(pixmap, QIcon::Normal);
        icon.addPixmap(kind == Kind::App ? pixmap : silhouette(pixmap), QIcon::Selected);
    }
    return icon;
}

QIcon IconFactory::appIcon()
{
    if (QImageReader::supportedImageFormats().contains("svg"))
        return QIcon(QStringLiteral(":/mqttdoctor/icons/nats-mqtt-doctor.svg"));
    return icon(Kind::App);
}

} // namespace MqttDoctor
