#include "nats/profile.h"

#include "common/inputparsing.h"

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
#include "nats/credentialsjson.h"
#include "nats/natscontext.h"

namespace MqttDoctor {

using namespace InputParsing;
using namespace CredentialsJson;

namespace {

using Kind = Credentials::Kind;

constexpr int kDefaultTimeoutMs = 5000;
constexpr int kMinTimeoutMs = 1;
constexpr int kMaxTimeoutMs = 24 * 60 * 60 * 1000;

const QString kDefaultServer = QStringLiteral("nats://127.0.0.1:4222");

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
    if (value.isDouble()) {
        const double ms = value.toDouble();
        if (!std::isfinite(ms) || ms != std::floor(ms))
            return invalid(QStringLiteral("\"timeout\" must be a whole number of milliseconds"), hint);
        return timeoutInRange(ms, QStringLiteral("\"timeout\""), QString::number(ms, 'g', 15));
    }
    if (value.isString()) {
        const auto parsed = parseGoDurationMs(value.toString());
        if (!parsed) {
            bool isNumber = false;
            value.toString().trimmed().toDouble(&isNumber);
            return invalid(QStringLiteral("\"timeout\" is ") + quoted(value.toString())
                               + (isNumber ? QStringLiteral(", a duration without a unit") : QStringLiteral(", not a duration")),
                           hint);
        }
        return timeoutInRange(*parsed, QStringLiteral("\"timeout\""), quoted(value.toString()));
    }
    return invalid(QStringLiteral("\"timeout\" must be a number of milliseconds or a duration string"), hint);
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

Result<int> timeoutInRange(double ms, const QString &field, const QString &given)
{
    const double rounded = std::round(ms);
    if (!std::isfinite(ms) || rounded < kMinTimeoutMs || rounded > kMaxTimeoutMs)
        return invalid(field + QStringLiteral(" must be between 1ms and 24h, not ") + given,
                       QStringLiteral("for example 5s, 500ms or 1m30s"));
    return static_cast<int>(rounded);
}

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

namespace {

/** "tls": {"ca", "cert", "key"}, each a file path (relative to `baseDir`) or inline PEM; absent: none. */
Result<TlsSettings> parseTls(const QJsonValue &tls, const QString &baseDir)
{
    TlsSettings out;
    if (tls.isUndefined() || tls.isNull())
        return out;
    if (!tls.isObject())
        return invalid(QStringLiteral("\"tls\" must be an object such as {\"ca\": \"ca.pem\"}"));
    const QJsonObject t = tls.toObject();
    if (auto r = checkKnownKeys(t, {QLatin1String("ca"), QLatin1String("cert"), QLatin1String("key")}, QStringLiteral("tls.")); !r)
        return r.error();
    const std::pair<QString, FileOrData *> files[] = {
        {QStringLiteral("ca"), &out.ca}, {QStringLiteral("cert"), &out.cert}, {QStringLiteral("key"), &out.key}};
    for (const auto &[key, target] : files) {
        const QString field = QStringLiteral("tls.") + key;
        auto value = stringField(t, key, field);
        if (!value)
            return value.error();
        auto ref = CredentialsJson::parseFileReference(*value, field, baseDir);
        if (!ref)
            return ref.error();
        *target = *ref;
    }
    return out;
}

/** "accounts": account name -> its credentials, each giving some; absent: none. */
Result<QMap<QString, Credentials>> parseAccounts(const QJsonValue &accounts, const QString &baseDir)
{
    QMap<QString, Credentials> out;
    if (accounts.isUndefined() || accounts.isNull())
        return out;
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
        out.insert(account, *c);
    }
    return out;
}

/** "mqtt_probe": account name -> {listener, user, password} of the MQTT probe; absent: none. */
Result<QMap<QString, MqttProbeSettings>> parseMqttProbes(const QJsonValue &probes)
{
    QMap<QString, MqttProbeSettings> out;
    if (probes.isUndefined() || probes.isNull())
        return out;
    if (!probes.isObject())
        return invalid(QStringLiteral("\"mqtt_probe\" must be an object mapping account names to an MQTT listener and user"),
                       QStringLiteral("for example {\"ACME\": {\"listener\": \"mqtt://host:1883\", \"user\": \"probe\", "
                                      "\"password\": \"...\"}}"));
    const QJsonObject a = probes.toObject();
    for (auto it = a.begin(); it != a.end(); ++it) {
        const QString field = QStringLiteral("mqtt_probe.") + it.key();
        if (it.key().trimmed().isEmpty() || it.key().contains(QLatin1Char(' ')))
            return invalid(quoted(field) + QStringLiteral(": an account name must be non-empty and without spaces"));
        if (!it.value().isObject())
            return invalid(quoted(field) + QStringLiteral(" must be an object {listener, user, password}"));
        const QJsonObject o = it.value().toObject();
        if (auto r = checkKnownKeys(o, {QLatin1String("listener"), QLatin1String("user"), QLatin1String("password")}, field + u'.'); !r)
            return r.error();
        MqttProbeSettings s;
        for (const auto &[key, target] : {std::pair<QString, QString *>{QStringLiteral("listener"), &s.listener},
                                          {QStringLiteral("user"), &s.user},
                                          {QStringLiteral("password"), &s.password}}) {
            auto value = stringField(o, key, field + u'.' + key);
            if (!value)
                return value.error();
            *target = *value;
        }
        out.insert(it.key(), s);
    }
    return out;
}

} // namespace

Result<Profile> Profile::fromJson(const QJsonObject &json, const QString &baseDir)
{
    if (auto r = checkKnownKeys(json,
                                {QLatin1String("name"), QLatin1String("description"), QLatin1String("servers"), QLatin1String("auth"),
                                 QLatin1String("tls"), QLatin1String("js_domain"), QLatin1String("system"), QLatin1String("accounts"),
                                 QLatin1String("mqtt_probe"), QLatin1String("timeout"), QLatin1String("allow_changes"),
                                 QLatin1String("history_dir")},
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

    auto tls = parseTls(json.value(QStringLiteral("tls")), baseDir);
    if (!tls)
        return tls.error();
    p.tls = *tls;

    auto domain = stringField(json, QStringLiteral("js_domain"), QStringLiteral("js_domain"));
    if (!domain)
        return domain.error();
    if (!isValidDomain(*domain))
        return invalid(QStringLiteral("\"js_domain\" must be one subject token, without spaces, '.', '*' or '>'"));
    p.jsDomain = *domain;

    auto historyDir = stringField(json, QStringLiteral("history_dir"), QStringLiteral("history_dir"));
    if (!historyDir)
        return historyDir.error();
    if (!historyDir->isEmpty()) {
        auto ref = CredentialsJson::parseFileReference(*historyDir, QStringLiteral("history_dir"), baseDir);
        if (!ref)
            return ref.error();
        if (ref->path.isEmpty())
            return invalid(QStringLiteral("\"history_dir\" must be a folder's path"));
        p.historyDir = ref->path;
    }

    auto system = parseCredentialsValue(json.value(QStringLiteral("system")), QStringLiteral("system"), baseDir);
    if (!system)
        return system.error();
    p.system = *system;

    auto accounts = parseAccounts(json.value(QStringLiteral("accounts")), baseDir);
    if (!accounts)
        return accounts.error();
    p.accounts = *accounts;

    auto probes = parseMqttProbes(json.value(QStringLiteral("mqtt_probe")));
    if (!probes)
        return probes.error();
    p.mqttProbe = *probes;

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
    if (!historyDir.isEmpty())
        o.insert(QStringLiteral("history_dir"), historyDir);
    if (system.isSet())
        o.insert(QStringLiteral("system"), credentialsToJson(system, withSecrets));
    if (!accounts.isEmpty()) {
        QJsonObject a;
        for (auto it = accounts.begin(); it != accounts.end(); ++it)
            a.insert(it.key(), credentialsToJson(it.value(), withSecrets));
        o.insert(QStringLiteral("accounts"), a);
    }
    if (!mqttProbe.isEmpty()) {
        QJsonObject a;
        for (auto it = mqttProbe.begin(); it != mqttProbe.end(); ++it) {
            QJsonObject e;
            if (!it->listener.isEmpty())
                e.insert(QStringLiteral("listener"), it->listener);
            if (!it->user.isEmpty())
                e.insert(QStringLiteral("user"), it->user);
            if (withSecrets && !it->password.isEmpty())
                e.insert(QStringLiteral("password"), it->password);
            a.insert(it.key(), e);
        }
        o.insert(QStringLiteral("mqtt_probe"), a);
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
    if (auto timeout = timeoutInRange(timeoutMs, QStringLiteral("\"timeout\""), QStringLiteral("%1ms").arg(timeoutMs)); !timeout)
        return timeout.error();
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

    for (auto it = mqttProbe.begin(); it != mqttProbe.end(); ++it)
        if (!it->listener.isEmpty())
            if (auto r = MqttProbeSettings::parseListener(it->listener, QStringLiteral("mqtt_probe.%1.listener").arg(it.key())); !r)
                return r.error();

    if (tls.cert.isEmpty() != tls.key.isEmpty())
        return invalid(tls.cert.isEmpty() ? QStringLiteral("\"tls.key\" needs \"tls.cert\"")
                                          : QStringLiteral("\"tls.cert\" needs \"tls.key\""),
                       QStringLiteral("a TLS client certificate needs both the certificate and its key"));
    if (auto r = checkFile(tls.ca, QStringLiteral("tls.ca")); !r)
        return r;
    if (auto r = checkFile(tls.cert, QStringLiteral("tls.cert")); !r)
        return r;
    if (auto r = checkFile(tls.key, QStringLiteral("tls.key")); !r)
        return r;
    return {};
}

Result<MqttProbeSettings::Address> MqttProbeSettings::parseListener(const QString &listener, const QString &field)
{
    Address a;
    QString rest = listener.trimmed();
    if (rest.startsWith(QLatin1String("mqtts://")) || rest.startsWith(QLatin1String("ssl://"))) {
        a.tls = true;
        rest = rest.section(QStringLiteral("://"), 1);
    } else if (rest.startsWith(QLatin1String("mqtt://")) || rest.startsWith(QLatin1String("tcp://"))) {
        rest = rest.section(QStringLiteral("://"), 1);
    }
    const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    a.port = colon > 0 ? rest.mid(colon + 1).toInt(&ok) : 0;
    a.host = colon > 0 ? rest.left(colon) : QString();
    if (a.host.startsWith(QLatin1Char('[')) && a.host.endsWith(QLatin1Char(']')))
        a.host = a.host.mid(1, a.host.size() - 2);
    if (!ok || a.port < 1 || a.port > 65535 || a.host.isEmpty() || a.host.contains(QLatin1Char('/')))
        return invalid(quoted(field)
                       + QStringLiteral(" must be host:port, mqtt://host:port or mqtts://host:port, not \"%1\"").arg(listener));
    return a;
}

} // namespace MqttDoctor
