#include "jszmerge.h"

#include <QJsonArray>

#include "nats/discovery.h"

namespace MqttDoctor {

namespace {

QString jsonString(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

Error malformedJsz(const QString &subject, const QString &what)
{
    return Error(Error::Kind::Protocol, QStringLiteral("%1: malformed reply: %2").arg(subject, what),
                 QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                "answers on $SYS.REQ subjects"));
}

QString streamName(const QJsonObject &s)
{
    return s.contains(QLatin1String("name")) ? jsonString(s, "name")
                                             : s.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString();
}

// The parts of a JSZ reply the merge relies on: arrays of objects with names.
Result<void> checkShape(const QJsonValue &details, const QString &subject)
{
    if (!details.isArray())
        return malformedJsz(subject, QStringLiteral("\"account_details\" is not an array"));
    for (const QJsonValue &av : details.toArray()) {
        const QJsonObject a = av.toObject();
        if (!av.isObject() || !a.value(QLatin1String("name")).isString() || jsonString(a, "name").isEmpty())
            return malformedJsz(subject, QStringLiteral("an account entry has no name"));
        const QJsonValue streams = a.value(QLatin1String("stream_detail"));
        if (streams.isUndefined() || streams.isNull())
            continue;
        if (!streams.isArray())
            return malformedJsz(subject,
                                QStringLiteral("stream_detail of account %1 is not an array").arg(jsonString(a, "name").left(100)));
        for (const QJsonValue &sv : streams.toArray()) {
            const QString name = streamName(sv.toObject());
            if (!sv.isObject() || name.isEmpty())
                return malformedJsz(subject, QStringLiteral("a stream of account %1 has no name").arg(jsonString(a, "name").left(100)));
            const QJsonValue consumers = sv.toObject().value(QLatin1String("consumer_detail"));
            if (!consumers.isUndefined() && !consumers.isNull() && !consumers.isArray())
                return malformedJsz(subject, QStringLiteral("consumer_detail of stream %1 is not an array").arg(name.left(100)));
            for (const QJsonValue &c : consumers.toArray())
                if (!c.isObject() || jsonString(c.toObject(), "name").isEmpty())
                    return malformedJsz(subject, QStringLiteral("a consumer of stream %1 has no name").arg(name.left(100)));
        }
    }
    return {};
}

} // namespace

Result<QStringList> JszMerge::add(const SystemClient::Reply &reply, const QString &subject, const QString &only)
{
    if (!reply.error.isEmpty())
        return QStringList();
    const QJsonValue details = reply.data.value(QLatin1String("account_details"));
    const QJsonObject meta = reply.data.value(QLatin1String("meta_cluster")).toObject();
    // Only the meta leader lists the group's peers.
    const QJsonArray replicas = meta.value(QLatin1String("replicas")).toArray();
    if (!replicas.isEmpty()) {
        m_metaPeers.clear();
        m_metaPeers.append({jsonString(meta, "leader"), false});
        for (const QJsonValue &p : replicas)
            m_metaPeers.append({jsonString(p.toObject(), "name"), p.toObject().value(QLatin1String("offline")).toBool()});
    }
    if (details.isUndefined() || details.isNull())
        return QStringList();
    if (auto ok = checkShape(details, subject); !ok)
        return ok.error();

    const QString serverName = jsonString(reply.server, "name");
    QStringList names;
    for (const QJsonValue &av : details.toArray()) {
        const QJsonObject a = av.toObject();
        const QString name = jsonString(a, "name");
        if (!only.isEmpty() && name != only)
            continue;
        names.append(name);
        AccountEntry &acc = m_accounts[name];
        acc.info.name = name;
        acc.info.jetstream = true;
        acc.info.source = QStringLiteral("jsz");
        acc.info.streamsKnown = true;
        acc.info.memory = std::max<qint64>(acc.info.memory, a.value(QLatin1String("memory")).toInteger());
        acc.info.storage = std::max<qint64>(acc.info.storage, a.value(QLatin1String("storage")).toInteger());
        // Each server counts the API requests it answered: one entry per server however often it is listed.
        if (const QJsonObject api = a.value(QLatin1String("api")).toObject(); !api.isEmpty())
            acc.apiByServer.insert(serverName,
                                   {api.value(QLatin1String("total")).toInteger(), api.value(QLatin1String("errors")).toInteger()});
        for (const QJsonValue &sv : a.value(QLatin1String("stream_detail")).toArray()) {
            StreamInfo s = Discovery::streamFromJson(sv.toObject(), QStringLiteral("jsz"));
            const bool leader = s.cluster.isEmpty() || jsonString(s.cluster, "leader") == serverName;
            StreamPick &pick = acc.streams[s.name];
            for (const QJsonObject &c : std::as_const(s.consumers)) {
                const QJsonObject cluster = c.value(QLatin1String("cluster")).toObject();
                const bool cLeader = cluster.isEmpty() || jsonString(cluster, "leader") == serverName;
                auto it = pick.consumers.find(jsonString(c, "name"));
                if (it == pick.consumers.end())
                    pick.consumers.insert(jsonString(c, "name"), {c, cLeader});
                else if (cLeader && !it->fromLeader)
                    *it = {c, true};
            }
            if (pick.info.name.isEmpty() || (leader && !pick.fromLeader)) {
                s.consumers.clear();
                pick.info = std::move(s);
                pick.fromLeader = leader;
            }
        }
    }
    return names;
}

QList<AccountInfo> JszMerge::accounts() const
{
    QList<AccountInfo> out;
    out.reserve(m_accounts.size());
    for (const AccountEntry &acc : m_accounts) {
        AccountInfo info = acc.info;
        if (!acc.apiByServer.isEmpty()) {
            JetStreamApiCounts api{0, 0, QStringLiteral("jsz"), int(acc.apiByServer.size())};
            for (const auto &counts : acc.apiByServer) {
                api.total += counts.first;
                api.errors += counts.second;
            }
            info.api = api;
        }
        for (const StreamPick &pick : acc.streams) { // a QMap: streams come sorted by name
            StreamInfo s = pick.info;
            s.consumers.clear();
            s.consumers.reserve(pick.consumers.size());
            for (const ConsumerPick &c : pick.consumers)
                s.consumers.append(c.info);
            s.consumersKnown = true;
            info.consumerCount += static_cast<int>(s.consumers.size());
            info.streams.append(std::move(s));
        }
        info.streamCount = static_cast<int>(info.streams.size());
        out.append(std::move(info));
    }
    std::sort(out.begin(), out.end(), [](const AccountInfo &a, const AccountInfo &b) { return a.name < b.name; });
    return out;
}

} // namespace MqttDoctor
