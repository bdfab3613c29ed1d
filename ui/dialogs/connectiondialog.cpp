#include "connectiondialog.h"
#include "ui_connectiondialog.h"

#include <algorithm>

#include <QFileDialog>
#include <QFormLayout>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QUrl>

#include "controllers/connectiontester.h"
#include "models/iconfactory.h"
#include "nats/natscontext.h"
#include "settings/recentprofiles.h"
#include "settings/secretstore.h"
#include "widgets/errorbanner.h"
#include "models/errortext.h"

namespace MqttDoctor {

namespace {

/** True when the credentials need a secret the profile does not hold (it was not remembered). */
bool lacksSecret(const Credentials &c)
{
    switch (c.kind) {
    case Credentials::Kind::None: return false;
    case Credentials::Kind::UserPassword: return c.password.isEmpty();
    case Credentials::Kind::Token: return c.token.isEmpty();
    case Credentials::Kind::NKey: return c.nkeySeed.isEmpty();
    case Credentials::Kind::Creds: return c.creds.isEmpty();
    case Credentials::Kind::UserJwt: return c.userJwt.isEmpty() || c.userSeed.isEmpty();
    }
    return false;
}

bool lacksSecrets(const Profile &p)
{
    if (lacksSecret(p.auth) || lacksSecret(p.system))
        return true;
    return std::any_of(p.accounts.cbegin(), p.accounts.cend(), lacksSecret);
}

} // namespace

ConnectionDialog::ConnectionDialog(AsyncRunner &runner, QWidget *parent)
    : QDialog(parent), m_ui(std::make_unique<Ui::ConnectionDialog>()), m_tester(new ConnectionTester(runner, this)),
      m_contextMenu(new QMenu(this)), m_secrets(new SecretStore(this))
{
    m_ui->setupUi(this);
    setWindowIcon(IconFactory::appIcon());
    m_ui->buttonBox->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    m_ui->validationLabel->hide();
    m_ui->testResultLabel->setText(tr("Check the settings without leaving this dialog."));

    m_ui->profileLabel->setBuddy(m_ui->profileCombo);
    m_ui->serversLabel->setBuddy(m_ui->serversEdit);
    m_ui->authKindLabel->setBuddy(m_ui->authKindCombo);
    m_ui->systemKindLabel->setBuddy(m_ui->systemKindCombo);
    m_ui->jsDomainLabel->setBuddy(m_ui->jsDomainEdit);
    m_ui->timeoutLabel->setBuddy(m_ui->timeoutSpin);

    m_ui->profileCombo->addItems(RecentProfiles::names());
    m_ui->profileCombo->setCurrentIndex(-1);
    m_ui->profileCombo->lineEdit()->setPlaceholderText(tr("a name for these settings"));
    connect(m_ui->profileCombo, &QComboBox::activated, this, [this](int index) { loadRecent(m_ui->profileCombo->itemText(index)); });

    m_ui->importContextButton->setText(tr("Import natscli Context…"));
    m_ui->importContextButton->setMenu(m_contextMenu);
    // Room for the menu indicator, which the style leaves out of the size hint.
    m_ui->importContextButton->setMinimumWidth(m_ui->importContextButton->sizeHint().width() + 24);
    connect(m_contextMenu, &QMenu::aboutToShow, this, &ConnectionDialog::populateContextMenu);

    connect(m_ui->authKindCombo, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateAuthPages);
    connect(m_ui->systemKindCombo, &QComboBox::currentIndexChanged, this, &ConnectionDialog::updateAuthPages);
    updateAuthPages();
    alignFormLabels();

    const QString credsFilter = tr("NATS credentials (*.creds);;All files (*)");
    const QString pemFilter = tr("PEM files (*.pem *.crt *.key);;All files (*)");
    setupBrowse(m_ui->nkeyBrowse, m_ui->nkeyEdit, tr("NKey Seed File"), tr("NKey seeds (*.nk *.seed);;All files (*)"));
    setupBrowse(m_ui->credsBrowse, m_ui->credsEdit, tr("Credentials File"), credsFilter);
    setupBrowse(m_ui->systemCredsBrowse, m_ui->systemCredsEdit, tr("System Credentials File"), credsFilter);
    setupBrowse(m_ui->tlsCaBrowse, m_ui->tlsCaEdit, tr("CA Certificate"), pemFilter);
    setupBrowse(m_ui->tlsCertBrowse, m_ui->tlsCertEdit, tr("Client Certificate"), pemFilter);
    setupBrowse(m_ui->tlsKeyBrowse, m_ui->tlsKeyEdit, tr("Client Key"), pemFilter);

    connect(m_ui->testButton, &QPushButton::clicked, this, &ConnectionDialog::testConnection);
    connect(m_tester, &ConnectionTester::runningChanged, this, [this](bool running) {
        m_ui->testButton->setEnabled(!running);
        if (running)
            showStatus(tr("Testing the connection…"), false);
    });
    connect(m_tester, &ConnectionTester::succeeded, this, [this](const QString &summary) { showStatus(summary, true); });
    connect(m_tester, &ConnectionTester::failed, this, &ConnectionDialog::showTestFailure);
    connect(m_secrets, &SecretStore::loaded, this, &ConnectionDialog::applyKeychainSecrets);
    connect(m_secrets, &SecretStore::loadFailed, this, &ConnectionDialog::keychainFailed);
    connect(m_ui->buttonBox, &QDialogButtonBox::accepted, this, &ConnectionDialog::accept);
    connect(m_ui->buttonBox, &QDialogButtonBox::rejected, this, &ConnectionDialog::reject);

    Profile defaults;
    defaults.servers = {QStringLiteral("nats://127.0.0.1:4222")};
    setProfile(defaults);
}

ConnectionDialog::~ConnectionDialog() = default;

void ConnectionDialog::setupBrowse(QToolButton *button, QLineEdit *edit, const QString &title, const QString &filter)
{
    connect(button, &QToolButton::clicked, this, [this, edit, title, filter] {
        const QString file = QFileDialog::getOpenFileName(this, title, edit->text(), filter);
        if (!file.isEmpty())
            edit->setText(file);
    });
}

void ConnectionDialog::updateAuthPages()
{
    // One form per group, rows shown for the chosen kind (AuthImportedJwt has no fields: it keeps
    // the inline JWT and seed of an imported context).
    const int auth = m_ui->authKindCombo->currentIndex();
    m_ui->accountForm->setRowVisible(m_ui->authNoneLabel, auth == AuthNone || auth == AuthImportedJwt);
    m_ui->authNoneLabel->setText(auth == AuthImportedJwt ? tr("Signs in with the JWT and seed of the imported natscli context.")
                                                         : tr("No credentials: the server accepts anonymous clients, or only the system "
                                                              "user below is used."));
    m_ui->accountForm->setRowVisible(m_ui->userEdit, auth == AuthUserPassword);
    m_ui->accountForm->setRowVisible(m_ui->passwordEdit, auth == AuthUserPassword);
    m_ui->accountForm->setRowVisible(m_ui->tokenEdit, auth == AuthToken);
    m_ui->accountForm->setRowVisible(m_ui->nkeyEditLayout, auth == AuthNKey);
    m_ui->accountForm->setRowVisible(m_ui->credsEditLayout, auth == AuthCreds);

    const int system = m_ui->systemKindCombo->currentIndex();
    m_ui->systemForm->setRowVisible(m_ui->systemNoneLabel, system == SystemNone);
    m_ui->systemForm->setRowVisible(m_ui->systemUserEdit, system == SystemUserPassword);
    m_ui->systemForm->setRowVisible(m_ui->systemPasswordEdit, system == SystemUserPassword);
    m_ui->systemForm->setRowVisible(m_ui->systemCredsEditLayout, system == SystemCreds);
}

void ConnectionDialog::alignFormLabels()
{
    // The groups have their own forms: give every label column the same width so the fields line up.
    const QList<QFormLayout *> forms{m_ui->profileForm, m_ui->accountForm, m_ui->systemForm, m_ui->tlsForm, m_ui->optionsForm};
    QList<QWidget *> labels;
    int width = 0;
    for (QFormLayout *form : forms) {
        for (int row = 0; row < form->rowCount(); ++row) {
            QLayoutItem *item = form->itemAt(row, QFormLayout::LabelRole);
            if (item && item->widget()) {
                labels << item->widget();
                width = std::max(width, item->widget()->sizeHint().width());
            }
        }
    }
    for (QWidget *label : std::as_const(labels))
        label->setMinimumWidth(width);
}

void ConnectionDialog::setFileField(QLineEdit *edit, const FileOrData &value)
{
    edit->setText(value.path);
    edit->setPlaceholderText(value.isInline() ? tr("inline data from the imported context") : QString());
}

FileOrData ConnectionDialog::fileField(const QLineEdit *edit, const FileOrData &original) const
{
    const QString text = edit->text().trimmed();
    if (text.isEmpty())
        return original.isInline() ? original : FileOrData{};
    return FileOrData{text, {}};
}

void ConnectionDialog::setProfile(const Profile &profile)
{
    m_base = profile;
    m_ui->profileCombo->setCurrentText(profile.name);
    m_ui->serversEdit->setText(profile.servers.join(QStringLiteral(", ")));

    const Credentials &a = profile.auth;
    m_ui->userEdit->setText(a.kind == Credentials::Kind::UserPassword ? a.user : QString());
    m_ui->passwordEdit->setText(a.kind == Credentials::Kind::UserPassword ? a.password : QString());
    m_ui->tokenEdit->setText(a.token);
    setFileField(m_ui->nkeyEdit, a.nkeySeed);
    setFileField(m_ui->credsEdit, a.creds);
    if (m_ui->authKindCombo->count() > AuthImportedJwt)
        m_ui->authKindCombo->removeItem(AuthImportedJwt);
    switch (a.kind) {
    case Credentials::Kind::None: m_ui->authKindCombo->setCurrentIndex(AuthNone); break;
    case Credentials::Kind::UserPassword: m_ui->authKindCombo->setCurrentIndex(AuthUserPassword); break;
    case Credentials::Kind::Token: m_ui->authKindCombo->setCurrentIndex(AuthToken); break;
    case Credentials::Kind::NKey: m_ui->authKindCombo->setCurrentIndex(AuthNKey); break;
    case Credentials::Kind::Creds: m_ui->authKindCombo->setCurrentIndex(AuthCreds); break;
    case Credentials::Kind::UserJwt:
        m_ui->authKindCombo->addItem(tr("JWT and seed from the imported context"));
        m_ui->authKindCombo->setCurrentIndex(AuthImportedJwt);
        break;
    }

    const Credentials &s = profile.system;
    m_ui->systemUserEdit->setText(s.kind == Credentials::Kind::UserPassword ? s.user : QString());
    m_ui->systemPasswordEdit->setText(s.kind == Credentials::Kind::UserPassword ? s.password : QString());
    setFileField(m_ui->systemCredsEdit, s.creds);
    m_ui->systemKindCombo->setCurrentIndex(s.kind == Credentials::Kind::UserPassword ? SystemUserPassword
                                               : s.kind == Credentials::Kind::Creds  ? SystemCreds
                                                                                     : SystemNone);

    setFileField(m_ui->tlsCaEdit, profile.tls.ca);
    setFileField(m_ui->tlsCertEdit, profile.tls.cert);
    setFileField(m_ui->tlsKeyEdit, profile.tls.key);
    m_ui->jsDomainEdit->setText(profile.jsDomain);
    m_ui->timeoutSpin->setValue(profile.timeoutMs / 1000.0);
    m_ui->allowChangesCheck->setChecked(profile.allowChanges);
    updateAuthPages();
}

Profile ConnectionDialog::profile() const
{
    Profile p = m_base;
    p.servers.clear();
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString &url : m_ui->serversEdit->text().split(separators, Qt::SkipEmptyParts))
        p.servers << url;
    p.name = m_ui->profileCombo->currentText().trimmed();
    if (p.name.isEmpty() && !p.servers.isEmpty()) {
        const QUrl url = QUrl::fromUserInput(p.servers.first());
        p.name = url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : p.servers.first();
    }

