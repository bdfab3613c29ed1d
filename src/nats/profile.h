#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

/**
 * A secret or certificate that comes either from a file or inline (natscli's `data:` URIs, or the
 * `user_jwt`/`user_seed` fields). Inline content never touches the disk.
 */
struct FileOrData
{
    QString path; ///< expanded absolute or relative path; empty when inline
    QByteArray data; ///< inline content; empty when from a file

    bool isEmpty() const { return path.isEmpty() && data.isEmpty(); }
    bool isInline() const { return path.isEmpty() && !data.isEmpty(); }
    /** The content: the inline data, or the file read now. */
    Result<QByteArray> load() const;
    bool operator==(const FileOrData &) const = default;
};

/** How one connection authenticates. */
struct Credentials
{
    enum class Kind { None, UserPassword, Token, NKey, Creds, UserJwt };

    Kind kind = Kind::None;
    QString user;
    QString password; ///< secret
    QString token; ///< secret
    FileOrData nkeySeed; ///< Kind::NKey: the seed file (secret)
    FileOrData creds; ///< Kind::Creds: the .creds file holding JWT and seed (secret)
    QString userJwt; ///< Kind::UserJwt: inline JWT
    QString userSeed; ///< Kind::UserJwt: inline seed (secret)

    bool isSet() const { return kind != Kind::None; }
    bool operator==(const Credentials &) const = default;

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
};

struct TlsSettings
{
    FileOrData ca;
    FileOrData cert;
    FileOrData key;

    bool isSet() const { return !ca.isEmpty() || !cert.isEmpty() || !key.isEmpty(); }
    bool operator==(const TlsSettings &) const = default;
};

/**
 * How the end-to-end probe reaches an account's MQTT service (the profile's `mqtt_probe` entry of the
 * account, docs/profile.md): an MQTT user of the account that may connect, publish and subscribe under
 * `nats-mqtt-doctor/probe/`, and the listener (empty: the MQTT listener the servers report).
 */
struct MqttProbeSettings
{
    QString listener; ///< "host:port", "mqtt://host:port" or "mqtts://host:port" (TLS with the profile's files); empty: the servers'
    QString user; ///< empty: none
    QString password; ///< secret

    /** The listener's host, port and TLS; an InvalidInput error naming `field` when it is not host:port. */
    struct Address
    {
        QString host;
        int port = 0;
        bool tls = false;
    };
    static Result<Address> parseListener(const QString &listener, const QString &field);
    bool operator==(const MqttProbeSettings &) const = default;
};

/**
 * One cluster: its server URLs, TLS, JetStream domain, an optional system
 * connection for discovery across accounts, and per-account connections for reading records and
 * changing anything. `auth` is the default connection's credentials (a user of some account, or the
 * system user when it is the only one given).
 */
struct Profile
{
    QString name;
    QString description;
    QStringList servers; ///< nats://, tls://, ws:// ... URLs; several for a cluster
    Credentials auth; ///< the default connection
    TlsSettings tls; ///< shared by every connection of the profile
    QString jsDomain; ///< JetStream domain, empty for none
    QString historyDir; ///< the folder of the history databases (`history_dir`); empty: the default
    Credentials system; ///< system-account connection; kind None when not given
    QMap<QString, Credentials> accounts; ///< account name -> its credentials
    /** Account name -> how the MQTT probe reaches it (`mqtt_probe`); kAnyAccount: every account without an entry of its own. */
    QMap<QString, MqttProbeSettings> mqttProbe;
    static inline const QString kAnyAccount = QStringLiteral("*");
    int timeoutMs = 5000; ///< per request and for connecting
    bool allowChanges = false; ///< read-only unless set (docs/safety.md)

    bool hasSystem() const { return system.isSet(); }
    bool operator==(const Profile &) const = default;

    /** Parses the documented profile JSON (docs/profile.md); relative paths resolve against baseDir. */
    static Result<Profile> fromJson(const QJsonObject &json, const QString &baseDir = {});
    static Result<Profile> fromFile(const QString &path);
    /** Serializes; secrets (passwords, tokens, inline seeds) only when withSecrets is true. */
    QJsonObject toJson(bool withSecrets) const;
    /** Checks URLs and file references; the error names the offending field. */
    Result<void> validate() const;
};

/**
 * The one range of a timeout, wherever it is given (the command line's --timeout, a profile's
 * "timeout"): 1 ms to 24 h. `ms` rounded to whole milliseconds when it is in the range, else the one
 * error for both: `<field> must be between 1ms and 24h, not <given>` (InvalidInput).
 */
Result<int> timeoutInRange(double ms, const QString &field, const QString &given);

/**
 * Parses and checks one server URL (scheme nats, tls, ws, wss or none; host; port 1..65535).
 * Returns the normalized URL ("nats://host:4222" when no scheme/port was given).
 */
Result<QString> normalizeServerUrl(const QString &url);

} // namespace MqttDoctor
