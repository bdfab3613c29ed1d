#include "nats/natscontext.h"

#include "common/inputparsing.h"
#include "nats/credentialsjson.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QJsonValue>
#include <QUrl>

namespace MqttDoctor {

using namespace InputParsing;

namespace {

const QString kDefaultUrl = QStringLiteral("nats://127.0.0.1:4222");

QString fileHint(const QString &field)
{
    if (field == QLatin1String("user") || field == QLatin1String("password") || field == QLatin1String("token"))
        return QStringLiteral("write the value itself into the context (\"nats context edit\"), or use a creds or nkey file");
    return QStringLiteral("save the secret to a file only you can read and give its path (~ and $VAR work there), "
                          "or inline it as a data: URI");
}

/** The "not supported" error for a reference scheme natscli resolves but we do not; nullopt for others. */
std::optional<Error> unsupportedScheme(const QString &reference, const QString &field)
{
    const QString f = QStringLiteral("field ") + quoted(field);
    if (reference.startsWith(QLatin1String("nsc://"), Qt::CaseInsensitive))
        return invalid(f
                       + QStringLiteral(" uses an nsc:// reference, which is not supported by NATS MQTT Doctor; "
                                        "export the user's credentials with \"nsc generate creds\" and give the .creds file's path"));
    if (reference.startsWith(QLatin1String("op://"), Qt::CaseInsensitive))
        return invalid(f + QStringLiteral(" uses a 1Password (op://) reference, which is not supported by NATS MQTT Doctor; ")
                       + fileHint(field));
    if (reference.startsWith(QLatin1String("env://"), Qt::CaseInsensitive))
        return invalid(f + QStringLiteral(" uses an env:// reference, which is not supported by NATS MQTT Doctor; ") + fileHint(field));
    return std::nullopt;
}

bool isVariableChar(QChar c, bool first)
{
    const bool letter =
        (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || c == QLatin1Char('_');
    return letter || (!first && c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

/** Expands $VAR and ${VAR}; an unset variable is an error (an empty path would only confuse later). */
Result<QString> expandVariables(const QString &text, const QString &field)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c != QLatin1Char('$') || i + 1 >= text.size()) {
            out.append(c);
            continue;
        }
        QString name;
        qsizetype end = i;
        if (text.at(i + 1) == QLatin1Char('{')) {
            const qsizetype close = text.indexOf(QLatin1Char('}'), i + 2);
            if (close < 0)
                return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" has \"${\" without its closing \"}\""));
            name = text.mid(i + 2, close - i - 2);
            end = close;
            bool valid = !name.isEmpty();
            for (qsizetype k = 0; k < name.size(); ++k)
                valid = valid && isVariableChar(name.at(k), k == 0);
            if (!valid)
                return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" has an invalid variable name in \"${...}\""));
        } else if (isVariableChar(text.at(i + 1), true)) {
            end = i + 1;
            while (end + 1 < text.size() && isVariableChar(text.at(end + 1), false))
                ++end;
            name = text.mid(i + 1, end - i);
        } else {
            out.append(c); // a lone '$' is literal
            continue;
        }
        if (!qEnvironmentVariableIsSet(name.toLocal8Bit().constData()))
            return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" uses $") + name
                               + QStringLiteral(", which is not set in the environment"),
                           QStringLiteral("set the variable or write the path out"));
        out.append(qEnvironmentVariable(name.toLocal8Bit().constData()));
        i = end;
    }
    return out;
}

