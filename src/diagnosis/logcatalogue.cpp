#include "logcatalogue.h"

#include <QFile>
#include <QHash>
#include <QSet>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtGlobal>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/jsrequesttypes.h"
#include "logline.h"

namespace MqttDoctor {

using namespace Qt::StringLiterals;

namespace {

// A catalogue entry with the matcher derived from its format string.
struct CompiledEntry
{
    LogCatalogueEntry entry;
    QString ownSeverity; ///< the entry's severity as written: for a line that points to no finding
    QRegularExpression re;
    QStringList roles; ///< role of capture group i+1
    QString needle; ///< the longest literal piece of the template: a cheap test before the regular expression
};

/** Compiled up front: a shared, already compiled expression can be matched from several threads at once. */
QRegularExpression compiled(const QString &pattern)
{
    QRegularExpression re(pattern);
    re.optimize();
    return re;
}

const QString kQuoted = u"(\"(?:[^\"\\\\]|\\\\.)*\")"_s;

bool isNumericRole(const QString &role)
{
    return role == u"seq" || role == u"count";
}

/** A JetStream API error code: 10000 to 19999. */
bool isJetStreamCodeRole(const QString &role)
{
    return role == u"js_code";
}

/** Builds the matcher of a Go format string: each verb becomes a capture group shaped by its role. */
CompiledEntry compile(const LogCatalogueEntry &entry)
{
    CompiledEntry c;
    c.entry = entry;
    const QString text = entry.text.trimmed();
    QString pattern = entry.anchored ? u"^"_s : u"^.*?"_s;
    QString literal;
    qsizetype field = 0;
    auto flushLiteral = [&] {
        if (literal.size() > c.needle.size())
            c.needle = literal;
        pattern += QRegularExpression::escape(literal);
        literal.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar ch = text.at(i);
        if (ch != u'%' || i + 1 >= text.size()) {
            literal += ch;
            continue;
        }
        const QChar verb = text.at(++i);
        if (verb == u'%') {
            literal += u'%';
            continue;
        }
        flushLiteral();
        const QString role = entry.fields.value(field++, u"other"_s);
        const bool last = i + 1 == text.size();
        if (verb == u'q')
            pattern += kQuoted;
        else if (isJetStreamCodeRole(role))
            pattern += u"(1\\d{4})"_s;
        else if (isNumericRole(role) || verb == u'd')
            pattern += u"(-?\\d+)"_s;
        else if (role == u"stream_label")
            pattern += u"(sessions|messages|retained messages|QoS2 incoming messages|QoS2 outgoing PUBREL)"_s;
        else if (role == u"duration")
            pattern += u"(\\S+?)"_s;
        else
            pattern += last ? u"(.*)"_s : u"(.+?)"_s;
        c.roles.append(role);
    }
    flushLiteral();
    pattern += u"\\s*$"_s;
    c.re = QRegularExpression(pattern, QRegularExpression::DotMatchesEverythingOption);
    if (!c.re.isValid())
        qWarning("LogCatalogue: bad matcher for %s: %s", qPrintable(entry.id), qPrintable(c.re.errorString()));
    c.re.optimize();
    return c;
}

struct Catalogue
{
    QList<LogCatalogueEntry> entries;
    QList<CompiledEntry> compiled;
    QList<qsizetype> innerIndexes; ///< compiled entries that can stand inside another template's error
    QHash<QString, LogCatalogueCause> causes;
    QHash<QString, qsizetype> byId; ///< index into entries

