#include "healthbadge.h"

#include <array>

#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>

namespace MqttDoctor::HealthBadge {

QColor colour(Health health)
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

namespace {

// Painted here rather than drawn in resources/icons: the badge is composed from state (the health's
// colour, a ring while the account is not fully checked, a stroke when it could not be checked).
QPixmap paint(Health health, Coverage coverage, int size)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor colour = health == Health::Unknown ? QColor(0x80, 0x80, 0x80) : HealthBadge::colour(health);
    const qreal margin = size * 0.2;
    const QRectF dot(margin, margin, size - 2 * margin, size - 2 * margin);
    if (coverage != Coverage::Full) {
        // Not the whole account yet: a ring, so it never reads as a verdict on the account.
        const qreal width = size / 7.0;
        painter.setPen(QPen(colour, width));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(dot.adjusted(width / 2, width / 2, -width / 2, -width / 2));
        if (coverage == Coverage::CouldNotCheck) {
            painter.setPen(QPen(QColor(0x60, 0x60, 0x60), width, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(dot.bottomLeft() + QPointF(width, -width), dot.topRight() + QPointF(-width, width));
        }
        return pixmap;
    }
    painter.setPen(QPen(colour.darker(130), 1));
    painter.setBrush(colour);
    painter.drawEllipse(dot);
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

QIcon icon(Health health, Coverage coverage)
{
    if (health == Health::Unknown && coverage == Coverage::Full)
        return {};
    QIcon made;
    for (int size : {16, 24, 32})
        made.addPixmap(paint(health, coverage, size));
    return made;
}

QString coverageText(Coverage coverage)
{
    switch (coverage) {
    case Coverage::StreamsOnly: return QCoreApplication::translate("HealthBadge", "Checked: the streams only; the session records not yet");
    case Coverage::Checking: return QCoreApplication::translate("HealthBadge", "Checked: the streams; the session records are being read");
    case Coverage::Full: return QCoreApplication::translate("HealthBadge", "Checked: the streams and the session records");
    case Coverage::CouldNotCheck:
        return QCoreApplication::translate("HealthBadge", "Checked: the streams; the session records could not be checked");
    }
    return {};
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

QIcon severityIcon(Finding::Severity severity)
{
    static std::array<QIcon, 4> painted; // Info, Warning, Error, Critical
    QIcon &dot = painted.at(std::size_t(severity));
    if (dot.isNull())
        dot = icon(fromSeverity(severity));
    return dot;
}

} // namespace MqttDoctor::HealthBadge