/** RFC 2397: data:[<media type>][;base64],<content> */
Result<FileOrData> parseDataUri(const QString &reference, const QString &field)
{
    const QString f = QStringLiteral("field ") + quoted(field);
    const qsizetype comma = reference.indexOf(QLatin1Char(','));
    if (comma < 0)
        return invalid(f + QStringLiteral(": a data: URI needs a ',' before its content"),
                       QStringLiteral("for example data:;base64,SGVsbG8= or data:,text"));
    const QString meta = reference.mid(5, comma - 5).trimmed().toLower();
    const QString content = reference.mid(comma + 1);
    FileOrData out;
    if (meta == QLatin1String("base64") || meta.endsWith(QLatin1String(";base64"))) {
        QByteArray encoded;
        for (QChar c : content) {
            if (c.isSpace())
                continue;
            if (c.unicode() > 0x7f)
                return invalid(f + QStringLiteral(": the data: URI's content is not valid base64"));
            encoded.append(static_cast<char>(c.unicode()));
        }
        auto decoded = QByteArray::fromBase64Encoding(encoded, QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            decoded = QByteArray::fromBase64Encoding(encoded, QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
        if (!decoded)
            return invalid(f + QStringLiteral(": the data: URI's content is not valid base64"));
        out.data = *decoded;
    } else {
        out.data = QByteArray::fromPercentEncoding(content.toUtf8());
    }
    if (out.data.isEmpty())
        return invalid(f + QStringLiteral(": the data: URI holds no content"));
    return out;
}

Result<QString> parseFileUri(const QString &reference, const QString &field)
{
    const QString f = QStringLiteral("field ") + quoted(field);
    QUrl url(reference, QUrl::StrictMode);
    if (!url.isValid() || !url.isLocalFile())
        return invalid(f + QStringLiteral(" holds a file: URI that is not valid"),
                       QStringLiteral("write it as file:///absolute/path, or give the path itself"));
    if (!url.host().isEmpty() && url.host().compare(QLatin1String("localhost"), Qt::CaseInsensitive) != 0)
        return invalid(f + QStringLiteral(" holds a file: URI for another host (") + url.host()
                           + QStringLiteral("); only local files can be read"),
                       QStringLiteral("write it as file:///absolute/path"));
    url.setHost(QString()); // "localhost" would otherwise become a UNC path ("//localhost/...")
    const QString path = url.toLocalFile();
    if (path.isEmpty() || url.path().isEmpty())
        return invalid(f + QStringLiteral(" holds a file: URI without a path"));
    return path;
}

Result<QString> stringValue(const QJsonObject &context, const QString &key)
{
    const QJsonValue v = context.value(key);
    if (v.isUndefined() || v.isNull())
        return QString();
    if (!v.isString())
        return invalid(QStringLiteral("field ") + quoted(key) + QStringLiteral(" must be a string"));
    return v.toString();
}

Result<Profile> convert(const QJsonObject &context)
{
    // Settings natscli has that nats.c or this tool cannot honour: refuse rather than connect differently.
    auto notSupported = [](const QString &field, const QString &what, const QString &hint) {
        return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" (") + what
                       + QStringLiteral(") is not supported by NATS MQTT Doctor; ") + hint);
    };
    const struct
    {
        const char *key;
        const char *what;
        const char *hint;
    } unsupported[] = {
        {"nsc", "an nsc lookup", "export the user's credentials with \"nsc generate creds\" and set \"creds\" to the file's path"},
        {"jetstream_api_prefix", "a JetStream API prefix",
         "use \"jetstream_domain\" to reach another domain, or a context without the prefix"},
        {"socks_proxy", "a SOCKS proxy", "connect directly, for example through an SSH tunnel to the server"},
        {"windows_cert_store", "the Windows certificate store", "give \"cert\", \"key\" and \"ca\" as files"},
    };
    for (const auto &u : unsupported) {
        const QString key = QLatin1String(u.key);
        const QJsonValue v = context.value(key);
        if (v.isString() && !v.toString().trimmed().isEmpty())
            return notSupported(key, QLatin1String(u.what), QLatin1String(u.hint));
    }
    if (context.value(QStringLiteral("tls_first")).toBool())
        return notSupported(QStringLiteral("tls_first"), QStringLiteral("TLS before the server's INFO"),
                            QStringLiteral("let the server send INFO first (the default) or use natscli for this server"));

    Profile p;
    auto description = stringValue(context, QStringLiteral("description"));
    if (!description)
        return description.error();
    p.description = *description;

    auto url = stringValue(context, QStringLiteral("url"));
    if (!url)
        return url.error();
    for (const QString &part : url->split(QLatin1Char(','))) {
        if (part.trimmed().isEmpty())
            continue;
        auto normalized = normalizeServerUrl(part);
        if (!normalized)
            return Error(normalized.error()).prefixed(QStringLiteral("field \"url\""));
        p.servers.append(*normalized);
    }
    if (p.servers.isEmpty())
        p.servers.append(kDefaultUrl);

    // Plain secrets may be references in newer natscli versions: refuse those we cannot resolve.
    for (const QString &key : {QStringLiteral("user"), QStringLiteral("password"), QStringLiteral("token")}) {
        const QJsonValue v = context.value(key);
        if (v.isString()) {
            if (auto e = unsupportedScheme(v.toString().trimmed(), key))
                return *e;
        }
    }

    QJsonObject auth;
    for (const QString &key : {QStringLiteral("user"), QStringLiteral("password"), QStringLiteral("token"), QStringLiteral("nkey"),
                               QStringLiteral("creds"), QStringLiteral("user_jwt"), QStringLiteral("user_seed")}) {
        if (context.contains(key))
            auth.insert(key, context.value(key));
    }
    auto credentials = CredentialsJson::parseCredentials(auth, QString(), QString());
    if (!credentials)
        return credentials.error();
    p.auth = *credentials;

    const std::pair<QString, FileOrData *> tlsFiles[] = {
        {QStringLiteral("cert"), &p.tls.cert}, {QStringLiteral("key"), &p.tls.key}, {QStringLiteral("ca"), &p.tls.ca}};
    for (const auto &[key, target] : tlsFiles) {
        auto value = stringValue(context, key);
        if (!value)
            return value.error();
        auto ref = NatsContext::resolveReference(*value, key);
        if (!ref)
            return ref.error();
        *target = *ref;
    }

    auto domain = stringValue(context, QStringLiteral("jetstream_domain"));
    if (!domain)
        return domain.error();
    p.jsDomain = domain->trimmed();
    return p;
}

} // namespace