    Catalogue()
    {
        // The data file is compiled in and checked by the tests (tst_logcataloguedata): failing to read
        // it is a defect of the build, reported loudly; the explainer then recognises nothing.
        LogCatalogue::Data data;
        QFile file(LogCatalogue::dataResource());
        if (!file.open(QIODevice::ReadOnly)) {
            qCritical("LogCatalogue: %s is missing from this build", qPrintable(LogCatalogue::dataResource()));
        } else if (auto parsed = LogCatalogue::parseData(file.readAll()); !parsed.ok()) {
            qCritical("LogCatalogue: %s", qPrintable(parsed.error().message()));
        } else {
            data = std::move(parsed).value();
        }
        entries = std::move(data.entries);
        for (qsizetype i = 0; i < entries.size(); ++i)
            byId.insert(entries.at(i).id, i);
        for (LogCatalogueEntry &e : entries) {
            const QString ownSeverity = e.severity;
            // A template that points to findings is as severe as they are (LogCatalogue::findingSeverity).
            const QString severity = LogCatalogue::findingSeverity(e.codes, e.stream, LogCatalogue::refusesStreamCreation(e));
            if (!severity.isEmpty())
                e.severity = severity;
            compiled.append(compile(e));
            compiled.last().ownSeverity = ownSeverity;
            if (e.inner)
                innerIndexes.append(compiled.size() - 1);
        }
        for (const LogCatalogueCause &c : std::as_const(data.causes))
            causes.insert(c.key, c);
    }
};

const Catalogue &catalogue()
{
    static const Catalogue c;
    return c;
}

QString valueOf(const QRegularExpressionMatch &m, int group)
{
    const QString raw = m.captured(group);
    if (raw.startsWith(u'"'))
        return LogLine::unquoteGo(raw).value_or(raw);
    return raw;
}

QString streamForLabel(const QString &label)
{
    if (label == u"sessions")
        return u"$MQTT_sess"_s;
    if (label == u"messages")
        return u"$MQTT_msgs"_s;
    if (label == u"retained messages")
        return u"$MQTT_rmsgs"_s;
    if (label == u"QoS2 incoming messages")
        return u"$MQTT_qos2in"_s;
    if (label == u"QoS2 outgoing PUBREL")
        return u"$MQTT_out"_s;
    return {};
}

/** The MQTT stream a published subject lands in, or the stream a JetStream API subject names. */
QString streamForSubject(const QString &subject)
{
    static const QList<std::pair<QString, QString>> prefixes{
        {u"$MQTT.sess."_s, u"$MQTT_sess"_s},      {u"$MQTT.msgs."_s, u"$MQTT_msgs"_s}, {u"$MQTT.rmsgs."_s, u"$MQTT_rmsgs"_s},
        {u"$MQTT.qos2.in."_s, u"$MQTT_qos2in"_s}, {u"$MQTT.out."_s, u"$MQTT_out"_s},
    };
    if (subject == u"$MQTT.rmsgs")
        return u"$MQTT_rmsgs"_s;
    for (const auto &[prefix, stream] : prefixes)
        if (subject.startsWith(prefix))
            return stream;
    static const QRegularExpression api =
        compiled(u"^\\$JS\\.(?:[^.]+\\.)?API\\.(?:STREAM\\.(?:INFO|CREATE|UPDATE|DELETE|PURGE|MSG\\.GET|MSG\\.DELETE)"
                 u"|DIRECT\\.GET|CONSUMER\\.(?:CREATE|DURABLE\\.CREATE|DELETE|INFO|MSG\\.NEXT))\\.([^.]+)"_s);
    if (const auto m = api.match(subject); m.hasMatch())
        return m.captured(1);
    return {};
}

/** The JetStream domain of a "$JS.<domain>.API." subject, else empty. */
QString domainOfSubject(const QString &subject)
{
    static const QRegularExpression re = compiled(u"^\\$JS\\.([^.]+)\\.API\\."_s);
    const auto m = re.match(subject);
    return m.hasMatch() && m.captured(1) != u"API" ? m.captured(1) : QString();
}

QString kindName(const QString &kind)
{
    // The one table of the request types (JsRequestType), shared with JETSTREAM_API_ERRORS.
    const QString name = JsRequestType::meaningOf(kind);
    return name.isEmpty() ? QString(u"\""_s + kind + u'"') : QString(u"\""_s + kind + u"\" ("_s + name + u')');
}

/** A value for a shell command line: as is when harmless, else in single quotes. */
QString shellWord(const QString &s)
{
    static const QRegularExpression plain = compiled(u"^[A-Za-z0-9_.:/+#=@,-]+$"_s);
    if (plain.match(s).hasMatch())
        return s;
    QString quoted = s;
    quoted.replace(u'\'', u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

/** The NATS subject of an MQTT subscription or retained message back as an MQTT topic (best effort, for --filter). */
QString topicOfSubject(const QString &subject)
{
    QString t = subject;
    t.replace(u"//"_s, u"\x01"_s);
    t.replace(u'.', u'/');
    t.replace(u'\x01', u'.');
    t.replace(u'*', u'+');
    t.replace(u'>', u'#');
    return t;
}

struct Context
{
    QString account, stream, clientId, subject, requestSubject, kind, domain;
};

QString fill(const QString &text, const Context &ctx)
{
    static const QRegularExpression placeholder = compiled(u"\\{([a-z_]+)(?::([A-Z_]+))?\\}"_s);
    const QString program = u"nats-mqtt-doctor-cli "_s;
    const QString accountOpt = ctx.account.isEmpty() ? u"--account ACCOUNT"_s : u"--account "_s + shellWord(ctx.account);
    QString out;
    qsizetype pos = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const auto m = it.next();
        out += QStringView(text).mid(pos, m.capturedStart(0) - pos);
        pos = m.capturedEnd(0);
        const QString name = m.captured(1);
        if (name == u"acct")
            out += ctx.account.isEmpty() ? u"the account"_s : u"account \""_s + ctx.account + u'"';
        else if (name == u"account")
            out += ctx.account.isEmpty() ? u"ACCOUNT"_s : ctx.account;
        else if (name == u"stream")
            out += ctx.stream.isEmpty() ? u"the MQTT stream"_s : ctx.stream;
        else if (name == u"clientref")
            out += ctx.clientId.isEmpty() ? u"the client"_s : u"client \""_s + ctx.clientId + u'"';
        else if (name == u"subject")
            out += ctx.subject.isEmpty() ? u"the subject"_s : ctx.subject;
        else if (name == u"request_subject")
            out += !ctx.requestSubject.isEmpty() ? ctx.requestSubject : ctx.subject.isEmpty() ? u"the subject"_s : ctx.subject;
        else if (name == u"kind")
            out += ctx.kind.isEmpty() ? u"a"_s : kindName(ctx.kind);
        else if (name == u"domain_hint")
            out += ctx.domain.isEmpty() ? QString()
                                        : u" The request went to JetStream domain \""_s + ctx.domain
                    + u"\": if no JetStream server of that domain is reachable from this account, every such "
                      u"request times out; check mqtt js_domain, default_js_domain and jetstream domain."_s;
        else if (name == u"check")
            out += program + u"check "_s + (ctx.account.isEmpty() ? u"--all-accounts"_s : accountOpt);
        else if (name == u"repair")
            out += program + u"repair "_s + accountOpt + u" --finding "_s + m.captured(2);
        else if (name == u"streams")
            out += program + u"streams "_s + accountOpt;
        else if (name == u"events")
            out += program + u"events "_s + (ctx.account.isEmpty() ? QString() : accountOpt + u' ')
                + (ctx.clientId.isEmpty() ? QString() : u"--client "_s + shellWord(ctx.clientId));
        else if (name == u"sessions")
            out += program + u"sessions "_s + accountOpt + (ctx.clientId.isEmpty() ? QString() : u" --filter "_s + shellWord(ctx.clientId));
        else if (name == u"retained")
            out += program + u"retained "_s + accountOpt
                + (ctx.subject.isEmpty() || ctx.subject.startsWith(u'$') ? QString()
                                                                         : u" --filter "_s + shellWord(topicOfSubject(ctx.subject)));
        else
            out += m.captured(0);
    }
    out += QStringView(text).mid(pos);
    return out;
}

/** The last "(1xxxx)" JetStream error code in an error text, 0 when none. */
int jetStreamCode(const QString &errorText)
{
    static const QRegularExpression re = compiled(u"\\((1\\d{4})\\)"_s);
    int code = 0;
    auto it = re.globalMatch(errorText);
    while (it.hasNext())
        code = it.next().captured(1).toInt();
    return code;
}

/** Fills the values a match carries from its capture groups; returns the request type and subject if any. */
void takeValues(const CompiledEntry &c, const QRegularExpressionMatch &m, LogLineMatch &out, Context &ctx)
{
    for (qsizetype i = 0; i < c.roles.size(); ++i) {
        const QString &role = c.roles.at(i);
        const QString value = valueOf(m, int(i + 1));
        if (role == u"account")
            out.account = value;
        else if (role == u"client")
            out.clientId = value;
        else if (role == u"stream_label")
            out.stream = streamForLabel(value);
        else if (role == u"stream_name") {
            if (out.stream.isEmpty())
                out.stream = value;
        } else if (role == u"subject")
            out.subject = value;
        else if (role == u"request_subject") {
            if (out.subject.isEmpty())
                out.subject = value;
            if (out.stream.isEmpty())
                out.stream = streamForSubject(value);
            ctx.requestSubject = value;
            ctx.domain = domainOfSubject(value);
        } else if (role == u"kind")
            ctx.kind = value;
        else if (role == u"seq")
            out.sequence = value.toLongLong();
        else if (role == u"error")
            out.errorText = value;
        else if (isJetStreamCodeRole(role))
            out.errorText += u" ("_s + value + u')'; // "<description> (<code>)", as the server printed it
    }
}

} // namespace

LogLineMatch LogCatalogue::explain(const QString &line)
{
    return explain(LogLine::parse(line));
}

namespace {

/** The first template `message` matches (its match in `m`); null when none does. */
const CompiledEntry *findTemplate(const Catalogue &cat, const LogLine &parsed, const QString &message, QRegularExpressionMatch &m)
{
    for (const CompiledEntry &c : cat.compiled) {
        if (c.entry.mqttClientOnly && !parsed.isMqttClient())
            continue;
        if (!c.needle.isEmpty() && !message.contains(c.needle))
            continue;
        m = c.re.match(message);
        if (m.hasMatch())
            return &c;
    }
    return nullptr;
}

/**
 * The template of the error inside the line (a timeout, a missing ack...), if one matches: its id into
 * `out`, the subject and stream it names where the line named none. Returns its cause key, else `outerCause`.
 */
QString innerCause(const Catalogue &cat, LogLineMatch &out, Context &ctx, const QString &outerCause)
{
    if (out.errorText.isEmpty())
        return outerCause;
    for (const qsizetype i : cat.innerIndexes) {
        const CompiledEntry &inner = cat.compiled.at(i);
        if (!inner.needle.isEmpty() && !out.errorText.contains(inner.needle))
            continue;
        const auto im = inner.re.match(out.errorText);
        if (!im.hasMatch())
            continue;
        out.innerTemplateId = inner.entry.id;
        LogLineMatch innerValues;
        takeValues(inner, im, innerValues, ctx);
        if (out.subject.isEmpty())
            out.subject = innerValues.subject;
        if (out.stream.isEmpty())
            out.stream = innerValues.stream;
        return inner.entry.causeKey;
    }
    return outerCause;
}

/**
 * What the error inside says, as a key of the causes: a JetStream code, a timeout (of a store or of an API
 * request), the inner template's cause, a shutdown, or no error at all ("nil"). Empty when none of them.
 */
QString causeKeyOf(const LogLineMatch &out, const LogCatalogueEntry &e, const QString &innerCause, const Context &ctx)
{
    if (out.errorCode > 0)
        return u"js:"_s + QString::number(out.errorCode);
    if (innerCause == u"timeout")
        return (ctx.kind == u"SP" || ctx.kind == u"MS") ? u"timeout:store"_s : u"timeout:api"_s;
    if (!innerCause.isEmpty())
        return innerCause;
    if (out.errorText == u"server is not running")
        return u"shutdown"_s;
    if (e.fields.contains(u"error"_s) && out.errorText.isEmpty())
        return u"nil"_s;
    return {};
}

/**
 * The codes, meaning, advice and severity of the line: its template's, refined by the cause where the cause
 * decides them; as severe as the findings it points to.
 */
void describe(const Catalogue &cat, const LogCatalogueEntry &e, const QString &causeKey, const Context &ctx, LogLineMatch &out)
{
    out.codes = e.codes;
    QString meaning = e.meaning;
    QString advice = e.advice;
    const auto cause = cat.causes.constFind(causeKey);
    const bool causeKnown = !causeKey.isEmpty() && (cause != cat.causes.cend() || e.codesByCause.contains(causeKey));
    if (causeKnown && (e.causeDecides || e.codesByCause.contains(causeKey))) {
        const bool haveCause = cause != cat.causes.cend();
        out.codes = e.codesByCause.contains(causeKey) ? e.codesByCause.value(causeKey) : haveCause ? cause->codes : e.codes;
        const QString causeMeaning = e.meaningByCause.value(causeKey, haveCause ? cause->meaning : QString());
        if (!causeMeaning.isEmpty())
            meaning += u' ' + causeMeaning;
        advice = e.adviceByCause.value(causeKey, haveCause ? cause->advice : advice);
        if (haveCause && !cause->severity.isEmpty())
            out.severity = cause->severity;
    } else if (!out.errorText.isEmpty() && e.causeDecides) {
        meaning += u" The error the server got: \""_s + out.errorText + u"\"."_s;
    }
    // A symptom of findings is as severe as they are; only a line that points to none keeps its own severity.
    if (const QString severity = LogCatalogue::findingSeverity(out.codes, out.stream, LogCatalogue::refusesStreamCreation(e));
        !severity.isEmpty())
        out.severity = severity;
    out.meaning = fill(meaning, ctx);
    out.advice = fill(advice, ctx);
}

} // namespace

LogLineMatch LogCatalogue::explain(const LogLine &parsed)
{
    const Catalogue &cat = catalogue();
    LogLineMatch out;
    out.line = parsed.raw;

    QString message = parsed.message;
    bool wrapped = false;
    static const QString wrapper = u"unable to connect: "_s;
    if (message.startsWith(wrapper)) {
        message = message.mid(wrapper.size());
        wrapped = true;
    }
    QRegularExpressionMatch m;
    const CompiledEntry *hit = findTemplate(cat, parsed, message, m);
    if (!hit)
        return out;

    const LogCatalogueEntry &e = hit->entry;
    out.matched = true;
    out.templateId = e.id;
    out.templateText = e.text;
    out.versions = e.versions;
    out.level = parsed.level;
    out.severity = hit->ownSeverity;
    out.connectRefused = wrapped || e.connectPath;

    Context ctx;
    takeValues(*hit, m, out, ctx);
    if (out.clientId.isEmpty() && parsed.hasClientId)
        out.clientId = parsed.clientId;
    if (out.stream.isEmpty())
        out.stream = e.stream;
    if (out.errorText == u"<nil>")
        out.errorText.clear();
    if (out.stream == u"$MQTT_rmsgs" && out.subject.startsWith(u"$MQTT.rmsgs."))
        out.subject = out.subject.mid(12);
    out.errorCode = jetStreamCode(out.errorText);

    // What the error inside says: a JetStream code, or an inner template (a timeout, a missing ack...).
    const QString causeKey = causeKeyOf(out, e, innerCause(cat, out, ctx, e.causeKey), ctx);

    ctx.account = out.account;
    ctx.stream = out.stream;
    ctx.clientId = out.clientId;
    if (ctx.subject.isEmpty())
        ctx.subject = out.subject;
    describe(cat, e, causeKey, ctx, out);
    return out;
}

QList<LogLineMatch> LogCatalogue::explainAll(const QStringList &lines)
{
    QList<LogLineMatch> result;
    result.reserve(lines.size());
    for (const QString &line : lines)
        if (!line.trimmed().isEmpty())
            result.append(explain(line));
    return result;
}

QString LogCatalogue::dataResource()
{
    return QStringLiteral(":/mqttdoctor/logcatalogue.json");
}

Result<LogCatalogue::Data> LogCatalogue::parseData(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("log catalogue: not JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it)
        if (it.key() != u"entries"_s && it.key() != u"causes"_s)
            return Error(Error::Kind::InvalidInput, QStringLiteral("log catalogue: unknown member '%1'").arg(it.key()));
    if (!root.value(u"entries"_s).isArray() || !root.value(u"causes"_s).isArray())
        return Error(Error::Kind::InvalidInput, QStringLiteral("log catalogue: 'entries' and 'causes' must be arrays"));
    Data data;
    QSet<QString> ids;
    for (const QJsonValue &v : root.value(u"entries"_s).toArray()) {
        auto entry = LogCatalogueEntry::fromDataJson(v.toObject());
        if (!entry)
            return entry.error();
        if (ids.contains(entry->id))
            return Error(Error::Kind::InvalidInput, QStringLiteral("log catalogue: entry id %1 appears twice").arg(entry->id));
        ids.insert(entry->id);
        data.entries.append(std::move(entry).value());
    }
    QSet<QString> keys;
    for (const QJsonValue &v : root.value(u"causes"_s).toArray()) {
        auto cause = LogCatalogueCause::fromDataJson(v.toObject());
        if (!cause)
            return cause.error();
        if (keys.contains(cause->key))
            return Error(Error::Kind::InvalidInput, QStringLiteral("log catalogue: cause %1 appears twice").arg(cause->key));
        keys.insert(cause->key);
        data.causes.append(std::move(cause).value());
    }
    return data;
}

const QList<LogCatalogueEntry> &LogCatalogue::entries()
{
    return catalogue().entries;
}

std::optional<LogCatalogueEntry> LogCatalogue::entry(const QString &id)
{
    const Catalogue &cat = catalogue();
    const auto it = cat.byId.constFind(id);
    if (it == cat.byId.cend())
        return std::nullopt;
    return cat.entries.at(*it);
}

QString LogCatalogue::templateText(const QString &id)
{
    const Catalogue &cat = catalogue();
    const auto it = cat.byId.constFind(id);
    return it == cat.byId.cend() ? QString() : cat.entries.at(*it).text;
}

QString LogCatalogue::causeText(const QString &key)
{
    const Catalogue &cat = catalogue();
    const auto it = cat.causes.constFind(key);
    return it == cat.causes.cend() ? QString() : it->text();
}

QString LogCatalogue::lineText(const QString &id, const QString &causeKey)
{
    QString out = templateText(id);
    if (out.isEmpty()) {
        qCritical("LogCatalogue: no template with id %s", qPrintable(id));
        return id;
    }
    if (causeKey.isEmpty())
        return out;
    const QString cause = causeText(causeKey);
    if (cause.isEmpty()) {
        qCritical("LogCatalogue: no cause %s (template %s)", qPrintable(causeKey), qPrintable(id));
        return out;
    }
    const qsizetype at = qMax(out.lastIndexOf(QLatin1String("%v")), out.lastIndexOf(QLatin1String("%w")));
    if (at >= 0)
        out.replace(at, 2, cause);
    return out;
}

bool LogCatalogue::refusesStreamCreation(const LogCatalogueEntry &entry)
{
    return entry.text.startsWith(u"create "_s) && entry.text.contains(u" stream for account "_s);
}

QString LogCatalogue::findingSeverity(const QStringList &codes, const QString &stream, bool streamCreationRefused)
{
    std::optional<Finding::Severity> worst;
    for (const QString &code : codes) {
        const FindingCatalogue::Entry *finding = FindingCatalogue::entry(code);
        if (!finding)
            continue;
        Finding::Severity severity = finding->severity;
        // The situations of FindingCatalogue::severityRule() a line shows by itself.
        if (stream == u"$MQTT_sess" && (code == FindingCodes::streamMissing() || code == FindingCodes::streamUnhealthy()))
            severity = Finding::Severity::Critical;
        if (streamCreationRefused && code == FindingCodes::replicasMismatch())
            severity = Finding::Severity::Critical;
        if (!worst || int(severity) > int(*worst))
            worst = severity;
    }
    return worst ? Finding::severityName(*worst) : QString();
}

QStringList LogCatalogue::findingCodes()
{
    // One list of codes: the finding catalogue's.
    return FindingCatalogue::codes();
}

} // namespace MqttDoctor
