#include "nats/credentialsjson.h"

#include <optional>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>

#include "common/inputparsing.h"
#include "nats/natscontext.h"

namespace MqttDoctor::CredentialsJson {

using namespace InputParsing;

namespace {

using Kind = Credentials::Kind;

bool isBase64UrlChar(QChar c)
{
    return isAsciiLetter(c) || isAsciiDigit(c) || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('=');
}

/** A user JWT: three base64url segments, the header starting with `{"` (`eyJ`). */

bool looksLikeJwt(const QString &text)
{
    if (!text.startsWith(QLatin1String("eyJ")))
        return false;
    int dots = 0;
    for (QChar c : text) {
        if (c == QLatin1Char('.'))
            ++dots;
        else if (!isBase64UrlChar(c))
            return false;
    }
    return dots == 2;
}

/** An NKey seed: 'S', then base32 (A-Z, 2-7); real ones are 58 characters. */

bool looksLikeSeed(const QString &text)
{
    if (text.size() < 40 || !text.startsWith(QLatin1Char('S')))
        return false;
    for (QChar c : text) {
        const bool base32 = (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('2') && c <= QLatin1Char('7'));
        if (!base32)
            return false;
    }
    return true;
}

/** Which credential kind a field of the auth object belongs to; nullopt for unknown fields. */

std::optional<Kind> kindOfAuthField(const QString &key)
{
    if (key == QLatin1String("user") || key == QLatin1String("password"))
        return Kind::UserPassword;
    if (key == QLatin1String("token"))
        return Kind::Token;
    if (key == QLatin1String("nkey"))
        return Kind::NKey;
    if (key == QLatin1String("creds"))
        return Kind::Creds;
    if (key == QLatin1String("user_jwt") || key == QLatin1String("user_seed"))
        return Kind::UserJwt;
    return std::nullopt;
}

// In a fixed order, so that messages about conflicting fields do not depend on JSON key order.

const QStringList &authFieldNames()
{
    static const QStringList names{QStringLiteral("user"),  QStringLiteral("password"), QStringLiteral("token"),    QStringLiteral("nkey"),
                                   QStringLiteral("creds"), QStringLiteral("user_jwt"), QStringLiteral("user_seed")};
    return names;
}

QString authWaysHint()
{
    return QStringLiteral("authenticate one way only: \"user\" with \"password\", \"token\", \"nkey\", \"creds\", "
                          "or \"user_jwt\" with \"user_seed\"");
}

/**
 * `user_jwt` and `user_seed` hold the value itself, or (as natscli writes them with `--embed` or
 * from files) a reference to it: data:, file://, a path, ~ or $VAR.
 */

Result<QString> parseInlineSecret(const QString &value, const QString &field, const QString &baseDir, bool isJwt)
{
    const QString trimmed = value.trimmed();
    if (isJwt ? looksLikeJwt(trimmed) : looksLikeSeed(trimmed))
        return trimmed;
    auto ref = parseFileReference(trimmed, field, baseDir);
    if (!ref)
        return ref.error();
    if (ref->isInline())
        return QString::fromUtf8(ref->data).trimmed();
    const QString what = isJwt ? QStringLiteral("a user JWT") : QStringLiteral("an NKey seed");
    if (ref->path.isEmpty() || !QFileInfo(ref->path).isFile())
        return invalid(quoted(field) + QStringLiteral(" is neither ") + what + QStringLiteral(" nor a file that exists"),
                       QStringLiteral("give the value itself, a data: URI, or the path of a file holding it"));
    auto content = ref->load();
    if (!content)
        return Error(content.error()).prefixed(quoted(field));
    return QString::fromUtf8(*content).trimmed();
}

QString pathToReference(const QString &path)
{
    const bool special = path.startsWith(QLatin1Char('~')) || path.contains(QLatin1Char('$')) || path.contains(QLatin1String("://"))
        || path.startsWith(QLatin1String("data:"), Qt::CaseInsensitive) || path.startsWith(QLatin1String("file:"), Qt::CaseInsensitive);
    if (special && QDir::isAbsolutePath(path))
        return QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded);
    return path;
}

QString dataUri(const QByteArray &data)
{
    return QStringLiteral("data:;base64,") + QString::fromLatin1(data.toBase64());
}

/** Paths always; inline content only with secrets (it may be a key or a seed). */

} // namespace

void putFileOrData(QJsonObject &object, const QString &key, const FileOrData &value, bool withSecrets)
{
    if (!value.path.isEmpty())
        object.insert(key, pathToReference(value.path));
    else if (!value.data.isEmpty() && withSecrets)
        object.insert(key, dataUri(value.data));
}

