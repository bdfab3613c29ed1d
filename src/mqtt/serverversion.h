#pragma once

#include <QMetaType>
#include <QString>

#include <compare>

#include "common/result.h"

namespace MqttDoctor {

/**
 * A nats-server version such as "2.9.10", "v2.11.0-RC.1" or "2.10.27-binary" (a Debian or build suffix),
 * comparable as major.minor.patch with a pre-release sorting before its release (semantic versioning).
 * A value type; pure and thread-safe.
 */
class ServerVersion final
{
public:
    ServerVersion() = default;
    ServerVersion(int majorVersion, int minorVersion, int patchVersion, QString preRelease = {});

    /**
     * Parses "2.9.10", "v2.10.27", "2.11", "2.11.0-RC.1", "2.12.0-beta.3+build". Needs at least major.minor;
     * anything that is not a version is an InvalidInput error.
     */
    static Result<ServerVersion> parse(const QString &text);

    bool isValid() const { return m_valid; }
    int majorVersion() const { return m_major; }
    int minorVersion() const { return m_minor; }
    int patchVersion() const { return m_patch; }
    /** "RC.1", "beta.3"; empty for a release. */
    QString preRelease() const { return m_preRelease; }

    /** major * 1000000 + minor * 1000 + patch: 2.9.10 → 2009010, 2.10.27 → 2010027 (pre-release ignored). */
    qint64 number() const;
    /** True when this version is at least major.minor.patch (a pre-release of that version is not). */
    bool atLeast(int majorVersion, int minorVersion, int patchVersion = 0) const;
    /** "2.11.0-RC.1" (without a leading "v"). */
    QString toString() const;

    friend bool operator==(const ServerVersion &a, const ServerVersion &b) { return compare(a, b) == 0; }
    friend std::strong_ordering operator<=>(const ServerVersion &a, const ServerVersion &b) { return compare(a, b) <=> 0; }

private:
    static int compare(const ServerVersion &a, const ServerVersion &b);

    int m_major = 0;
    int m_minor = 0;
    int m_patch = 0;
    QString m_preRelease;
    bool m_valid = false;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::ServerVersion)
