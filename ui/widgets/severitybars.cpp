#include "severitybars.h"

#include <QPainter>

#include <algorithm>

#include "models/healthbadge.h"

namespace MqttDoctor {

namespace {

const Finding::Severity kOrder[] = {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning,
                                    Finding::Severity::Info};

} // namespace

SeverityBars::SeverityBars(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("severityBars"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

SeverityBars::~SeverityBars() = default;

void SeverityBars::setCounts(const QMap<Finding::Severity, int> &counts)
{
    m_counts = counts;
    update();
}

QSize SeverityBars::sizeHint() const
{
    return {320, 4 * (fontMetrics().height() + 4) + 4};
}

void SeverityBars::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int row = fontMetrics().height() + 4;
    const int labelWidth = fontMetrics().horizontalAdvance(QStringLiteral("critical  ")) + 8;
    const int numberWidth = fontMetrics().horizontalAdvance(QStringLiteral(" 0000000"));
    const int barSpace = std::max(10, width() - labelWidth - numberWidth);
    int top = 0;
    for (const auto &c : m_counts)
        top = std::max(top, c);
    int y = 2;
    for (Finding::Severity s : kOrder) {
        const int n = m_counts.value(s);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, labelWidth, row), Qt::AlignVCenter | Qt::AlignLeft, Finding::severityName(s));
        const int w = top > 0 ? std::max(n > 0 ? 2 : 0, int(qint64(barSpace) * n / top)) : 0;
        p.setPen(Qt::NoPen);
        p.setBrush(HealthBadge::colour(HealthBadge::fromSeverity(s)));
        p.drawRoundedRect(QRectF(labelWidth, y + 3, w, row - 6), 2, 2);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(labelWidth + w + 4, y, numberWidth, row), Qt::AlignVCenter | Qt::AlignLeft, QString::number(n));
        y += row;
    }
}

} // namespace MqttDoctor
