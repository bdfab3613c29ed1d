#include "panelloadstate.h"

#include <QLabel>

#include "models/errortext.h"
#include "widgets/loadprogresswidget.h"
#include "widgets/noticelabel.h"

namespace MqttDoctor {

using Load = AccountDataController::Load;

PanelLoadState::PanelLoadState(AccountDataController &controller, Load load, const QString &name, QWidget *panel)
    : QObject(panel), m_controller(controller), m_load(load), m_status(new QLabel(panel)), m_notice(new NoticeLabel(panel)),
      m_progress(new LoadProgressWidget(panel))
{
    m_status->setObjectName(name + QLatin1String("Status"));
    m_notice->setObjectName(name + QLatin1String("Notice"));
    m_status->setText(tr("Not loaded yet"));
    connect(m_progress, &LoadProgressWidget::cancelRequested, this, [this] { m_controller.cancel(m_load); });
    connect(&controller, &AccountDataController::failed, this, [this](Load kind, const QString &account, const Error &error) {
        if (kind == m_load && accepts(account))
            emit loadFailed(error);
    });
}

PanelLoadState::~PanelLoadState() = default;

bool PanelLoadState::setAccount(const QString &account, RunningLoad running)
{
    if (account == m_account && (m_loaded || m_loading))
        return false;
    if (m_loading && running == RunningLoad::Cancel)
        m_controller.cancel(m_load);
    m_account = account;
    m_loading = m_loaded = false;
    m_progress->finish();
    m_notice->clearNotice();
    m_status->setText(tr("Not loaded yet"));
    return true;
}

void PanelLoadState::begin(const QString &what)
{
    m_notice->clearNotice();
    m_loading = true;
    m_loaded = false;
    m_progress->start(what);
    m_status->setText(tr("Loading…"));
}

void PanelLoadState::finish()
{
    m_loading = false;
    m_loaded = true;
    m_progress->finish();
}

void PanelLoadState::fail(const QString &text, const Error &error)
{
    finish();
    m_status->setText(tr("Not loaded"));
    m_notice->showNotice(text.arg(m_account.isEmpty() ? tr("this account") : m_account, error.message(), ErrorText::hintSuffix(error)),
                         NoticeLabel::Kind::Error);
}

QString PanelLoadState::statusText() const
{
    return m_status->text();
}

QString PanelLoadState::noticeText() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

} // namespace MqttDoctor
