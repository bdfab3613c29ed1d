#include "operatorrequest.h"

#include <QJsonArray>
#include <QRegularExpression>

#include "common/duration.h"
#include "records/sessionloader.h"

namespace MqttDoctor {

namespace {

/** A shell glob as an anchored expression: `*` any run, `?` one character, `[...]` a set (`/` is an ordinary character). */
QRegularExpression globExpression(const QString &glob)
{
    QString rx = QStringLiteral("\\A(?:");
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob.at(i);
        if (c == u'*') {
            rx += QStringLiteral(".*");
        } else if (c == u'?') {
            rx += u'.';
        } else if (c == u'[') {
            const qsizetype end = glob.indexOf(u']', i + 2);
            if (end < 0) {
                rx += QRegularExpression::escape(QString(c));
                continue;
            }
            QString set = glob.mid(i + 1, end - i - 1);
            if (set.startsWith(u'!'))
                set[0] = u'^';
            set.replace(QStringLiteral("\\"), QStringLiteral("\\\\"));
            rx += u'[' + set + u']';
            i = end;
        } else {
            rx += QRegularExpression::escape(QString(c));
        }
    }
    rx += QStringLiteral(")\\z");
    return QRegularExpression(rx, QRegularExpression::DotMatchesEverythingOption);
}

/** A valid MQTT topic filter: `#` only as the whole last level, `+` only as a whole level, no empty filter. */
bool validFilter(const QString &filter, QString *why)
{
    if (filter.isEmpty()) {
        *why = QStringLiteral("an empty topic");
        return false;
    }
    const QStringList levels = filter.split(u'/');
    for (qsizetype i = 0; i < levels.size(); ++i) {
        const QString &l = levels.at(i);
        if (l.contains(u'#') && (l != QLatin1String("#") || i != levels.size() - 1)) {
            *why = QStringLiteral("\"#\" must be the last level on its own");
            return false;
        }
        if (l.contains(u'+') && l != QLatin1String("+")) {
            *why = QStringLiteral("\"+\" must be a whole level");
            return false;
        }
    }
    return true;
}

} // namespace

bool SessionPolicy::matches(const SessionEntry &entry, const QDateTime &now) const
{
    if (notSeenForSecs) {
        if (!entry.connected.has_value() || *entry.connected)
            return false; // seen now, or unknown: never "not seen"
        if (!entry.time.isValid() || entry.time.secsTo(now) < *notSeenForSecs)
            return false;
    }
    if (!clientIdGlob.isEmpty()) {
        if (entry.clientId.isEmpty())
            return false;
        static thread_local QString cachedGlob;
        static thread_local QRegularExpression cachedExpression;
        if (cachedGlob != clientIdGlob) {
            cachedGlob = clientIdGlob;
            cachedExpression = globExpression(clientIdGlob);
        }
        if (!cachedExpression.match(entry.clientId).hasMatch())
            return false;
    }
    if (noSubscriptions && (!entry.record || entry.subscriptionCount() > 0))
        return false;
    return true;
}

QString SessionPolicy::text() const
{
    QStringList parts;
    if (notSeenForSecs)
        parts << QStringLiteral("not connected and not written for %1").arg(formatAge(*notSeenForSecs));
    if (!clientIdGlob.isEmpty())
        parts << QStringLiteral("client ID matching %1").arg(clientIdGlob);
    if (noSubscriptions)
        parts << QStringLiteral("no subscriptions");
    return parts.join(QStringLiteral(", "));
}

QJsonObject SessionPolicy::toJson() const
{
    QJsonObject o;
    if (notSeenForSecs)
        o.insert(QStringLiteral("not_seen_for_seconds"), *notSeenForSecs);
    if (!clientIdGlob.isEmpty())
        o.insert(QStringLiteral("client_id_glob"), clientIdGlob);
    if (noSubscriptions)
        o.insert(QStringLiteral("no_subscriptions"), true);
    return o;
}

