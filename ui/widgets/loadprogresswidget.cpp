#include "loadprogresswidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

namespace MqttDoctor {

LoadProgressWidget::LoadProgressWidget(QWidget *parent)
    : QWidget(parent), m_label(new QLabel(this)), m_bar(new QProgressBar(this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_delay(new QTimer(this))
{
    setObjectName(QStringLiteral("loadProgress"));
    m_cancel->setObjectName(QStringLiteral("loadCancel"));
    m_bar->setTextVisible(false);
    m_bar->setMaximumHeight(m_label->sizeHint().height());
    m_delay->setSingleShot(true);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label);
    layout->addWidget(m_bar, 1);
    layout->addWidget(m_cancel);
    connect(m_delay, &QTimer::timeout, this, [this] { setVisible(m_running); });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_cancel->setEnabled(false);
        m_label->setText(tr("Canceling…"));
        emit cancelRequested();
    });
    hide();
}

LoadProgressWidget::~LoadProgressWidget() = default;

void LoadProgressWidget::start(const QString &what, int delayMs)
{
    m_what = what;
    m_done = m_total = 0;
    m_running = true;
    m_cancel->setEnabled(true);
    m_bar->setRange(0, 0);
    updateText();
    hide();
    m_delay->start(delayMs);
}

void LoadProgressWidget::setProgress(quint64 done, quint64 total)
{
    m_done = done;
    m_total = total;
    if (total > 0) {
        // QProgressBar takes int: scale to per mille.
        m_bar->setRange(0, 1000);
        m_bar->setValue(int(std::min<quint64>(1000, done * 1000 / total)));
    }
    if (m_cancel->isEnabled())
        updateText();
}

void LoadProgressWidget::finish()
{
    m_running = false;
    m_delay->stop();
    hide();
}

void LoadProgressWidget::updateText()
{
    const QLocale locale;
    if (m_total > 0)
        m_label->setText(tr("%1: %2 of %3").arg(m_what, locale.toString(m_done), locale.toString(m_total)));
    else if (m_done > 0)
        m_label->setText(tr("%1: %2").arg(m_what, locale.toString(m_done)));
    else
        m_label->setText(tr("%1…").arg(m_what));
}

} // namespace MqttDoctor
