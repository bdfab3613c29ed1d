#include "findingcatalogue.h"

#include <optional>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include "common/jsonfieldreader.h"
#include "diagnosis/logcatalogue.h"

namespace MqttDoctor {

using Scope = FindingCatalogue::Scope;
using LogTemplate = FindingCatalogue::LogTemplate;

namespace {

std::optional<Scope> scopeFromName(const QString &name)
{
    for (Scope s : {Scope::Cluster, Scope::Account, Scope::Stream, Scope::Session})
        if (FindingCatalogue::scopeName(s) == name)
            return s;
    return std::nullopt;
}

Result<FindingCatalogue::Entry> entryFromJson(const QJsonObject &object)
{
    JsonFieldReader r(object, QStringLiteral("finding catalogue entry"));
    FindingCatalogue::Entry e;
    e.code = r.string("code", true);
    r.setName(e.code);
    const QString severity = r.string("severity", true);
    const QString scope = r.string("scope", true);
    e.titleTemplate = r.string("title", true);
    e.detects = r.string("detects", true);
    for (const QJsonObject &line : r.objects("explains")) {
        JsonFieldReader lr(line, QStringLiteral("explained line of"));
        lr.setName(e.code);
        LogTemplate t{lr.string("line", true), lr.string("cause")};
        if (auto checked = lr.finish(); !checked.ok())
            return checked.error();
        e.explains.append(std::move(t));
    }
    e.symptoms = r.string("symptoms");
    e.repair = r.string("repair");
    e.alternativeRepairs = r.strings("alternative_repairs");
    e.guidance = r.string("guidance", true);
    e.repairOnlyWhenSelected = r.flag("repair_only_when_selected", false);
    e.severityRule = r.string("severity_rule");
    if (auto checked = r.finish(); !checked.ok())
        return checked.error();
    const auto fail = [&e](const QString &problem) {
        return Error(Error::Kind::InvalidInput, QStringLiteral("finding catalogue entry %1: %2").arg(e.code, problem));
    };
    if (const auto s = Finding::severityFromName(severity))
        e.severity = *s;
    else
        return fail(QStringLiteral("unknown severity '%1'").arg(severity));
    if (const auto s = scopeFromName(scope))
        e.scope = *s;
    else
        return fail(QStringLiteral("unknown scope '%1'").arg(scope));
    if (e.explains.isEmpty() && e.symptoms.isEmpty())
        return fail(QStringLiteral("neither a line it explains nor a symptom tells the operator what they see"));
    return e;
}

QList<FindingCatalogue::Entry> loadEntries()
{
    // The data file is compiled in and checked by the tests (tst_findingcatalogue): failing to read it is a
    // defect of the build, reported loudly; no finding then has a title, and checks still report their codes.
    QFile file(FindingCatalogue::dataResource());
    if (!file.open(QIODevice::ReadOnly)) {
        qCritical("FindingCatalogue: %s is missing from this build", qPrintable(FindingCatalogue::dataResource()));
        return {};
    }
    auto parsed = FindingCatalogue::parseData(file.readAll());
    if (!parsed.ok()) {
        qCritical("FindingCatalogue: %s", qPrintable(parsed.error().message()));
        return {};
    }
    return std::move(parsed).value();
}

} // namespace

Result<QList<FindingCatalogue::Entry>> FindingCatalogue::parseData(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("finding catalogue: not JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    const QJsonObject root = doc.object();
    for (auto it = root.begin(); it != root.end(); ++it)
        if (it.key() != u"findings")
            return Error(Error::Kind::InvalidInput, QStringLiteral("finding catalogue: unknown member '%1'").arg(it.key()));
    if (!root.value(QLatin1String("findings")).isArray())
        return Error(Error::Kind::InvalidInput, QStringLiteral("finding catalogue: 'findings' must be an array"));
    QList<Entry> out;
    QSet<QString> codes;
    for (const QJsonValue &v : root.value(QLatin1String("findings")).toArray()) {
        auto entry = entryFromJson(v.toObject());
        if (!entry)
            return entry.error();
        if (codes.contains(entry->code))
            return Error(Error::Kind::InvalidInput, QStringLiteral("finding catalogue: code %1 appears twice").arg(entry->code));
        codes.insert(entry->code);
        out.append(std::move(entry).value());
    }
    return out;
}

QString FindingCatalogue::dataResource()
{
    return QStringLiteral(":/mqttdoctor/findingcatalogue.json");
}

QString FindingCatalogue::LogTemplate::format() const
{
    return LogCatalogue::templateText(line);
}

QStringList FindingCatalogue::LogTemplate::versions() const
{
    const std::optional<LogCatalogueEntry> e = LogCatalogue::entry(line);
    return e ? e->versions : QStringList();
}

QString FindingCatalogue::LogTemplate::text() const
{
    return LogCatalogue::lineText(line, cause);
}

QStringList FindingCatalogue::Entry::explainTexts() const
{
    QStringList out;
    for (const LogTemplate &l : explains)
        out.append(l.text());
    return out;
}

const QList<FindingCatalogue::Entry> &FindingCatalogue::entries()
{
    static const QList<Entry> all = loadEntries();
    return all;
}

const FindingCatalogue::Entry *FindingCatalogue::entry(const QString &code)
{
    // A check of 100,000 sessions makes a finding per missing durable: looked up by hash, not by scan.
    static const QHash<QString, const Entry *> byCode = [] {
        QHash<QString, const Entry *> index;
        for (const Entry &e : entries())
            index.insert(e.code, &e);
        return index;
    }();
    return byCode.value(code, nullptr);
}

QStringList FindingCatalogue::codes()
{
    QStringList out;
    for (const Entry &e : entries())
        out.append(e.code);
    return out;
}

namespace {

// `text` with each {key} that `lookup` knows replaced, in one pass (unknown keys stay as they are).
template<typename Lookup>
QString fillTemplate(const QString &text, const Lookup &lookup)
{
    QString out;
    out.reserve(text.size() + 64);
    qsizetype from = 0;
    for (;;) {
        const qsizetype open = text.indexOf(u'{', from);
        const qsizetype close = open < 0 ? -1 : text.indexOf(u'}', open + 1);
        if (close < 0) {
            out += QStringView(text).sliced(from);
            return out;
        }
        out += QStringView(text).sliced(from, open - from);
        if (const std::optional<QString> value = lookup(QStringView(text).sliced(open + 1, close - open - 1)))
            out += *value;
        else
            out += QStringView(text).sliced(open, close - open + 1);
        from = close + 1;
    }
}

} // namespace

QString FindingCatalogue::title(const QString &code, const QHash<QString, QString> &values)
{
    const Entry *e = entry(code);
    if (!e)
        return code;
    return fillTemplate(e->titleTemplate, [&values](QStringView key) -> std::optional<QString> {
        const auto it = values.constFind(key.toString());
        return it == values.cend() ? std::nullopt : std::optional<QString>(*it);
    });
}

namespace {

// The catalogue's defaults of `e` (severity, detail, explains, repair) on `f`.
void applyDefaults(Finding &f, const FindingCatalogue::Entry &e)
{
    f.severity = e.severity;
    f.detail = e.detects;
    // Made once per code and shared by every finding of it.
    static const QHash<const FindingCatalogue::Entry *, QStringList> explainTexts = [] {
        QHash<const FindingCatalogue::Entry *, QStringList> texts;
        for (const FindingCatalogue::Entry &entry : FindingCatalogue::entries())
            texts.insert(&entry, entry.explainTexts());
        return texts;
    }();
    f.explains = explainTexts.value(&e);
    f.repair = e.repair;
}

// make() with `value(key)` as the values' lookup (nullopt: not given).
template<typename Lookup>
Finding makeFinding(const QString &code, const QString &account, const QString &stream, const Lookup &value)
{
    Finding f;
    f.code = code;
    f.account = account;
    f.stream = stream;
    f.subject = value(u"subject").value_or(QString());
    f.clientId = value(u"client_id").value_or(QString());
    const FindingCatalogue::Entry *e = FindingCatalogue::entry(code);
    if (!e)
        return f;
    // {account} is the account; {stream} the stream when one is given (else a "stream" value, if any).
    f.title = fillTemplate(e->titleTemplate, [&](QStringView key) -> std::optional<QString> {
        if (key == u"account")
            return account;
        if (key == u"stream") {
            const std::optional<QString> given = value(key);
            return !stream.isEmpty() || !given ? stream : *given;
        }
        return value(key);
    });
    applyDefaults(f, *e);
    return f;
}

} // namespace

Finding FindingCatalogue::make(const QString &code, const QString &account, const QString &stream, const QHash<QString, QString> &values)
{
    return makeFinding(code, account, stream, [&values](QStringView key) -> std::optional<QString> {
        const auto it = values.constFind(key.toString());
        return it == values.cend() ? std::nullopt : std::optional<QString>(*it);
    });
}

Finding FindingCatalogue::make(const QString &code, const QString &account, const QString &stream, std::span<const Value> values)
{
    return makeFinding(code, account, stream, [values](QStringView key) -> std::optional<QString> {
        for (const Value &v : values)
            if (v.first == key)
                return v.second;
        return std::nullopt;
    });
}

Finding FindingCatalogue::makeUntitled(const QString &code, const QString &account, const QString &stream)
{
    Finding f;
    f.code = code;
    f.account = account;
    f.stream = stream;
    if (const Entry *e = entry(code))
        applyDefaults(f, *e);
    return f;
}

FindingPattern FindingCatalogue::titlePattern(const QString &code, const QStringList &keys)
{
    const Entry *e = entry(code);
    return e ? FindingPattern(e->titleTemplate, keys) : FindingPattern();
}

QString FindingCatalogue::scopeName(Scope scope)
{
    switch (scope) {
    case Scope::Cluster: return QStringLiteral("cluster");
    case Scope::Account: return QStringLiteral("account");
    case Scope::Stream: return QStringLiteral("stream");
    case Scope::Session: return QStringLiteral("session");
    }
    return QStringLiteral("account");
}

bool FindingCatalogue::repairOnlyWhenSelected(const QString &code)
{
    const Entry *e = entry(code);
    return e && e->repairOnlyWhenSelected;
}

QString FindingCatalogue::severityRule(const QString &code)
{
    static const QString capped = QStringLiteral("In an account where nothing shows that it serves MQTT, nothing is above warning.");
    const Entry *e = entry(code);
    if (!e)
        return {};
    if (e->scope == Scope::Session || e->scope == Scope::Cluster)
        return e->severityRule;
    return e->severityRule.isEmpty() ? capped : e->severityRule + QStringLiteral(". ") + capped;
}

} // namespace MqttDoctor
