#include "connectionoptions.h"

#include <QCommandLineParser>

#include "common/duration.h"
#include "nats/natscontext.h"

namespace MqttDoctor {

namespace {

struct OptionSpec
{
    QStringList names;
    const char *description;
    const char *valueName;
};

const QList<OptionSpec> &specs()
{
    static const QList<OptionSpec> list = {
        {{QStringLiteral("profile")}, "Profile JSON file with servers and all credentials (see docs/profile.md).", "file"},
        {{QStringLiteral("context")}, "natscli context to connect with.", "name"},
        {{QStringLiteral("s"), QStringLiteral("server")}, "NATS server URL(s), comma separated.", "urls"},
        {{QStringLiteral("user")}, "User name.", "user"},
        {{QStringLiteral("password")}, "Password.", "password"},
        {{QStringLiteral("token")}, "Authentication token.", "token"},
        {{QStringLiteral("creds")}, "User credentials (.creds) file.", "file"},
        {{QStringLiteral("nkey")}, "User NKey seed file.", "file"},
        {{QStringLiteral("tlscert")}, "TLS client certificate file.", "file"},
        {{QStringLiteral("tlskey")}, "TLS client key file.", "file"},
        {{QStringLiteral("tlsca")}, "TLS CA certificate file to verify the server.", "file"},
        {{QStringLiteral("js-domain")}, "JetStream domain.", "domain"},
        {{QStringLiteral("timeout")}, "Time to wait for connecting and for each request: 1ms to 24h (default 5s).", "duration"},
        {{QStringLiteral("system-user")}, "System-account user (for discovery across accounts).", "user"},
        {{QStringLiteral("system-password")}, "System-account password.", "password"},
        {{QStringLiteral("system-creds")}, "System-account credentials (.creds) file.", "file"},
        {{QStringLiteral("system-context")}, "natscli context of a system-account user.", "name"},
        {{QStringLiteral("mqtt-listener")},
         "MQTT listener for the end-to-end probe, host:port or mqtt(s)://host:port (default: the one the servers report).",
         "address"},
        {{QStringLiteral("mqtt-user")}, "MQTT user of the account for the end-to-end probe (check --probe, repair).", "user"},
        {{QStringLiteral("mqtt-password")}, "The MQTT user's password.", "password"},
    };
    return list;
}

QString value(const QCommandLineParser &p, const char *name)
{
    return p.value(QString::fromLatin1(name));
}

} // namespace

QList<QCommandLineOption> ConnectionOptions::options()
{
    QList<QCommandLineOption> list;
    for (const OptionSpec &s : specs())
        list.append(QCommandLineOption(s.names, QString::fromLatin1(s.description), QString::fromLatin1(s.valueName)));
    list.append(QCommandLineOption(QStringLiteral("allow-changes"), QStringLiteral("Allow changes to the servers (read-only otherwise).")));
    return list;
}

void ConnectionOptions::addTo(QCommandLineParser &parser)
{
    parser.addOptions(options());
}

ConnectionOptions ConnectionOptions::fromParser(const QCommandLineParser &p)
{
    ConnectionOptions o;
    o.profileFile = value(p, "profile");
    o.context = value(p, "context");
    o.server = value(p, "server");
    o.user = value(p, "user");
    o.password = value(p, "password");
    o.token = value(p, "token");
    o.creds = value(p, "creds");
    o.nkey = value(p, "nkey");
    o.tlsCert = value(p, "tlscert");
    o.tlsKey = value(p, "tlskey");
    o.tlsCa = value(p, "tlsca");
    o.jsDomain = value(p, "js-domain");
    o.timeout = value(p, "timeout");
    o.systemUser = value(p, "system-user");
    o.systemPassword = value(p, "system-password");
    o.systemCreds = value(p, "system-creds");
    o.systemContext = value(p, "system-context");
    o.mqttListener = value(p, "mqtt-listener");
    o.mqttUser = value(p, "mqtt-user");
    o.mqttPassword = value(p, "mqtt-password");
    o.allowChanges = p.isSet(QStringLiteral("allow-changes"));
    return o;
}

bool ConnectionOptions::isEmpty() const
{
    return profileFile.isEmpty() && context.isEmpty() && server.isEmpty();
}

Result<int> parseDurationMs(const QString &text)
{
    const QString t = text.trimmed();
    bool isNumber = false;
    const double seconds = t.toDouble(&isNumber);
    // natscli takes a bare number as seconds.
    const std::optional<double> ms = isNumber ? std::optional<double>(seconds * 1000) : parseGoDurationMs(t);
    if (!ms)
        return Error(Error::Kind::InvalidInput, QStringLiteral("--timeout \"%1\" is not a duration").arg(text),
                     QStringLiteral("write it like 5s, 500ms, 1m30s or 2h"))
            .asUsage();
    auto inRange = timeoutInRange(*ms, QStringLiteral("--timeout"), QStringLiteral("\"%1\"").arg(text));
    if (!inRange)
        return Error(inRange.error()).asUsage();
    return inRange;
}

namespace {

Result<FileOrData> fileRef(const QString &path, const char *option)
{
    return NatsContext::resolveReference(path, QStringLiteral("--") + QString::fromLatin1(option));
}

/** The profile file, then the context over it (its servers, credentials and TLS; its domain and name where given). */
Result<Profile> baseProfile(const ConnectionOptions &o)
{
    Profile profile;
    if (!o.profileFile.isEmpty()) {
        auto loaded = Profile::fromFile(o.profileFile);
        if (!loaded)
            return loaded.error();
        profile = *loaded;
    }
    if (!o.context.isEmpty()) {
        auto ctx = NatsContext::load(o.context);
        if (!ctx)
            return ctx.error();
        profile.servers = ctx->servers;
        profile.auth = ctx->auth;
        profile.tls = ctx->tls;
        if (!ctx->jsDomain.isEmpty())
            profile.jsDomain = ctx->jsDomain;
        if (profile.name.isEmpty())
            profile.name = ctx->name;
    }
    return profile;
}

/** --user/--password, --token, --creds or --nkey (one of them) in place of the profile's credentials. */
Result<void> applyAuth(const ConnectionOptions &o, Profile &profile)
{
    const int authGiven = int(!o.user.isEmpty()) + int(!o.token.isEmpty()) + int(!o.creds.isEmpty()) + int(!o.nkey.isEmpty());
    if (authGiven > 1)
        return Error(Error::Kind::InvalidInput, QStringLiteral("give only one of --user, --token, --creds and --nkey")).asUsage();
    if (!o.password.isEmpty() && o.user.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("--password needs --user")).asUsage();
    if (!o.user.isEmpty()) {
        profile.auth = Credentials{};
        profile.auth.kind = Credentials::Kind::UserPassword;
        profile.auth.user = o.user;
        profile.auth.password = o.password;
    } else if (!o.token.isEmpty()) {
        profile.auth = Credentials{};
        profile.auth.kind = Credentials::Kind::Token;
        profile.auth.token = o.token;
    } else if (!o.creds.isEmpty()) {
        auto ref = fileRef(o.creds, "creds");
        if (!ref)
            return ref.error();
        profile.auth = Credentials{};
        profile.auth.kind = Credentials::Kind::Creds;
        profile.auth.creds = *ref;
    } else if (!o.nkey.isEmpty()) {
        auto ref = fileRef(o.nkey, "nkey");
        if (!ref)
            return ref.error();
        profile.auth = Credentials{};
        profile.auth.kind = Credentials::Kind::NKey;
        profile.auth.nkeySeed = *ref;
    }
    return {};
}

/** --tlsca, --tlscert and --tlskey, each in place of the profile's file. */
Result<void> applyTls(const ConnectionOptions &o, Profile &profile)
{
    const struct
    {
        const QString &path;
        FileOrData TlsSettings::*field;
        const char *option;
    } tlsFiles[] = {
        {o.tlsCa, &TlsSettings::ca, "tlsca"}, {o.tlsCert, &TlsSettings::cert, "tlscert"}, {o.tlsKey, &TlsSettings::key, "tlskey"}};
    for (const auto &f : tlsFiles) {
        if (f.path.isEmpty())
            continue;
        auto ref = fileRef(f.path, f.option);
        if (!ref)
            return ref.error();
        profile.tls.*(f.field) = *ref;
    }
    return {};
}

/**
 * The system account's credentials: --system-context (whose servers and TLS fill in what nothing else gave),
 * then --system-user/--system-password or --system-creds over it.
 */
Result<void> applySystem(const ConnectionOptions &o, Profile &profile)
{
    if (!o.systemContext.isEmpty()) {
        auto ctx = NatsContext::load(o.systemContext);
        if (!ctx)
            return ctx.error().prefixed(QStringLiteral("--system-context"));
        profile.system = ctx->auth;
        if (profile.servers.isEmpty())
            profile.servers = ctx->servers;
        if (!profile.tls.isSet())
            profile.tls = ctx->tls;
    }
    if (!o.systemPassword.isEmpty() && o.systemUser.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("--system-password needs --system-user")).asUsage();
    if (!o.systemUser.isEmpty() && !o.systemCreds.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("give either --system-user or --system-creds, not both")).asUsage();
    if (!o.systemUser.isEmpty()) {
        profile.system = Credentials{};
        profile.system.kind = Credentials::Kind::UserPassword;
        profile.system.user = o.systemUser;
        profile.system.password = o.systemPassword;
    } else if (!o.systemCreds.isEmpty()) {
        auto ref = fileRef(o.systemCreds, "system-creds");
        if (!ref)
            return ref.error();
        profile.system = Credentials{};
        profile.system.kind = Credentials::Kind::Creds;
        profile.system.creds = *ref;
    }
    return {};
}

} // namespace

Result<Profile> ConnectionOptions::toProfile() const
{
    // Layered: the profile file, the context, then each option given over them.
    auto base = baseProfile(*this);
    if (!base)
        return base.error();
    Profile profile = std::move(base).value();
    if (!server.isEmpty())
        profile.servers = server.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString &s : profile.servers)
        s = s.trimmed();
    if (auto r = applyAuth(*this, profile); !r)
        return r.error();
    if (auto r = applyTls(*this, profile); !r)
        return r.error();
    if (!jsDomain.isEmpty())
        profile.jsDomain = jsDomain;
    if (!timeout.isEmpty()) {
        auto ms = parseDurationMs(timeout);
        if (!ms)
            return ms.error();
        profile.timeoutMs = *ms;
    }
    if (auto r = applySystem(*this, profile); !r)
        return r.error();
    if (!mqttPassword.isEmpty() && mqttUser.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("--mqtt-password needs --mqtt-user")).asUsage();
    if (!mqttListener.isEmpty() || !mqttUser.isEmpty())
        profile.mqttProbe.insert(Profile::kAnyAccount, MqttProbeSettings{mqttListener, mqttUser, mqttPassword});
    if (allowChanges)
        profile.allowChanges = true;
    if (profile.servers.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("no server given"),
                     QStringLiteral("use --server nats://host:4222, --context NAME or --profile FILE"))
            .asUsage();
    if (auto valid = profile.validate(); !valid)
        return valid.error();
    return profile;
}

} // namespace MqttDoctor
