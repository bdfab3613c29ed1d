#pragma once

#include <optional>

#include <QStringList>

#include "nats/profile.h"

namespace MqttDoctor {

/**
 * The profiles used before, remembered with QSettings without any secret: names, URLs, user
 * names, file paths and options only (Profile::toJson(false)). Passwords, tokens, JWTs and inline
 * seeds are never written here: SecretStore keeps them in the OS keychain, or nowhere. Most recent
 * first, at most maxCount(). GUI thread.
 */
class RecentProfiles final
{
public:
    static QStringList names();
    /** The remembered profile (without secrets), or nothing when unknown or unreadable. */
    static std::optional<Profile> load(const QString &name);
    /** Remembers the profile (secrets stripped) as the most recent one. */
    static void remember(const Profile &profile);
    static void forget(const QString &name);
    static int maxCount() { return 10; }
};

} // namespace MqttDoctor
