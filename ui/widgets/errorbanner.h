#pragma once

#include <QFrame>

#include "common/error.h"

class QLabel;
class QPushButton;

namespace MqttDoctor {

/**
 * An inline error strip above the content (instead of a modal dialog): what failed, why, and what
 * to do, with the actions that help (retry, open the connection settings) and a close button.
 */
class ErrorBanner final : public QFrame
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ErrorBanner)

public:
    explicit ErrorBanner(QWidget *parent = nullptr);
    ~ErrorBanner() override;

    void showError(const Error &error);
    void dismiss();
    /** A short title for the kind of failure ("Authentication failed"). */
    static QString titleFor(const Error &error);

    QString title() const;
    QString message() const;
    QString hint() const;

Q_SIGNALS:
    void retryRequested();
    void settingsRequested();

private:
    QLabel *m_icon;
    QLabel *m_title;
    QLabel *m_message;
    QLabel *m_hint;
    QPushButton *m_retry;
    QPushButton *m_settings;
};

} // namespace MqttDoctor
