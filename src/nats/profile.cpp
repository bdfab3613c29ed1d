#include "nats/profile.h"

#include "common/textchecks.h"

#include <cmath>
#include <initializer_list>
#include <optional>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QUrl>

#include "common/duration.h"
#include "nats/natscontext.h"

namespace MqttDoctor {

using namespace TextChecks;

namespace detail {
// Shared with natscontext.cpp (declared there too): both parsers build credentials from the same
// field names, so the rules about which fields go together live in one place.
Result<Credentials> parseCredentials(const QJsonObject &object, const QString &prefix, const QString &baseDir);
Result<FileOrData> parseFileReference(const QString &value, const QString &field, const QString &baseDir);
} // namespace detail

namespace {

using Kind = Credentials::Kind;

constexpr int kDefaultTimeoutMs = 5000;
constexpr int kMaxTimeoutMs = 24 * 60 * 60 * 1000;

const QString kDefaultServer = QStringLiteral("nats://127.0.0.1:4222");

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
    static const QStringList names{QStringLiteral("user"),  QStringLiteral("password"), QStringLiteral("token"),
                                   QStringLiteral("nkey"),  QStringLiteral("creds"),    QStringLiteral("user_jwt"),
                                   QStringLiteral("user_seed")};
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
    auto ref = detail::parseFileReference(trimmed, field, baseDir);
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

Result<QString> stringField(const QJsonObject &object, const QString &key, const QString &field)
{
    const QJsonValue v = object.value(key);
    if (v.isUndefined() || v.isNull())
        return QString();
    if (!v.isString())
        return invalid(quoted(field) + QStringLiteral(" must be a string"));
    return v.toString();
}

Result<QStringList> parseServers(const QJsonValue &value)
{
    QStringList out;
    auto addList = [&out](const QString &text, const QString &field) -> Result<void> {
        for (const QString &part : text.split(QLatin1Char(','))) {
            if (part.trimmed().isEmpty())
                continue;
            auto url = normalizeServerUrl(part);
            if (!url)
                return Error(url.error()).prefixed(quoted(field));
            out.append(*url);
        }
        return {};
    };
    if (value.isUndefined() || value.isNull()) {
        // default below
    } else if (value.isString()) {
        if (auto r = addList(value.toString(), QStringLiteral("servers")); !r)
            return r.error();
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            const QString field = QStringLiteral("servers[%1]").arg(i);
            if (!array.at(i).isString())
                return invalid(quoted(field) + QStringLiteral(" must be a string such as \"nats://host:4222\""));
            if (auto r = addList(array.at(i).toString(), field); !r)
                return r.error();
        }
    } else {
        return invalid(QStringLiteral("\"servers\" must be an array of URLs or a comma-separated string"),
                       QStringLiteral("for example [\"nats://n1:4222\", \"nats://n2:4222\"]"));
    }
    if (out.isEmpty())
        out.append(kDefaultServer);
    return out;
}

Result<int> parseTimeout(const QJsonValue &value)
{
    const QString hint = QStringLiteral("give milliseconds (5000) or a duration such as \"5s\", \"500ms\" or \"2m\"");
    if (value.isUndefined() || value.isNull())
        return kDefaultTimeoutMs;
    double ms = 0;
    if (value.isDouble()) {
        ms = value.toDouble();
        if (!std::isfinite(ms) || ms != std::floor(ms))
            return invalid(QStringLiteral("\"timeout\" must be a whole number of milliseconds"), hint);
    } else if (value.isString()) {
        const auto parsed = parseGoDurationMs(value.toString());
        if (!parsed) {
            bool isNumber = false;
            value.toString().trimmed().toDouble(&isNumber);
            return invalid(QStringLiteral("\"timeout\" is ") + quoted(value.toString())
                               + (isNumber ? QStringLiteral(", a duration without a unit") : QStringLiteral(", not a duration")),
                           hint);
        }
        ms = std::round(*parsed);
        if (*parsed > 0 && ms < 1)
            return invalid(QStringLiteral("\"timeout\" must be at least 1ms"), hint);
    } else {
        return invalid(QStringLiteral("\"timeout\" must be a number of milliseconds or a duration string"), hint);
    }
    if (ms <= 0)
        return invalid(QStringLiteral("\"timeout\" must be greater than zero"), hint);
    if (ms > kMaxTimeoutMs)
        return invalid(QStringLiteral("\"timeout\" must be at most 24h"), hint);
    return static_cast<int>(ms);
}

/** A JetStream domain is one subject token. */
bool isValidDomain(const QString &domain)
{
    for (QChar c : domain) {
        if (c.isSpace() || c == QLatin1Char('.') || c == QLatin1Char('*') || c == QLatin1Char('>'))
            return false;
    }
    return true;
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
    return detail::parseCredentials(value.toObject(), name + QLatin1Char('.'), baseDir);
}

/** A path that natscli-style expansion would change is written as a file:// URI. */
QString pathToReference(const QString &path)
{
    const bool special = path.startsWith(QLatin1Char('~')) || path.contains(QLatin1Char('$'))
                         || path.contains(QLatin1String("://")) || path.startsWith(QLatin1String("data:"), Qt::CaseInsensitive)
                         || path.startsWith(QLatin1String("file:"), Qt::CaseInsensitive);
    if (special && QDir::isAbsolutePath(path))
        return QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded);
    return path;
}