    Credentials a;
    switch (m_ui->authKindCombo->currentIndex()) {
    case AuthUserPassword:
        a.kind = Credentials::Kind::UserPassword;
        a.user = m_ui->userEdit->text().trimmed();
        a.password = m_ui->passwordEdit->text();
        break;
    case AuthToken:
        a.kind = Credentials::Kind::Token;
        a.token = m_ui->tokenEdit->text();
        break;
    case AuthNKey:
        a.kind = Credentials::Kind::NKey;
        a.nkeySeed = fileField(m_ui->nkeyEdit, m_base.auth.nkeySeed);
        break;
    case AuthCreds:
        a.kind = Credentials::Kind::Creds;
        a.creds = fileField(m_ui->credsEdit, m_base.auth.creds);
        break;
    case AuthImportedJwt: a = m_base.auth; break;
    default: break;
    }
    p.auth = a;

    Credentials s;
    switch (m_ui->systemKindCombo->currentIndex()) {
    case SystemUserPassword:
        s.kind = Credentials::Kind::UserPassword;
        s.user = m_ui->systemUserEdit->text().trimmed();
        s.password = m_ui->systemPasswordEdit->text();
        break;
    case SystemCreds:
        s.kind = Credentials::Kind::Creds;
        s.creds = fileField(m_ui->systemCredsEdit, m_base.system.creds);
        break;
    default: break;
    }
    p.system = s;

