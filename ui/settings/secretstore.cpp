#include "secretstore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QPointer>

#include <qt6keychain/keychain.h>

namespace MqttDoctor {

namespace {

QString entryKey(const QString &profileName)
{
    return QStringLiteral("profile/") + profileName;
}

/** The jobs belong to the application, so they finish even when the store (a dialog's child) is gone. */
QObject *jobOwner()
{
    return QCoreApplication::instance();
}

template<typename Job>
Job *makeJob(const QString &profileName)
{
    auto *job = new Job(SecretStore::serviceName(), jobOwner());
    job->setAutoDelete(true);
    // Never QtKeychain's plain-text QSettings store: without a keychain, nothing is kept (rule 9).
    job->setInsecureFallback(false);
    job->setKey(entryKey(profileName));
    return job;
}

QString describe(const QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::NoBackendAvailable: return SecretStore::tr("no keychain service is available");
    case QKeychain::AccessDeniedByUser: return SecretStore::tr("access to the keychain was refused");
    case QKeychain::AccessDenied: return SecretStore::tr("the keychain denied access (%1)").arg(job->errorString());
    case QKeychain::EntryNotFound: return SecretStore::tr("the keychain has nothing saved for this profile");
    default:
        // Typical on a machine without a desktop session: no D-Bus session bus or no unlocked keyring.
        return SecretStore::tr("no keychain answered: %1").arg(job->errorString());
    }
}

template<typename T>
void fillIfEmpty(T &into, const T &from)
{
    if (into.isEmpty())
        into = from;
}

void mergeFile(FileOrData &into, const FileOrData &from)
{
    // Paths are kept in the settings; only inline content comes from the keychain.
    if (into.isEmpty() && from.isInline())
        into = from;
}

void mergeCredentials(Credentials &into, const Credentials &from)
{
    if (into.kind != from.kind || into.user != from.user)
        return; // the login changed since the secrets were saved: they no longer belong to it
    fillIfEmpty(into.password, from.password);
    fillIfEmpty(into.token, from.token);
    fillIfEmpty(into.userJwt, from.userJwt);
    fillIfEmpty(into.userSeed, from.userSeed);
    mergeFile(into.nkeySeed, from.nkeySeed);
    mergeFile(into.creds, from.creds);
}

} // namespace

SecretStore::SecretStore(QObject *parent) : QObject(parent) {}

SecretStore::~SecretStore() = default;

QString SecretStore::serviceName()
{
    return QStringLiteral("nats-mqtt-doctor");
}

bool SecretStore::hasSecrets(const Profile &profile)
{
    return profile.toJson(true) != profile.toJson(false);
}

Profile SecretStore::withSecretsFrom(const Profile &profile, const Profile &secrets)
{
    Profile out = profile;
    mergeCredentials(out.auth, secrets.auth);
    mergeCredentials(out.system, secrets.system);
    for (auto it = out.accounts.begin(); it != out.accounts.end(); ++it)
        if (const auto from = secrets.accounts.constFind(it.key()); from != secrets.accounts.cend())
            mergeCredentials(it.value(), from.value());
    mergeFile(out.tls.ca, secrets.tls.ca);
    mergeFile(out.tls.cert, secrets.tls.cert);
    mergeFile(out.tls.key, secrets.tls.key);
    return out;
}

void SecretStore::store(const Profile &profile)
{
    if (profile.name.isEmpty())
        return;
    if (!hasSecrets(profile)) {
        remove(profile.name); // an older entry would fill in secrets the profile no longer has
        emit stored(profile.name, true, {});
        return;
    }
    auto *job = makeJob<QKeychain::WritePasswordJob>(profile.name);
    job->setBinaryData(QJsonDocument(profile.toJson(true)).toJson(QJsonDocument::Compact));
    const QString name = profile.name;
    connect(job, &QKeychain::Job::finished, this, [this, name](QKeychain::Job *done) {
        emit stored(name, done->error() == QKeychain::NoError, done->error() == QKeychain::NoError ? QString() : describe(done));
    });
    job->start();
}

void SecretStore::load(const QString &profileName)
{
    auto *job = makeJob<QKeychain::ReadPasswordJob>(profileName);
    connect(job, &QKeychain::Job::finished, this, [this, profileName](QKeychain::Job *done) {
        if (done->error() != QKeychain::NoError) {
            emit loadFailed(profileName, describe(done), done->error() == QKeychain::EntryNotFound);
            return;
        }
        const QByteArray data = static_cast<QKeychain::ReadPasswordJob *>(done)->binaryData();
        const QJsonDocument doc = QJsonDocument::fromJson(data);
        auto secrets = doc.isObject() ? Profile::fromJson(doc.object()) : Result<Profile>(Error(Error::Kind::InvalidInput, {}));
        if (!secrets) {
            // The parse error could quote the entry: report only that it is unreadable.
            emit loadFailed(profileName, tr("the keychain entry is unreadable"), false);
            return;
        }
        emit loaded(profileName, *secrets);
    });
    job->start();
}

void SecretStore::remove(const QString &profileName)
{
    if (profileName.isEmpty())
        return;
    makeJob<QKeychain::DeletePasswordJob>(profileName)->start();
}

} // namespace MqttDoctor
