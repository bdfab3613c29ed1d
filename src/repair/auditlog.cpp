#include "repair/auditlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include "nats/profile.h"
#include "repair/privatefiles.h"
#include "repair/backupformat.h"

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace MqttDoctor {

namespace {

const QLatin1String kRedacted("[redacted]");
constexpr qsizetype kMinSecretLength = 4; // shorter strings would blank out ordinary text

bool isSecretKey(const QString &key)
{
    static const QRegularExpression re(QStringLiteral("pass|token|secret|seed|jwt|creds|nkey|private|auth"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re.match(key).hasMatch();
}

QString redactText(QString text, const QStringList &secrets)
{
    for (const QString &s : secrets)
        text.replace(s, kRedacted);
    // Whatever looks like an NKey seed or a JWT, even if not from this profile.
    static const QRegularExpression seed(QStringLiteral("\\bS[UAONCPX][A-Z2-7]{50,}\\b"));
    static const QRegularExpression jwt(QStringLiteral("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*"));
    text.replace(seed, kRedacted);
    text.replace(jwt, kRedacted);
    return text;
}

QJsonValue redactValue(const QJsonValue &value, const QStringList &secrets);

QJsonObject redactObject(const QJsonObject &object, const QStringList &secrets)
{
    QJsonObject out;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString key = redactText(it.key(), secrets);
        if (isSecretKey(it.key()) && (it.value().isString() || it.value().isObject() || it.value().isArray()))
            out.insert(key, kRedacted);
        else
            out.insert(key, redactValue(it.value(), secrets));
    }
    return out;
}

QJsonValue redactValue(const QJsonValue &value, const QStringList &secrets)
{
    if (value.isString())
        return redactText(value.toString(), secrets);
    if (value.isObject())
        return redactObject(value.toObject(), secrets);
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &v : value.toArray())
            out.append(redactValue(v, secrets));
        return out;
    }
    return value;
}

void addSecrets(QStringList &out, const Credentials &c)
{
    out << c.password << c.token << c.userJwt << c.userSeed << QString::fromUtf8(c.nkeySeed.data) << QString::fromUtf8(c.creds.data);
    // A .creds blob's JWT and seed lines, so that either alone is caught too.
    for (const QByteArray &line : c.creds.data.split('\n'))
        out << QString::fromUtf8(line.trimmed());
    for (const QByteArray &line : c.nkeySeed.data.split('\n'))
        out << QString::fromUtf8(line.trimmed());
}

} // namespace

AuditLog::AuditLog(QString path) : m_path(std::move(path)) {}

QString AuditLog::defaultPath()
{
    // Generic, not per-application: the CLI and the desktop application share one log.
    QString base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (base.isEmpty())
        base = QDir::homePath() + QStringLiteral("/.local/share");
    return base + QStringLiteral("/nats-mqtt-doctor/audit.jsonl");
}

QJsonObject AuditLog::request(const QString &subject, const QJsonObject &body)
{
    return QJsonObject{{QStringLiteral("subject"), subject}, {QStringLiteral("body"), body}};
}

QStringList AuditLog::secretsOf(const Profile &profile)
{
    QStringList all;
    addSecrets(all, profile.auth);
    addSecrets(all, profile.system);
    for (const Credentials &c : profile.accounts)
        addSecrets(all, c);
    all << QString::fromUtf8(profile.tls.key.data);
    QStringList out;
    for (const QString &s : std::as_const(all))
        if (s.size() >= kMinSecretLength && !s.startsWith(QLatin1String("-----")) && !out.contains(s))
            out << s;
    // Longest first, so that a secret containing another is replaced whole.
    std::sort(out.begin(), out.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
    return out;
}

QByteArray AuditLog::render(const AuditEntry &entry, const Profile &profile)
{
    const QDateTime time = entry.time.isValid() ? entry.time : QDateTime::currentDateTimeUtc();
    QJsonObject o{{QStringLiteral("time"), BackupFormat::formatTime(time.toMSecsSinceEpoch() * 1000000)},
                  {QStringLiteral("profile"), entry.profile},
                  {QStringLiteral("account"), entry.account},
                  {QStringLiteral("action"), entry.action},
                  {QStringLiteral("stream"), entry.stream},
                  {QStringLiteral("requests"), entry.requests},
                  {QStringLiteral("outcome"), entry.outcome.isEmpty() ? QStringLiteral("ok") : entry.outcome},
                  {QStringLiteral("details"), entry.details}};
    if (!entry.error.isEmpty())
        o.insert(QStringLiteral("error"), entry.error);
    return BackupFormat::encodeLine(redactObject(o, secretsOf(profile)));
}

Result<void> AuditLog::append(const AuditEntry &entry, const Profile &profile) const
{
    const QByteArray line = render(entry, profile);
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!PrivateFiles::makePath(dir))
        return Error(Error::Kind::Io, QStringLiteral("cannot create the audit log folder %1").arg(dir));
    QFile file(m_path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered, PrivateFiles::kFilePermissions))
        return Error(Error::Kind::Io, QStringLiteral("cannot open the audit log %1: %2").arg(m_path, file.errorString()));
    // One write of the whole line: appends from several processes do not interleave.
    if (file.write(line) != line.size() || !file.flush())
        return Error(Error::Kind::Io, QStringLiteral("cannot write the audit log %1: %2").arg(m_path, file.errorString()));
#ifdef Q_OS_UNIX
    ::fsync(file.handle());
#endif
    return {};
}

} // namespace MqttDoctor