    p.tls.ca = fileField(m_ui->tlsCaEdit, m_base.tls.ca);
    p.tls.cert = fileField(m_ui->tlsCertEdit, m_base.tls.cert);
    p.tls.key = fileField(m_ui->tlsKeyEdit, m_base.tls.key);
    p.jsDomain = m_ui->jsDomainEdit->text().trimmed();
    p.timeoutMs = std::max(100, static_cast<int>(m_ui->timeoutSpin->value() * 1000));
    p.allowChanges = m_ui->allowChangesCheck->isChecked();
    return p;
}

Result<Profile> ConnectionDialog::validatedProfile() const
{
    Profile p = profile();
    if (auto valid = p.validate(); !valid)
        return valid.error();
    return p;
}

void ConnectionDialog::accept()
{
    auto p = validatedProfile();
    if (!p) {
        m_ui->validationLabel->setText(
            QStringLiteral("<b>%1</b> %2 %3")
                .arg(tr("Cannot connect yet:").toHtmlEscaped(), p.error().message().toHtmlEscaped(), p.error().hint().toHtmlEscaped()));
        m_ui->validationLabel->show();
        return;
    }
    m_ui->validationLabel->hide();
    m_tester->cancel();
    // Settings get the profile without secrets; the secrets go to the keychain, or nowhere.
    RecentProfiles::remember(*p);
    m_secrets->store(*p);
    QDialog::accept();
}

