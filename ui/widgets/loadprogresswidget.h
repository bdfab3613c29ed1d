#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace MqttDoctor {

/**
 * Progress with Cancel for a load that may take a while: hidden for the first second (short loads
 * never flash it), then a bar (busy while the total is unknown), "12,288 of 100,000" and Cancel.
 */
class LoadProgressWidget final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LoadProgressWidget)

public:
    explicit LoadProgressWidget(QWidget *parent = nullptr);
    ~LoadProgressWidget() override;

    /** A load started; `what` names it ("Loading sessions"). Shown after `delayMs`. */
    void start(const QString &what, int delayMs = 1000);
    void setProgress(quint64 done, quint64 total);
    void finish();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void cancelRequested();

private:
    void updateText();

    QLabel *m_label;
    QProgressBar *m_bar;
    QPushButton *m_cancel;
    QTimer *m_delay;
    QString m_what;
    quint64 m_done = 0;
    quint64 m_total = 0;
    bool m_running = false;
};

} // namespace MqttDoctor