Result<QString> stringField(const QJsonObject &object, const QString &key, const QString &field)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined() || v.isNull())
        return QString();
    if (!v.isString())
        return invalid(quoted(field) + QStringLiteral(" must be a string"));
    return v.toString();
}

Result<void> checkKnownKeys(const QJsonObject &object, std::initializer_list<QLatin1String> known, const QString &prefix)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        if (key.startsWith(QLatin1Char('_')))
            continue; // comments
        bool found = false;
        QStringList names;
        for (QLatin1String k : known) {
            found = found || key == k;
            names.append(k);
        }
        if (!found)
            return invalid(QStringLiteral("unknown field ") + quoted(prefix + key),
                           QStringLiteral("known fields: ") + names.join(QStringLiteral(", ")));
    }
    return {};
}

Result<Credentials> parseCredentialsValue(const QJsonValue &value, const QString &name, const QString &baseDir)
{
    if (value.isUndefined() || value.isNull())
        return Credentials{};
    if (!value.isObject())
        return invalid(quoted(name) + QStringLiteral(" must be an object such as {\"user\": \"u\", \"password\": \"p\"}"));
    return parseCredentials(value.toObject(), name + QLatin1Char('.'), baseDir);
}

/** A path that natscli-style expansion would change is written as a file:// URI. */

QJsonObject credentialsToJson(const Credentials &c, bool withSecrets)
{
    QJsonObject o;
    o.insert(QStringLiteral("kind"), Credentials::kindName(c.kind));
    if (!c.user.isEmpty())
        o.insert(QStringLiteral("user"), c.user);
    if (withSecrets && !c.password.isEmpty())
        o.insert(QStringLiteral("password"), c.password);
    if (withSecrets && !c.token.isEmpty())
        o.insert(QStringLiteral("token"), c.token);
    putFileOrData(o, QStringLiteral("nkey"), c.nkeySeed, withSecrets);
    putFileOrData(o, QStringLiteral("creds"), c.creds, withSecrets);
    // A JWT is a bearer credential listed with passwords (docs/safety.md): secret too.
    if (withSecrets && !c.userJwt.isEmpty())
        o.insert(QStringLiteral("user_jwt"), looksLikeJwt(c.userJwt) ? c.userJwt : dataUri(c.userJwt.toUtf8()));
    if (withSecrets && !c.userSeed.isEmpty())
        o.insert(QStringLiteral("user_seed"), looksLikeSeed(c.userSeed) ? c.userSeed : dataUri(c.userSeed.toUtf8()));
    return o;
}

Result<void> checkFile(const FileOrData &file, const QString &field)
{
    if (file.path.isEmpty())
        return {};
    const QFileInfo info(file.path);
    if (!info.exists())
        return Error(Error::Kind::Io, quoted(field) + QStringLiteral(": file ") + quoted(file.path) + QStringLiteral(" does not exist"));
    if (info.isDir())
        return Error(Error::Kind::Io,
                     quoted(field) + QStringLiteral(": ") + quoted(file.path) + QStringLiteral(" is a folder, not a file"));
    if (!info.isReadable())
        return Error(Error::Kind::Io, quoted(field) + QStringLiteral(": file ") + quoted(file.path) + QStringLiteral(" is not readable"),
                     QStringLiteral("check the file's permissions"));
    return {};
}

Result<void> validateCredentials(const Credentials &c, const QString &name)
{
    auto field = [&name](const char *key) { return quoted(name + QLatin1Char('.') + QLatin1String(key)); };
    const QString kind = quoted(Credentials::kindName(c.kind));
    struct Part
    {
        const char *key;
        bool set;
        Kind kind;
    };
    const Part parts[] = {
        {"user", !c.user.isEmpty(), Kind::UserPassword},     {"password", !c.password.isEmpty(), Kind::UserPassword},
        {"token", !c.token.isEmpty(), Kind::Token},          {"nkey", !c.nkeySeed.isEmpty(), Kind::NKey},
        {"creds", !c.creds.isEmpty(), Kind::Creds},          {"user_jwt", !c.userJwt.isEmpty(), Kind::UserJwt},
        {"user_seed", !c.userSeed.isEmpty(), Kind::UserJwt},
    };
    for (const Part &p : parts) {
        if (p.set && p.kind != c.kind)
            return invalid(field(p.key) + QStringLiteral(" is set but the kind is ") + kind, authWaysHint());
    }
    if (c.kind == Kind::UserPassword && c.user.isEmpty())
        return invalid(field("user") + QStringLiteral(" is empty; user and password authentication needs a user name"));
    if (auto r = checkFile(c.nkeySeed, name + QStringLiteral(".nkey")); !r)
        return r;
    if (auto r = checkFile(c.creds, name + QStringLiteral(".creds")); !r)
        return r;
    return {};
}