void ConnectionDialog::testConnection()
{
    auto p = validatedProfile();
    if (!p) {
        showTestFailure(p.error());
        return;
    }
    m_tester->test(*p);
}

bool ConnectionDialog::isTesting() const
{
    return m_tester->isRunning();
}

QString ConnectionDialog::statusText() const
{
    return m_ui->testResultLabel->text();
}

void ConnectionDialog::showStatus(const QString &text, bool good, bool bad)
{
    m_ui->testResultLabel->setText(text);
    QPalette pal = palette();
    if (good)
        pal.setColor(QPalette::WindowText, QColor(0x1b, 0x6e, 0x3a));
    else if (bad)
        pal.setColor(QPalette::WindowText, QColor(0xa3, 0x1f, 0x1f));
    m_ui->testResultLabel->setPalette(pal);
}

void ConnectionDialog::showTestFailure(const Error &error)
{
    showStatus(ErrorBanner::titleFor(error) + QStringLiteral(": ") + ErrorText::withHint(error, QStringLiteral(" — ")), false, true);
}

void ConnectionDialog::loadRecent(const QString &name)
{
    const auto p = RecentProfiles::load(name);
    if (!p)
        return;
    setProfile(*p);
    if (!lacksSecrets(*p)) {
        showStatus(tr("Loaded %1.").arg(name), false);
        return;
    }
    focusMissingSecret(*p);
    showStatus(tr("Loaded %1; reading its secrets from the keychain…").arg(name), false);
    m_secrets->load(name);
}

