#include "windowstate.h"

#include <QEvent>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace MqttDoctor {

namespace {

const QString kGroup = QStringLiteral("mainWindow");

} // namespace

WindowState::WindowState(QMainWindow *window) : QObject(window), m_window(window)
{
    window->installEventFilter(this);
}

void WindowState::restore()
{
    QSettings settings;
    settings.beginGroup(kGroup);
    m_window->restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    m_window->restoreState(settings.value(QStringLiteral("state")).toByteArray());
    for (QSplitter *splitter : m_window->findChildren<QSplitter *>())
        if (!splitter->objectName().isEmpty())
            splitter->restoreState(settings.value(QStringLiteral("splitters/") + splitter->objectName()).toByteArray());
    settings.endGroup();
}

void WindowState::save() const
{
    QSettings settings;
    settings.beginGroup(kGroup);
    settings.setValue(QStringLiteral("geometry"), m_window->saveGeometry());
    settings.setValue(QStringLiteral("state"), m_window->saveState());
    for (const QSplitter *splitter : m_window->findChildren<QSplitter *>())
        if (!splitter->objectName().isEmpty())
            settings.setValue(QStringLiteral("splitters/") + splitter->objectName(), splitter->saveState());
    settings.endGroup();
}

bool WindowState::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window && event->type() == QEvent::Close)
        save();
    return QObject::eventFilter(watched, event);
}

} // namespace MqttDoctor