QString dataUri(const QByteArray &data)
{
    return QStringLiteral("data:;base64,") + QString::fromLatin1(data.toBase64());
}

/** Paths always; inline content only with secrets (it may be a key or a seed). */
void putFileOrData(QJsonObject &object, const QString &key, const FileOrData &value, bool withSecrets)
{
    if (!value.path.isEmpty())
        object.insert(key, pathToReference(value.path));
    else if (!value.data.isEmpty() && withSecrets)
        object.insert(key, dataUri(value.data));
}

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
    // A JWT is a bearer credential listed with passwords (product.md §3.9): secret too.
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
        return Error(Error::Kind::Io, quoted(field) + QStringLiteral(": ") + quoted(file.path) + QStringLiteral(" is a folder, not a file"));
    if (!info.isReadable())
        return Error(Error::Kind::Io, quoted(field) + QStringLiteral(": file ") + quoted(file.path) + QStringLiteral(" is not readable"),
                     QStringLiteral("check the file's permissions"));
    return {};
}

Result<void> validateCredentials(const Credentials &c, const QString &name)
{
    auto field = [&name](const char *key) { return quoted(name + QLatin1Char('.') + QLatin1String(key)); };
    const QString kind = quoted(Credentials::kindName(c.kind));
    struct Part { const char *key; bool set; Kind kind; };
    const Part parts[] = {
        {"user", !c.user.isEmpty(), Kind::UserPassword},   {"password", !c.password.isEmpty(), Kind::UserPassword},
        {"token", !c.token.isEmpty(), Kind::Token},         {"nkey", !c.nkeySeed.isEmpty(), Kind::NKey},
        {"creds", !c.creds.isEmpty(), Kind::Creds},         {"user_jwt", !c.userJwt.isEmpty(), Kind::UserJwt},
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

QString offsetToLineColumn(const QByteArray &text, int offset)
{
    int line = 1;
    int column = 1;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        if (text.at(i) == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(column);
}

} // namespace

namespace detail {

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

} // namespace detail

Result<QByteArray> FileOrData::load() const
{
    if (isInline())
        return data;
    if (path.isEmpty())
        return invalid(QStringLiteral("no file and no inline content given"));
    const QFileInfo info(path);
    if (!info.exists())
        return Error(Error::Kind::Io, QStringLiteral("cannot read ") + quoted(path) + QStringLiteral(": the file does not exist"));
    if (info.isDir())
        return Error(Error::Kind::Io, QStringLiteral("cannot read ") + quoted(path) + QStringLiteral(": it is a folder"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error(Error::Kind::Io, QStringLiteral("cannot read ") + quoted(path) + QStringLiteral(": ") + file.errorString());
    return file.readAll();
}

QString Credentials::kindName(Kind kind)
{
    switch (kind) {
    case Kind::None: return QStringLiteral("none");
    case Kind::UserPassword: return QStringLiteral("user_password");
    case Kind::Token: return QStringLiteral("token");
    case Kind::NKey: return QStringLiteral("nkey");
    case Kind::Creds: return QStringLiteral("creds");
    case Kind::UserJwt: return QStringLiteral("user_jwt");
    }
    return QStringLiteral("none");
}

std::optional<Credentials::Kind> Credentials::kindFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    for (Kind k : {Kind::None, Kind::UserPassword, Kind::Token, Kind::NKey, Kind::Creds, Kind::UserJwt}) {
        if (n == kindName(k))
            return k;
    }
    return std::nullopt;
}

Result<Profile> Profile::fromJson(const QJsonObject &json, const QString &baseDir)
{
    if (auto r = checkKnownKeys(json,
                                {QLatin1String("name"), QLatin1String("description"), QLatin1String("servers"), QLatin1String("auth"),
                                 QLatin1String("tls"), QLatin1String("js_domain"), QLatin1String("system"), QLatin1String("accounts"),
                                 QLatin1String("timeout"), QLatin1String("allow_changes")},
                                QString());
        !r)
        return r.error();

    Profile p;
    auto name = stringField(json, QStringLiteral("name"), QStringLiteral("name"));
    if (!name)
        return name.error();
    p.name = *name;
    auto description = stringField(json, QStringLiteral("description"), QStringLiteral("description"));
    if (!description)
        return description.error();
    p.description = *description;

    auto servers = parseServers(json.value(QStringLiteral("servers")));
    if (!servers)
        return servers.error();
    p.servers = *servers;

    auto auth = parseCredentialsValue(json.value(QStringLiteral("auth")), QStringLiteral("auth"), baseDir);
    if (!auth)
        return auth.error();
    p.auth = *auth;

    const QJsonValue tls = json.value(QStringLiteral("tls"));
    if (!tls.isUndefined() && !tls.isNull()) {
        if (!tls.isObject())
            return invalid(QStringLiteral("\"tls\" must be an object such as {\"ca\": \"ca.pem\"}"));
        const QJsonObject t = tls.toObject();
        if (auto r = checkKnownKeys(t, {QLatin1String("ca"), QLatin1String("cert"), QLatin1String("key")}, QStringLiteral("tls.")); !r)
            return r.error();
        const std::pair<QString, FileOrData *> files[] = {
            {QStringLiteral("ca"), &p.tls.ca}, {QStringLiteral("cert"), &p.tls.cert}, {QStringLiteral("key"), &p.tls.key}};
        for (const auto &[key, target] : files) {
            const QString field = QStringLiteral("tls.") + key;
            auto value = stringField(t, key, field);
            if (!value)
                return value.error();
            auto ref = detail::parseFileReference(*value, field, baseDir);
            if (!ref)
                return ref.error();
            *target = *ref;
        }
    }

    auto domain = stringField(json, QStringLiteral("js_domain"), QStringLiteral("js_domain"));
    if (!domain)
        return domain.error();
    if (!isValidDomain(*domain))
        return invalid(QStringLiteral("\"js_domain\" must be one subject token, without spaces, '.', '*' or '>'"));
    p.jsDomain = *domain;

    auto system = parseCredentialsValue(json.value(QStringLiteral("system")), QStringLiteral("system"), baseDir);
    if (!system)
        return system.error();
    p.system = *system;

    const QJsonValue accounts = json.value(QStringLiteral("accounts"));
    if (!accounts.isUndefined() && !accounts.isNull()) {
        if (!accounts.isObject())
            return invalid(QStringLiteral("\"accounts\" must be an object mapping account names to credentials"),
                           QStringLiteral("for example {\"ACME\": {\"creds\": \"acme.creds\"}}"));
        const QJsonObject a = accounts.toObject();
        for (auto it = a.begin(); it != a.end(); ++it) {
            const QString account = it.key();
            const QString field = QStringLiteral("accounts.") + account;
            if (account.trimmed().isEmpty() || account.contains(QLatin1Char(' ')))
                return invalid(quoted(field) + QStringLiteral(": an account name must be non-empty and without spaces"));
            auto c = parseCredentialsValue(it.value(), field, baseDir);
            if (!c)
                return c.error();
            if (!c->isSet())
                return invalid(quoted(field) + QStringLiteral(" gives no credentials"),
                               QStringLiteral("give the account's user: creds, nkey, token, user and password, or user_jwt"));
            p.accounts.insert(account, *c);
        }
    }

    auto timeout = parseTimeout(json.value(QStringLiteral("timeout")));
    if (!timeout)
        return timeout.error();
    p.timeoutMs = *timeout;

    const QJsonValue allow = json.value(QStringLiteral("allow_changes"));
    if (!allow.isUndefined() && !allow.isNull()) {
        if (!allow.isBool())
            return invalid(QStringLiteral("\"allow_changes\" must be true or false"));
        p.allowChanges = allow.toBool();
    }
    return p;
}

Result<Profile> Profile::fromFile(const QString &path)
{
    const QString what = QStringLiteral("profile ") + quoted(path);
    const QFileInfo info(path);
    if (!info.exists())
        return Error(Error::Kind::Io, what + QStringLiteral(": the file does not exist"));
    if (info.isDir())
        return Error(Error::Kind::Io, what + QStringLiteral(": is a folder, not a file"));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error(Error::Kind::Io, what + QStringLiteral(": cannot read the file: ") + file.errorString());
    const QByteArray text = file.readAll();

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalid(what + QStringLiteral(": not valid JSON: ") + parseError.errorString() + QStringLiteral(" at ")
                       + offsetToLineColumn(text, parseError.offset));
    if (!doc.isObject())
        return invalid(what + QStringLiteral(": the file must hold one JSON object"));

    auto profile = fromJson(doc.object(), info.absolutePath());
    if (!profile)
        return Error(profile.error()).prefixed(what);
    if (profile->name.isEmpty())
        profile->name = info.completeBaseName();
    if (auto r = profile->validate(); !r)
        return Error(r.error()).prefixed(what);
    return profile;
}

QJsonObject Profile::toJson(bool withSecrets) const
{
    QJsonObject o;
    if (!name.isEmpty())
        o.insert(QStringLiteral("name"), name);
    if (!description.isEmpty())
        o.insert(QStringLiteral("description"), description);
    o.insert(QStringLiteral("servers"), QJsonArray::fromStringList(servers));
    if (auth.isSet())
        o.insert(QStringLiteral("auth"), credentialsToJson(auth, withSecrets));
    if (tls.isSet()) {
        QJsonObject t;
        putFileOrData(t, QStringLiteral("ca"), tls.ca, withSecrets);
        putFileOrData(t, QStringLiteral("cert"), tls.cert, withSecrets);
        putFileOrData(t, QStringLiteral("key"), tls.key, withSecrets);
        if (!t.isEmpty())
            o.insert(QStringLiteral("tls"), t);
    }
    if (!jsDomain.isEmpty())
        o.insert(QStringLiteral("js_domain"), jsDomain);
    if (system.isSet())
        o.insert(QStringLiteral("system"), credentialsToJson(system, withSecrets));
    if (!accounts.isEmpty()) {
        QJsonObject a;
        for (auto it = accounts.begin(); it != accounts.end(); ++it)
            a.insert(it.key(), credentialsToJson(it.value(), withSecrets));
        o.insert(QStringLiteral("accounts"), a);
    }
    o.insert(QStringLiteral("timeout"), timeoutMs);
    o.insert(QStringLiteral("allow_changes"), allowChanges);
    return o;
}

Result<void> Profile::validate() const
{
    if (servers.isEmpty())
        return invalid(QStringLiteral("\"servers\" is empty"), QStringLiteral("give at least one URL such as nats://host:4222"));
    for (qsizetype i = 0; i < servers.size(); ++i) {
        auto url = normalizeServerUrl(servers.at(i));
        if (!url)
            return Error(url.error()).prefixed(quoted(QStringLiteral("servers[%1]").arg(i)));
    }
    if (timeoutMs <= 0 || timeoutMs > kMaxTimeoutMs)
        return invalid(QStringLiteral("\"timeout\" must be between 1ms and 24h"));
    if (!isValidDomain(jsDomain))
        return invalid(QStringLiteral("\"js_domain\" must be one subject token, without spaces, '.', '*' or '>'"));

    if (auto r = validateCredentials(auth, QStringLiteral("auth")); !r)
        return r;
    if (auto r = validateCredentials(system, QStringLiteral("system")); !r)
        return r;
    for (auto it = accounts.begin(); it != accounts.end(); ++it) {
        const QString field = QStringLiteral("accounts.") + it.key();
        if (it.key().trimmed().isEmpty() || it.key().contains(QLatin1Char(' ')))
            return invalid(quoted(field) + QStringLiteral(": an account name must be non-empty and without spaces"));
        if (!it->isSet())
            return invalid(quoted(field) + QStringLiteral(" gives no credentials"));
        if (auto r = validateCredentials(*it, field); !r)
            return r;
    }

    if (tls.cert.isEmpty() != tls.key.isEmpty())
        return invalid(tls.cert.isEmpty() ? QStringLiteral("\"tls.key\" needs \"tls.cert\"") : QStringLiteral("\"tls.cert\" needs \"tls.key\""),
                       QStringLiteral("a TLS client certificate needs both the certificate and its key"));
    if (auto r = checkFile(tls.ca, QStringLiteral("tls.ca")); !r)
        return r;
    if (auto r = checkFile(tls.cert, QStringLiteral("tls.cert")); !r)
        return r;
    if (auto r = checkFile(tls.key, QStringLiteral("tls.key")); !r)
        return r;
    return {};
}

} // namespace MqttDoctor
