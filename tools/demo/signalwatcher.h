#pragma once

#include <QObject>
#include <QTimer>

namespace MqttDoctor::Demo {

// Turns SIGINT/SIGTERM/SIGHUP into a Qt signal: the handler only stores the signal number in an
// atomic, a timer polls it on the event loop. One instance per process.
class SignalWatcher : public QObject
{
    Q_OBJECT

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

    // The signal received so far (0 = none); usable before the event loop runs.
    static int pendingSignal();

Q_SIGNALS:
    void terminationRequested(int signalNumber);

private:
    void poll();

    QTimer m_timer;
    bool m_reported = false;
};

} // namespace MqttDoctor::Demo