namespace NatsContext {

QString configDir()
{
    const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (!xdg.isEmpty())
        return QDir::cleanPath(xdg + QStringLiteral("/nats"));
    return QDir::cleanPath(QDir::homePath() + QStringLiteral("/.config/nats"));
}

QStringList list()
{
    const QDir dir(configDir() + QStringLiteral("/context"));
    QStringList names;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable, QDir::Name))
        names.append(info.completeBaseName());
    names.sort();
    return names;
}

QString selected()
{
    const QString fromEnv = qEnvironmentVariable("NATS_CONTEXT").trimmed();
    if (!fromEnv.isEmpty())
        return fromEnv;
    QFile file(configDir() + QStringLiteral("/context.txt"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QString text = QString::fromUtf8(file.read(4096));
    return text.section(QLatin1Char('\n'), 0, 0).trimmed();
}

Result<Profile> load(const QString &nameOrPath)
{
    const QString given = nameOrPath.trimmed();
    if (given.isEmpty())
        return invalid(QStringLiteral("no natscli context name given"), QStringLiteral("\"nats context ls\" lists the saved contexts"));

    const bool isPath = given.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || given.contains(QLatin1Char('/'))
        || given.contains(QDir::separator());
    QString path = given;
    if (!isPath) {
        path = configDir() + QStringLiteral("/context/") + given + QStringLiteral(".json");
        if (!QFileInfo(path).isFile()) {
            const QStringList known = list();
            return Error(Error::Kind::NotFound,
                         QStringLiteral("natscli context ") + quoted(given) + QStringLiteral(" not found in ")
                             + QDir::toNativeSeparators(configDir() + QStringLiteral("/context")),
                         known.isEmpty() ? QStringLiteral("no contexts are saved there; create one with \"nats context save\"")
                                         : QStringLiteral("saved contexts: ") + known.join(QStringLiteral(", ")));
        }
    }

    const QString what = QStringLiteral("natscli context ") + quoted(path);
    const QFileInfo info(path);
    if (!info.exists())
        return Error(Error::Kind::Io, what + QStringLiteral(": the file does not exist"));
    QFile file(path);
    if (info.isDir() || !file.open(QIODevice::ReadOnly))
        return Error(Error::Kind::Io,
                     what + QStringLiteral(": cannot read the file")
                         + (info.isDir() ? QStringLiteral(": it is a folder") : QStringLiteral(": ") + file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return invalid(what + QStringLiteral(": not valid JSON: ") + parseError.errorString()
                       + QStringLiteral(" at offset %1").arg(parseError.offset));
    if (!doc.isObject())
        return invalid(what + QStringLiteral(": the file must hold one JSON object"));
    return fromJson(doc.object(), info.completeBaseName());
}

Result<Profile> fromJson(const QJsonObject &context, const QString &name)
{
    auto profile = convert(context);
    if (!profile)
        return Error(profile.error()).prefixed(QStringLiteral("context ") + quoted(name));
    profile->name = name;
    return profile;
}

Result<FileOrData> resolveReference(const QString &reference, const QString &field)
{
    const QString ref = reference.trimmed();
    if (ref.isEmpty())
        return FileOrData{};
    if (ref.startsWith(QLatin1String("data:"), Qt::CaseInsensitive))
        return parseDataUri(ref, field);
    if (auto e = unsupportedScheme(ref, field))
        return *e;

    FileOrData out;
    if (ref.startsWith(QLatin1String("file:"), Qt::CaseInsensitive)) {
        auto path = parseFileUri(ref, field);
        if (!path)
            return path.error();
        out.path = *path;
        return out;
    }
    if (const qsizetype sep = ref.indexOf(QLatin1String("://")); sep > 0) {
        bool schemeLike = true;
        for (QChar c : ref.left(sep))
            schemeLike = schemeLike && (c.isLetterOrNumber() || c == QLatin1Char('+') || c == QLatin1Char('-') || c == QLatin1Char('.'));
        if (schemeLike)
            return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" uses the scheme ") + quoted(ref.left(sep))
                               + QStringLiteral(", which is not supported by NATS MQTT Doctor"),
                           QStringLiteral("give a file path, a file:// URI or a data: URI"));
    }

    QString path = ref;
    if (path.startsWith(QLatin1Char('~'))) {
        const qsizetype slash = path.indexOf(QLatin1Char('/'));
        const QString user = path.mid(1, slash < 0 ? -1 : slash - 1);
        if (!user.isEmpty())
            return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" uses ~") + user
                               + QStringLiteral(", another user's home folder, which is not supported"),
                           QStringLiteral("write the path out, or use ~/ for your own home folder"));
        path = QDir::homePath() + (slash < 0 ? QString() : path.mid(slash));
    }
    auto expanded = expandVariables(path, field);
    if (!expanded)
        return expanded.error();
    if (expanded->trimmed().isEmpty())
        return invalid(QStringLiteral("field ") + quoted(field) + QStringLiteral(" is empty once its variables are expanded"));
    out.path = *expanded;
    return out;
}

} // namespace NatsContext
} // namespace MqttDoctor
