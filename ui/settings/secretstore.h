#pragma once

#include <QObject>
#include <QString>

#include "nats/profile.h"

namespace MqttDoctor {

/**
 * The secrets of remembered profiles (passwords, tokens, inline seeds and JWTs, inline TLS keys) in
 * the OS keychain through QtKeychain, one entry per profile name (docs/safety.md). RecentProfiles
 * keeps everything else in QSettings, never a secret.
 *
 * When no keychain answers (a headless machine without a D-Bus session or without an unlocked
 * collection) nothing is stored: QtKeychain's plain-text fallback is
 * switched off, so the user is asked for the secrets again. The failure reason is reported but never
 * contains a secret.
 *
 * Threads: GUI thread. The keychain jobs are asynchronous (D-Bus); results come back as signals.
 * A job outlives a store that is destroyed first (its result is then dropped), so a dialog may
 * close right after store().
 */
class SecretStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SecretStore)

public:
    explicit SecretStore(QObject *parent = nullptr);
    ~SecretStore() override;

    /** The keychain service name the entries are stored under. */
    static QString serviceName();
    /** True when the profile holds anything rule 9 calls a secret. */
    static bool hasSecrets(const Profile &profile);
    /**
     * `profile` with the secrets of `secrets` filled in where the credentials still describe the
     * same login (same kind and user); fields that are already set are kept.
     */
    static Profile withSecretsFrom(const Profile &profile, const Profile &secrets);

    /** Writes the profile's secrets (or removes the entry when it has none); emits stored(). */
    void store(const Profile &profile);
    /** Reads the secrets remembered for a profile name; emits loaded() or loadFailed(). */
    void load(const QString &profileName);
    /** Forgets a profile's secrets (nothing is reported; a missing entry is fine). */
    static void remove(const QString &profileName);

Q_SIGNALS:
    /** ok false: nothing was stored; `reason` says why (no keychain, locked, ...). */
    void stored(const QString &profileName, bool ok, const QString &reason);
    /** The remembered secrets as a profile (only its secret fields matter; see withSecretsFrom()). */
    void loaded(const QString &profileName, const MqttDoctor::Profile &secrets);
    /** notFound: the keychain answered but holds nothing for the name; else it did not answer. */
    void loadFailed(const QString &profileName, const QString &reason, bool notFound);
};

} // namespace MqttDoctor
