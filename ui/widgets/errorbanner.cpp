#include "errorbanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

#include "models/iconfactory.h"
#include "models/errortext.h"

namespace MqttDoctor {

ErrorBanner::ErrorBanner(QWidget *parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_title(new QLabel(this)), m_message(new QLabel(this)), m_hint(new QLabel(this)),
      m_retry(new QPushButton(tr("&Retry"), this)), m_settings(new QPushButton(tr("Connection &Settings…"), this))
{
    setObjectName(QStringLiteral("errorBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette pal = palette();
    pal.setColor(QPalette::Window, QColor(0xfd, 0xec, 0xea));
    pal.setColor(QPalette::WindowText, QColor(0x5f, 0x21, 0x20));
    setPalette(pal);

    m_icon->setPixmap(IconFactory::icon(IconFactory::Kind::Error).pixmap(24, 24));
    m_icon->setAlignment(Qt::AlignTop);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setObjectName(QStringLiteral("errorTitle"));
    for (QLabel *label : {m_message, m_hint}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_message->setObjectName(QStringLiteral("errorMessage"));
    m_hint->setObjectName(QStringLiteral("errorHint"));

    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(tr("Hide this message"));

    auto *text = new QVBoxLayout;
    text->setSpacing(2);
    text->addWidget(m_title);
    text->addWidget(m_message);
    text->addWidget(m_hint);

    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_retry);
    buttons->addWidget(m_settings);
    buttons->addStretch();

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 8);
    layout->addWidget(m_icon);
    layout->addLayout(text, 1);
    layout->addLayout(buttons);
    layout->addWidget(close, 0, Qt::AlignTop);

    connect(m_retry, &QPushButton::clicked, this, &ErrorBanner::retryRequested);
    connect(m_settings, &QPushButton::clicked, this, &ErrorBanner::settingsRequested);
    connect(close, &QToolButton::clicked, this, &ErrorBanner::dismiss);
    hide();
}

ErrorBanner::~ErrorBanner() = default;

QString ErrorBanner::titleFor(const Error &error)
{
    switch (error.kind()) {
    case Error::Kind::ConnectionRefused: return tr("Cannot reach the server");
    case Error::Kind::Dns: return tr("The server's host name does not resolve");
    case Error::Kind::NotNatsServer: return tr("Not a NATS server");
    case Error::Kind::AuthFailed: return tr("Authentication failed");
    case Error::Kind::Tls: return tr("TLS problem");
    case Error::Kind::Timeout: return tr("The server did not answer in time");
    case Error::Kind::NoSystemAccess: return tr("No system-account access");
    case Error::Kind::NoResponders: return tr("Nobody answered the request");
    case Error::Kind::PermissionDenied: return tr("Permission denied");
    case Error::Kind::JetStream: return tr("JetStream refused the request");
    case Error::Kind::NotFound: return tr("Not found");
    case Error::Kind::InvalidInput: return tr("The connection settings are incomplete");
    case Error::Kind::Io: return tr("A local file could not be read");
    case Error::Kind::ReadOnly: return tr("Changes are not allowed");
    case Error::Kind::Protocol: return tr("Unexpected reply from the server");
    case Error::Kind::None:
    case Error::Kind::Internal: break;
    }
    return tr("Something went wrong");
}

void ErrorBanner::showError(const Error &error)
{
    m_title->setText(titleFor(error));
    QString message = error.message();
    if (error.jsErrCode() != 0)
        message += tr(" (JetStream error %1)").arg(error.jsErrCode());
    m_message->setText(message);
    const QString hint = ErrorText::hint(error);
    m_hint->setText(hint.isEmpty() ? QString() : tr("What to do: %1").arg(hint));
    m_hint->setVisible(!hint.isEmpty());
    show();
}

void ErrorBanner::dismiss()
{
    hide();
}

QString ErrorBanner::title() const
{
    return m_title->text();
}

QString ErrorBanner::message() const
{
    return m_message->text();
}

QString ErrorBanner::hint() const
{
    return m_hint->text();
}

} // namespace MqttDoctor
