#include "recentprofiles.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>

#include "settings/secretstore.h"

namespace MqttDoctor {

namespace {

const QString kGroup = QStringLiteral("recentProfiles");
const QString kEntry = QStringLiteral("profile");

QList<QJsonObject> readAll()
{
    QSettings settings;
    QList<QJsonObject> out;
    const int n = settings.beginReadArray(kGroup);
    for (int i = 0; i < n; ++i) {
        settings.setArrayIndex(i);
        const QJsonDocument doc = QJsonDocument::fromJson(settings.value(kEntry).toByteArray());
        if (doc.isObject())
            out.append(doc.object());
    }
    settings.endArray();
    return out;
}

void writeAll(const QList<QJsonObject> &profiles)
{
    QSettings settings;
    settings.remove(kGroup);
    settings.beginWriteArray(kGroup, static_cast<int>(profiles.size()));
    for (qsizetype i = 0; i < profiles.size(); ++i) {
        settings.setArrayIndex(static_cast<int>(i));
        settings.setValue(kEntry, QJsonDocument(profiles[i]).toJson(QJsonDocument::Compact));
    }
    settings.endArray();
}

QString nameOf(const QJsonObject &o)
{
    return o.value(QLatin1String("name")).toString();
}

} // namespace

QStringList RecentProfiles::names()
{
    QStringList out;
    for (const QJsonObject &o : readAll())
        out << nameOf(o);
    return out;
}

std::optional<Profile> RecentProfiles::load(const QString &name)
{
    for (const QJsonObject &o : readAll()) {
        if (nameOf(o) != name)
            continue;
        auto profile = Profile::fromJson(o);
        if (!profile)
            return std::nullopt;
        return *profile;
    }
    return std::nullopt;
}

void RecentProfiles::remember(const Profile &profile)
{
    if (profile.name.isEmpty())
        return;
    QList<QJsonObject> all = readAll();
    all.removeIf([&](const QJsonObject &o) { return nameOf(o) == profile.name; });
    all.prepend(profile.toJson(false));
    while (all.size() > maxCount()) {
        SecretStore::remove(nameOf(all.last())); // its keychain entry goes with it
        all.removeLast();
    }
    writeAll(all);
}

void RecentProfiles::forget(const QString &name)
{
    QList<QJsonObject> all = readAll();
    all.removeIf([&](const QJsonObject &o) { return nameOf(o) == name; });
    writeAll(all);
    SecretStore::remove(name);
}

} // namespace MqttDoctor
