#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

struct Profile;

/** One applied step (docs/safety.md). */
struct AuditEntry
{
    QDateTime time; ///< when the step ended; now when left invalid
    QString profile; ///< the profile's name (never its credentials)
    QString account;
    QString action; ///< "restore", "delete_consumer", ...
    QString stream; ///< may be empty
    QJsonArray requests; ///< what was sent: AuditLog::request(subject, body) objects
    QString outcome; ///< "ok", "error" or "cancelled"
    QString error; ///< the error text when outcome is not "ok"
    QJsonObject details; ///< counts and notes (e.g. messages restored)
};

/**
 * The append-only audit log: one JSON object per line, one line per applied step, in the user's data
 * folder shared by the CLI and the desktop application
 * (`$XDG_DATA_HOME/nats-mqtt-doctor/audit.jsonl`, else `~/.local/share/nats-mqtt-doctor/audit.jsonl`).
 * Never holds a secret: known secret fields (password, token, seed, jwt, creds, ...) are removed from
 * request bodies, and every secret of the profile (passwords, tokens, seeds, JWTs, inline creds) is
 * replaced by "[redacted]" wherever it would appear. Each entry is written with one append and
 * synced to disk. Any thread; several processes may append at once.
 */
class AuditLog final
{
public:
    explicit AuditLog(QString path = defaultPath());

    static QString defaultPath();
    QString path() const { return m_path; }

    /** Appends an entry (redacted against `profile`); creates the folder and file as needed. */
    Result<void> append(const AuditEntry &entry, const Profile &profile) const;

    /** {"subject": ..., "body": ...} for AuditEntry::requests. */
    static QJsonObject request(const QString &subject, const QJsonObject &body = {});
    /** The line append() writes (exposed for tests). */
    static QByteArray render(const AuditEntry &entry, const Profile &profile);
    /** The profile's secret strings (passwords, tokens, seeds, JWTs, inline creds/keys); never empty strings. */
    static QStringList secretsOf(const Profile &profile);

private:
    QString m_path;
};

} // namespace MqttDoctor