void ConnectionDialog::applyKeychainSecrets(const QString &name, const Profile &secrets)
{
    if (m_ui->profileCombo->currentText().trimmed() != name)
        return; // another profile was chosen meanwhile
    const Profile merged = SecretStore::withSecretsFrom(profile(), secrets);
    setProfile(merged);
    if (lacksSecrets(merged)) {
        focusMissingSecret(merged);
        showStatus(tr("Loaded %1; the keychain lacks some of its secrets: enter them.").arg(name), false);
    } else {
        showStatus(tr("Loaded %1 with its secrets from the keychain.").arg(name), false);
    }
}

void ConnectionDialog::keychainFailed(const QString &name, const QString &reason, bool /*notFound*/)
{
    if (m_ui->profileCombo->currentText().trimmed() != name)
        return;
    showStatus(tr("Loaded %1. Its secrets are not saved (%2): enter them again.").arg(name, reason), false);
}

void ConnectionDialog::focusMissingSecret(const Profile &p)
{
    if (p.auth.kind == Credentials::Kind::UserPassword && p.auth.password.isEmpty())
        m_ui->passwordEdit->setFocus();
    else if (p.auth.kind == Credentials::Kind::Token && p.auth.token.isEmpty())
        m_ui->tokenEdit->setFocus();
    else if (p.system.kind == Credentials::Kind::UserPassword && p.system.password.isEmpty())
        m_ui->systemPasswordEdit->setFocus();
}

void ConnectionDialog::populateContextMenu()
{
    m_contextMenu->clear();
    const QStringList names = NatsContext::list();
    const QString selected = NatsContext::selected();
    if (names.isEmpty()) {
        QAction *none = m_contextMenu->addAction(tr("No contexts in %1/context").arg(NatsContext::configDir()));
        none->setEnabled(false);
    }
    for (const QString &name : names) {
        QAction *action = m_contextMenu->addAction(name == selected ? tr("%1 (selected)").arg(name) : name);
        connect(action, &QAction::triggered, this, [this, name] { importContext(name); });
    }
    m_contextMenu->addSeparator();
    QAction *file = m_contextMenu->addAction(tr("Context File…"));
    connect(file, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("natscli Context"), NatsContext::configDir(),
                                                          tr("natscli contexts (*.json);;All files (*)"));
        if (!path.isEmpty())
            importContext(path);
    });
}

void ConnectionDialog::importContext(const QString &nameOrPath)
{
    auto ctx = NatsContext::load(nameOrPath);
    if (!ctx) {
        showTestFailure(Error(ctx.error()).prefixed(tr("natscli context %1").arg(nameOrPath)));
        return;
    }
    // The context describes the default connection; the system account and options stay.
    Profile p = profile();
    p.name = ctx->name.isEmpty() ? p.name : ctx->name;
    p.servers = ctx->servers;
    p.auth = ctx->auth;
    p.tls = ctx->tls;
    if (!ctx->jsDomain.isEmpty())
        p.jsDomain = ctx->jsDomain;
    setProfile(p);
    showStatus(tr("Imported the natscli context %1.").arg(ctx->name.isEmpty() ? nameOrPath : ctx->name), false);
}

} // namespace MqttDoctor
