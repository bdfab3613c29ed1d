#pragma once

#include <memory>

#include <QDialog>

#include "common/result.h"
#include "nats/profile.h"

class QLineEdit;
class QMenu;
class QToolButton;

namespace Ui {
class ConnectionDialog;
}

namespace MqttDoctor {

class AsyncRunner;
class ConnectionTester;
class SecretStore;

/**
 * Edits a connection profile: server URLs, the default connection's credentials, the system
 * account, TLS files, JetStream domain, timeout and the allow-changes switch. "Test connection"
 * connects on the worker pool and shows the outcome inline; "Import natscli context" fills the
 * fields from a saved context. Accepting validates first and remembers the profile without its
 * secrets (RecentProfiles); the secrets go to the OS keychain (SecretStore) when one answers, and
 * are asked for again when not. The dialog never blocks on the network.
 */
class ConnectionDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConnectionDialog)

public:
    /** runner runs "Test connection"; it must outlive the dialog (the controller's pool). */
    explicit ConnectionDialog(AsyncRunner &runner, QWidget *parent = nullptr);
    ~ConnectionDialog() override;

    /** Fills the fields; profile parts the dialog does not show (per-account credentials) are kept. */
    void setProfile(const Profile &profile);
    /** The profile the fields describe (not validated). */
    Profile profile() const;
    /** profile() after Profile::validate(); the error names the field. */
    Result<Profile> validatedProfile() const;

    /**
     * Fills the fields from a remembered profile (RecentProfiles), then its secrets from the
     * keychain when it has them (asynchronously); without a keychain it asks for them again.
     */
    void loadRecent(const QString &name);
    /** The keychain of the dialog (signals stored/loaded/loadFailed, for status and tests). */
    SecretStore *secretStore() const { return m_secrets; }
    /** Fills servers, credentials, TLS and domain from a natscli context (name or .json path). */
    void importContext(const QString &nameOrPath);
    /** Starts a test connection with the current fields. */
    void testConnection();
    bool isTesting() const;
    /** The text of the inline test result / import message. */
    QString statusText() const;

    void accept() override;

private:
    enum AuthIndex { AuthNone, AuthUserPassword, AuthToken, AuthNKey, AuthCreds, AuthImportedJwt };
    enum SystemIndex { SystemNone, SystemUserPassword, SystemCreds };

    void setupBrowse(QToolButton *button, QLineEdit *edit, const QString &title, const QString &filter);
    void populateContextMenu();
    void showStatus(const QString &text, bool good, bool bad = false);
    void showTestFailure(const Error &error);
    void updateAuthPages();
    void alignFormLabels();
    FileOrData fileField(const QLineEdit *edit, const FileOrData &original) const;
    void setFileField(QLineEdit *edit, const FileOrData &value);
    void applyKeychainSecrets(const QString &name, const Profile &secrets);
    void keychainFailed(const QString &name, const QString &reason, bool notFound);
    void focusMissingSecret(const Profile &profile);

    std::unique_ptr<Ui::ConnectionDialog> m_ui;
    ConnectionTester *m_tester;
    QMenu *m_contextMenu;
    SecretStore *m_secrets;
    Profile m_base; ///< the profile last set: supplies what the fields do not show
};

} // namespace MqttDoctor
