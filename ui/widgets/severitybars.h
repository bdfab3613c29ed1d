#pragma once

#include <QMap>
#include <QWidget>

#include "diagnosis/finding.h"

namespace MqttDoctor {

/** A small bar chart: how many findings of each severity, in the badges' colours. GUI thread. */
class SeverityBars final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SeverityBars)

public:
    explicit SeverityBars(QWidget *parent = nullptr);
    ~SeverityBars() override;

    void setCounts(const QMap<Finding::Severity, int> &counts);
    int count(Finding::Severity severity) const { return m_counts.value(severity); }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QMap<Finding::Severity, int> m_counts;
};

} // namespace MqttDoctor