QString OperatorRequest::verbName(Verb verb)
{
    switch (verb) {
    case Verb::DeleteSessions: return QStringLiteral("delete_sessions");
    case Verb::Disconnect: return QStringLiteral("disconnect");
    case Verb::ClearRetained: return QStringLiteral("clear_retained");
    case Verb::DropBacklog: return QStringLiteral("drop_backlog");
    }
    return {};
}

std::optional<OperatorRequest::Verb> OperatorRequest::verbFromName(const QString &name)
{
    for (Verb v : {Verb::DeleteSessions, Verb::Disconnect, Verb::ClearRetained, Verb::DropBacklog})
        if (verbName(v) == name || commandName(v) == name)
            return v;
    return std::nullopt;
}

QString OperatorRequest::commandName(Verb verb)
{
    QString s = verbName(verb);
    s.replace(u'_', u'-');
    return s;
}

Result<void> OperatorRequest::validate() const
{
    const QString cmd = commandName(verb);
    if (batchSize < 1)
        return Error(Error::Kind::InvalidInput, QStringLiteral("%1: the batch size must be at least 1").arg(cmd));
    for (const QString &id : clientIds)
        if (id.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1: an empty client ID").arg(cmd));
    switch (verb) {
    case Verb::DeleteSessions:
        if (clientIds.isEmpty() && policy.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1: no client ID and no policy: nothing is selected").arg(cmd),
                         QStringLiteral("name client IDs, or select by --not-seen-for, --client-id or --no-subscriptions"));
        if (policy.notSeenForSecs && *policy.notSeenForSecs <= 0)
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1: --not-seen-for must be more than 0").arg(cmd));
        break;
    case Verb::Disconnect:
    case Verb::DropBacklog:
        if (clientIds.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1: name at least one client ID").arg(cmd));
        if (!policy.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1 takes client IDs, not a policy").arg(cmd));
        break;
    case Verb::ClearRetained:
        if (topics.isEmpty())
            return Error(Error::Kind::InvalidInput, QStringLiteral("%1: name at least one topic or filter").arg(cmd));
        for (const QString &t : topics) {
            QString why;
            if (!validFilter(t, &why))
                return Error(Error::Kind::InvalidInput, QStringLiteral("%1: \"%2\" is not an MQTT topic or filter: %3").arg(cmd, t, why));
        }
        break;
    }
    return {};
}

QJsonObject OperatorRequest::toJson() const
{
    QJsonObject o{{QStringLiteral("action"), verbName(verb)},
                  {QStringLiteral("account"), account},
                  {QStringLiteral("client_ids"), QJsonArray::fromStringList(clientIds)},
                  {QStringLiteral("topics"), QJsonArray::fromStringList(topics)},
                  {QStringLiteral("disconnect_first"), disconnectFirst},
                  {QStringLiteral("batch_size"), batchSize}};
    if (!policy.isEmpty())
        o.insert(QStringLiteral("policy"), policy.toJson());
    return o;
}

Result<OperatorRequest> OperatorRequest::fromJson(const QJsonObject &json)
{
    OperatorRequest r;
    const auto verb = verbFromName(json.value(QLatin1String("action")).toString());
    if (!verb)
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("unknown action \"%1\"").arg(json.value(QLatin1String("action")).toString()));
    r.verb = *verb;
    r.account = json.value(QLatin1String("account")).toString();
    for (const QJsonValue &v : json.value(QLatin1String("client_ids")).toArray())
        r.clientIds << v.toString();
    for (const QJsonValue &v : json.value(QLatin1String("topics")).toArray())
        r.topics << v.toString();
    r.disconnectFirst = json.value(QLatin1String("disconnect_first")).toBool();
    r.batchSize = json.value(QLatin1String("batch_size")).toInt(500);
    const QJsonObject p = json.value(QLatin1String("policy")).toObject();
    if (p.contains(QLatin1String("not_seen_for_seconds")))
        r.policy.notSeenForSecs = p.value(QLatin1String("not_seen_for_seconds")).toInteger();
    r.policy.clientIdGlob = p.value(QLatin1String("client_id_glob")).toString();
    r.policy.noSubscriptions = p.value(QLatin1String("no_subscriptions")).toBool();
    if (auto v = r.validate(); !v)
        return v.error();
    return r;
}

} // namespace MqttDoctor