Result<FileOrData> parseFileReference(const QString &value, const QString &field, const QString &baseDir)
{
    auto ref = NatsContext::resolveReference(value, field);
    if (!ref)
        return ref.error();
    FileOrData out = *ref;
    if (!out.path.isEmpty() && !baseDir.isEmpty() && QDir::isRelativePath(out.path))
        out.path = QDir::cleanPath(QDir(baseDir).absoluteFilePath(out.path));
    return out;
}

Result<Credentials> parseCredentials(const QJsonObject &object, const QString &prefix, const QString &baseDir)
{
    auto field = [&prefix](const QString &key) { return quoted(prefix + key); };
    std::optional<Kind> explicitKind;
    QMap<QString, QString> values;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString key = it.key();
        if (key.startsWith(QLatin1Char('_')))
            continue;
        if (key == QLatin1String("kind")) {
            const QString name = it.value().toString();
            explicitKind = it.value().isString() ? Credentials::kindFromName(name) : std::nullopt;
            if (!explicitKind)
                return invalid(field(key) + QStringLiteral(" must be one of none, user_password, token, nkey, creds, user_jwt"));
            continue;
        }
        if (!kindOfAuthField(key))
            return invalid(QStringLiteral("unknown field ") + field(key),
                           QStringLiteral("known fields: kind, ") + authFieldNames().join(QStringLiteral(", ")));
        if (it.value().isNull())
            continue;
        if (!it.value().isString())
            return invalid(field(key) + QStringLiteral(" must be a string"));
        if (!it.value().toString().isEmpty()) // natscli writes every field, empty when unused
            values.insert(key, it.value().toString());
    }

    Kind kind = explicitKind.value_or(Kind::None);
    QString firstKey;
    for (const QString &key : authFieldNames()) {
        if (!values.contains(key))
            continue;
        const Kind keyKind = *kindOfAuthField(key);
        if (explicitKind) {
            if (keyKind != *explicitKind)
                return invalid(field(key) + QStringLiteral(" cannot be used with ") + field(QStringLiteral("kind")) + QLatin1Char(' ')
                                   + quoted(Credentials::kindName(*explicitKind)),
                               authWaysHint());
        } else if (firstKey.isEmpty()) {
            firstKey = key;
            kind = keyKind;
        } else if (keyKind != kind) {
            // Name every field given, so "user + password + token" names all three.
            QStringList given;
            for (const QString &k : authFieldNames()) {
                if (values.contains(k))
                    given.append(field(k));
            }
            const QString last = given.takeLast();
            return invalid(given.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last + QStringLiteral(" cannot be used together"),
                           authWaysHint());
        }
    }

    // With an explicit kind the secrets may be missing (a profile saved without them); the user
    // name never is a secret, so user and password always need it.
    if (kind == Kind::UserPassword && !values.contains(QStringLiteral("user")))
        return invalid(field(QStringLiteral("password")) + QStringLiteral(" needs ") + field(QStringLiteral("user")));
    if (kind == Kind::UserJwt && !explicitKind) {
        if (!values.contains(QStringLiteral("user_seed")))
            return invalid(field(QStringLiteral("user_jwt")) + QStringLiteral(" needs ") + field(QStringLiteral("user_seed")));
        if (!values.contains(QStringLiteral("user_jwt")))
            return invalid(field(QStringLiteral("user_seed")) + QStringLiteral(" needs ") + field(QStringLiteral("user_jwt")));
    }

    Credentials c;
    c.kind = kind;
    c.user = values.value(QStringLiteral("user"));
    c.password = values.value(QStringLiteral("password"));
    c.token = values.value(QStringLiteral("token"));
    if (values.contains(QStringLiteral("nkey"))) {
        auto ref = parseFileReference(values.value(QStringLiteral("nkey")), prefix + QStringLiteral("nkey"), baseDir);
        if (!ref)
            return ref.error();
        c.nkeySeed = *ref;
    }
    if (values.contains(QStringLiteral("creds"))) {
        auto ref = parseFileReference(values.value(QStringLiteral("creds")), prefix + QStringLiteral("creds"), baseDir);
        if (!ref)
            return ref.error();
        c.creds = *ref;
    }
    if (values.contains(QStringLiteral("user_jwt"))) {
        auto jwt = parseInlineSecret(values.value(QStringLiteral("user_jwt")), prefix + QStringLiteral("user_jwt"), baseDir, true);
        if (!jwt)
            return jwt.error();
        c.userJwt = *jwt;
    }
    if (values.contains(QStringLiteral("user_seed"))) {
        auto seed = parseInlineSecret(values.value(QStringLiteral("user_seed")), prefix + QStringLiteral("user_seed"), baseDir, false);
        if (!seed)
            return seed.error();
        c.userSeed = *seed;
    }
    return c;
}

} // namespace MqttDoctor::CredentialsJson
