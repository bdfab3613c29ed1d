#pragma once

#include <QObject>

class QMainWindow;

namespace MqttDoctor {

/**
 * Keeps a main window's size, position and layout (QMainWindow::saveGeometry, saveState and its
 * splitters) between runs, in the application's QSettings, that is where XDG says configuration goes:
 * `$XDG_CONFIG_HOME/<organization>/<application>.conf` (else `~/.config/...`). restore() before the
 * window is shown; the state is saved when the window closes.
 */
class WindowState final : public QObject
{
    Q_OBJECT
public:
    explicit WindowState(QMainWindow *window);

    void restore();
    void save() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QMainWindow *m_window;
};

} // namespace MqttDoctor
