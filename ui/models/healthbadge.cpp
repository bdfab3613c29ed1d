#include "healthbadge.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>

namespace MqttDoctor::HealthBadge {

namespace {

QColor colourOf(Health health)
{
    switch (health) {
    case Health::Critical: return QColor(0xb0, 0x00, 0x20);
    case Health::Error: return QColor(0xe0, 0x40, 0x30);
    case Health::Warning: return QColor(0xe8, 0xa0, 0x00);
    case Health::Info: return QColor(0x3a, 0x7b, 0xd5);
    case Health::Ok: return QColor(0x2e, 0x9d, 0x4f);
    case Health::Unknown: break;
    }
    return {};
}

QPixmap paint(Health health, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor colour = colourOf(health);
    painter.setPen(QPen(colour.darker(130), 1));
    painter.setBrush(colour);
    const qreal margin = size * 0.2;
    painter.drawEllipse(QRectF(margin, margin, size - 2 * margin, size - 2 * margin));
    if (health == Health::Critical || health == Health::Error) {
        // An exclamation mark, so the two reds and the colour-blind can tell.
        painter.setPen(QPen(Qt::white, size / 10.0, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(size / 2.0, size * 0.33), QPointF(size / 2.0, size * 0.55));
        painter.drawPoint(QPointF(size / 2.0, size * 0.68));
    }
    return pixmap;
}

} // namespace

Health fromSeverity(Finding::Severity severity)
{
    switch (severity) {
    case Finding::Severity::Critical: return Health::Critical;
    case Finding::Severity::Error: return Health::Error;
    case Finding::Severity::Warning: return Health::Warning;
    case Finding::Severity::Info: return Health::Info;
    }
    return Health::Unknown;
}

QIcon icon(Health health)
{
    if (health == Health::Unknown)
        return {};
    QIcon made;
    for (int size : {16, 24, 32})
        made.addPixmap(paint(health, size));
    return made;
}

QString name(Health health)
{
    switch (health) {
    case Health::Critical: return QCoreApplication::translate("HealthBadge", "critical");
    case Health::Error: return QCoreApplication::translate("HealthBadge", "error");
    case Health::Warning: return QCoreApplication::translate("HealthBadge", "warning");
    case Health::Info: return QCoreApplication::translate("HealthBadge", "info");
    case Health::Ok: return QCoreApplication::translate("HealthBadge", "healthy");
    case Health::Unknown: break;
    }
    return QCoreApplication::translate("HealthBadge", "not checked");
}

} // namespace MqttDoctor::HealthBadge
