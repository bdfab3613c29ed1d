#include "discovery.h"

#include <QHash>
#include <QJsonArray>
#include <QMap>
#include <QSet>

#include "common/parallelfor.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/jszcollector.h"
#include "nats/jszmerge.h"
#include "nats/natsconnection.h"
#include "nats/replygatherer.h"

namespace MqttDoctor::Discovery {

namespace {

constexpr int kAccountConnectionsAtOnce = 8;
const QString kGlobalAccount = QStringLiteral("$G");

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

void sortByName(QList<AccountInfo> &accounts)
{
    std::sort(accounts.begin(), accounts.end(), [](const AccountInfo &a, const AccountInfo &b) { return a.name < b.name; });
}

void sortStreams(QList<StreamInfo> &streams)
{
    std::sort(streams.begin(), streams.end(), [](const StreamInfo &a, const StreamInfo &b) { return a.name < b.name; });
}

} // namespace

ServerInfo serverFromEnvelope(const QJsonObject &server)
{
    ServerInfo s;
    s.name = str(server, "name");
    s.id = str(server, "id");
    s.version = str(server, "ver");
    s.cluster = str(server, "cluster");
    s.host = str(server, "host");
    s.jsDomain = str(server, "domain");
    s.jetstream = server.value(QLatin1String("jetstream")).toBool();
    return s;
}

ServerInfo serverFromVarz(const SystemClient::Reply &reply)
{
    ServerInfo s = serverFromEnvelope(reply.server);
    const QJsonObject &v = reply.data;
    if (s.name.isEmpty())
        s.name = str(v, "server_name");
    if (s.id.isEmpty())
        s.id = str(v, "server_id");
    if (!str(v, "version").isEmpty())
        s.version = str(v, "version");
    const QString clusterName = v.value(QLatin1String("cluster")).toObject().value(QLatin1String("name")).toString();
    if (!clusterName.isEmpty())
        s.cluster = clusterName;
    const QJsonObject js = v.value(QLatin1String("jetstream")).toObject();
    const QString domain = js.value(QLatin1String("config")).toObject().value(QLatin1String("domain")).toString();
    if (!domain.isEmpty())
        s.jsDomain = domain;
    const QJsonObject gateway = v.value(QLatin1String("gateway")).toObject();
    s.gateway = str(gateway, "name");
    for (const QJsonValue &g : gateway.value(QLatin1String("gateways")).toArray()) {
        const QString remote = str(g.toObject(), "name");
        if (!remote.isEmpty() && remote != s.gateway && !s.gatewayRemotes.contains(remote))
            s.gatewayRemotes.append(remote);
    }
    s.gatewayRemotes.sort();
    const QJsonObject leaf = v.value(QLatin1String("leaf")).toObject();
    s.leafListener = leaf.value(QLatin1String("port")).toInt() > 0;
    s.leafRemotes = int(leaf.value(QLatin1String("remotes")).toArray().size());
    const QJsonObject mqtt = v.value(QLatin1String("mqtt")).toObject();
    s.mqtt = mqtt;
    s.mqttKnown = true;
    s.mqttPort = mqtt.value(QLatin1String("port")).toInt();
    s.mqttHost = s.mqttPort > 0 ? str(mqtt, "host") : QString();
    s.maxPayload = v.value(QLatin1String("max_payload")).toInteger(0);
    return s;
}

StreamInfo streamFromJson(const QJsonObject &json, const QString &source)
{
    StreamInfo s;
    s.config = json.value(QLatin1String("config")).toObject();
    s.name = json.contains(QLatin1String("name")) ? str(json, "name") : str(s.config, "name");
    s.state = json.value(QLatin1String("state")).toObject();
    s.cluster = json.value(QLatin1String("cluster")).toObject();
    s.created = str(json, "created");
    s.source = source;
    if (json.contains(QLatin1String("consumer_detail"))) {
        for (const QJsonValue &c : json.value(QLatin1String("consumer_detail")).toArray())
            s.consumers.append(c.toObject());
        s.consumersKnown = true;
    }
    return s;
}

QList<AccountInfo> accountsFromJsz(const QList<SystemClient::Reply> &replies)
{
    JszMerge merge;
    for (const SystemClient::Reply &r : replies)
        static_cast<void>(merge.add(r, QStringLiteral("$SYS.REQ.SERVER.PING.JSZ")));
    return merge.accounts();
}

namespace {

Result<AccountInfo> accountThroughApi(const std::shared_ptr<NatsConnection> &conn, const QString &name, const QString &domain)
{
    JetStreamClient js(conn, domain);
    AccountInfo info;
    info.name = name;
    info.source = QStringLiteral("api");
    auto ai = js.accountInfo();
    if (!ai) {
        if (ai.error().jsErrCode() == JsErrors::NotEnabledForAccount) {
            info.jetstream = false;
            return info;
        }
        return ai.error().prefixed(QStringLiteral("account ") + (name.isEmpty() ? QStringLiteral("(connected user)") : name));
    }
    info.jetstream = true;
    info.readDomain = ai->value(QLatin1String("domain")).toString();
    info.readDomainKnown = true;
    info.limits = ai->value(QLatin1String("limits")).toObject();
    info.limitsKnown = !info.limits.isEmpty();
    info.memory = ai->value(QLatin1String("memory")).toInteger();
    info.storage = ai->value(QLatin1String("storage")).toInteger();
    if (const QJsonObject api = ai->value(QLatin1String("api")).toObject(); !api.isEmpty())
        info.api = JetStreamApiCounts{api.value(QLatin1String("total")).toInteger(), api.value(QLatin1String("errors")).toInteger(),
                                      QStringLiteral("api"), 1};
    auto list = js.streamList();
    if (!list)
        return list.error();
    for (const QJsonObject &o : *list) {
        StreamInfo s = streamFromJson(o, QStringLiteral("api"));
        if (s.name == QLatin1String("$MQTT_rmsgs")) {
            // Retained messages left on the literal subject (the 2.9 layout's only subject): the
            // checks compare this count with the layout the servers expect.
            auto retained = js.call(QStringLiteral("STREAM.INFO.$MQTT_rmsgs"),
                                    QJsonObject{{QStringLiteral("subjects_filter"), QStringLiteral("$MQTT.rmsgs")}});
            if (retained) {
                const QJsonValue subjects = retained->value(QLatin1String("state")).toObject().value(QLatin1String("subjects"));
                s.state.insert(QStringLiteral("subjects"), subjects.isObject() ? subjects : QJsonValue(QJsonObject()));
            }
        }
        if (s.isMqtt()) {
            auto consumers = js.consumerListAllowUnavailable(s.name);
            if (!consumers)
                return consumers.error();
            s.consumers = *consumers;
            s.consumersKnown = true;
        }
        info.consumerCount += s.state.value(QLatin1String("consumer_count")).toInt();
        info.streams.append(s);
    }
    sortStreams(info.streams);
    info.streamCount = static_cast<int>(info.streams.size());
    info.streamsKnown = true;
    return info;
}

Error malformedSys(const QString &subject, const QString &what)
{
    return Error(Error::Kind::Protocol, QStringLiteral("%1: malformed reply: %2").arg(subject, what),
                 QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                "answers on $SYS.REQ subjects"));
}

} // namespace

namespace {

Result<QList<ServerInfo>> discoverServers(ConnectionSet &connections)
{
    if (connections.hasSystem()) {
        auto sys = connections.systemClient();
        if (!sys)
            return sys.error();
        auto replies = sys->ping(QStringLiteral("VARZ"));
        if (!replies)
            return replies.error();
        // A JetStream server stopped cleanly is no longer counted by the others at once; the meta
        // leader still lists it as an offline peer, so the result can name it. (JSZ without accounts:
        // a small reply per server.)
        // Each server's view of the meta group, kept with the server (JETSTREAM_META_DEGRADED).
        QHash<QString, QJsonObject> metaByServer;
        if (auto jsz = sys->ping(QStringLiteral("JSZ"))) {
            JszMerge peers;
            for (const SystemClient::Reply &r : *jsz) {
                static_cast<void>(peers.add(r, QStringLiteral("$SYS.REQ.SERVER.PING.JSZ")));
                if (r.error.isEmpty())
                    metaByServer.insert(str(r.server, "id"), r.data.value(QLatin1String("meta_cluster")).toObject());
            }
            connections.roster().notePeers(peers.metaPeers());
        }
        QList<ServerInfo> out;
        for (const SystemClient::Reply &r : *replies) {
            if (!r.error.isEmpty())
                continue;
            ServerInfo s = serverFromVarz(r);
            if (s.name.isEmpty() && s.id.isEmpty())
                return malformedSys(QStringLiteral("$SYS.REQ.SERVER.PING.VARZ"), QStringLiteral("a reply names no server"));
            if (const auto meta = metaByServer.constFind(s.id); meta != metaByServer.cend()) {
                s.metaCluster = *meta;
                s.metaClusterKnown = true;
            }
            out.append(s);
        }
        std::sort(out.begin(), out.end(), [](const ServerInfo &a, const ServerInfo &b) { return a.name < b.name; });
        return out;
    }
    auto conn = connections.primary();
    if (!conn)
        return conn.error();
    // Every account imports $SYS.REQ.SERVER.PING.CONNZ (mapped to itself); the reply envelopes name
    // each server and its version. Ask for no connection details. Without the system account the
    // servers cannot be counted; the client's list of server URLs (given and advertised by the
    // cluster) says how many replies to wait for, and the quiet period covers the rest.
    const int expected = (*conn)->knownServerCount();
    QList<ServerInfo> out;
    QSet<QString> seen;
    ReplyGatherer gatherer(**conn, SystemClient::kDefaultQuietMs);
    static_cast<void>(gatherer.run({{QStringLiteral("$SYS.REQ.SERVER.PING.CONNZ"), QByteArrayLiteral("{\"limit\":1}")}},
                                   [&](int, NatsReply &&raw) -> Result<ReplyGatherer::Verdict> {
                                       auto parsed = SystemClient::parse(raw.data);
                                       if (parsed && !parsed->server.isEmpty()) {
                                           const ServerInfo s = serverFromEnvelope(parsed->server);
                                           if (!seen.contains(s.id)) {
                                               seen.insert(s.id);
                                               out.append(s);
                                           }
                                       }
                                       return expected > 0 && out.size() >= expected ? ReplyGatherer::Verdict::Enough
                                                                                     : ReplyGatherer::Verdict::More;
                                   }));
    if (out.isEmpty()) {
        ServerInfo s;
        s.id = (*conn)->connectedServerId();
        s.host = (*conn)->connectedUrl();
        out.append(s);
    }
    std::sort(out.begin(), out.end(), [](const ServerInfo &a, const ServerInfo &b) { return a.name < b.name; });
    return out;
}

/** Asks the servers and keeps what they said in the set, under the set's discovery lock. */
Result<QList<ServerInfo>> discoverAndKeep(ConnectionSet &connections)
{
    auto found = discoverServers(connections);
    if (found) // the roster as the requests left it: a change after this asks again
        connections.setKnownServers(*found, connections.roster().generation());
    return found;
}

} // namespace

Result<QList<ServerInfo>> servers(ConnectionSet &connections)
{
    QMutexLocker lock(&connections.discoveryMutex());
    return discoverAndKeep(connections);
}

Result<QList<ServerInfo>> knownServers(ConnectionSet &connections)
{
    if (auto known = connections.knownServers())
        return *known;
    QMutexLocker lock(&connections.discoveryMutex());
    if (auto known = connections.knownServers()) // found by the load this one waited for
        return *known;
    return discoverAndKeep(connections);
}

Result<QList<AccountInfo>> accounts(ConnectionSet &connections, AccountLimits limits)
{
    if (!connections.hasSystem()) {
        auto conn = connections.primary();
        if (!conn)
            return conn.error();
        auto name = connections.primaryAccountName();
        return accountThroughApi(*conn, name ? *name : QString(), connections.profile().jsDomain).transform([&](auto &&value) {
            return QList<AccountInfo>{value};
        });
    }
    auto sys = connections.systemClient();
    if (!sys)
        return sys.error();
    const QString accountzSubject = QStringLiteral("$SYS.REQ.SERVER.PING.ACCOUNTZ");
    auto accountz = sys->ping(QStringLiteral("ACCOUNTZ"));
    if (!accountz)
        return accountz.error();
    QHash<QString, QStringList> namesByServer;
    QSet<QString> names;
    QString systemAccount;
    for (const SystemClient::Reply &r : *accountz) {
        if (!r.error.isEmpty())
            continue;
        const QJsonValue list = r.data.value(QLatin1String("accounts"));
        if (!list.isArray())
            return malformedSys(accountzSubject, QStringLiteral("\"accounts\" is not an array"));
        const QString server = str(r.server, "name").isEmpty() ? str(r.server, "id") : str(r.server, "name");
        QStringList &own = namesByServer[server];
        for (const QJsonValue &v : list.toArray()) {
            if (!v.isString() || v.toString().isEmpty())
                return malformedSys(accountzSubject, QStringLiteral("an account name is not a string"));
            own.append(v.toString());
            names.insert(v.toString());
        }
        if (systemAccount.isEmpty())
            systemAccount = str(r.data, "system_account");
    }
    QStringList allNames(names.cbegin(), names.cend());
    allNames.sort();
    JszCollector collector(*sys);
    auto merge = collector.collectAll(namesByServer, allNames);
    if (!merge)
        return merge.error();
    connections.roster().notePeers(merge->metaPeers());
    QList<AccountInfo> out = merge->accounts();
    for (const QString &name : std::as_const(allNames)) {
        if (merge->contains(name))
            continue;
        // Every server listed all its JetStream accounts: one that none listed has no JetStream.
        // The global account ($G) is always listed by the server; show it only when it is used.
        if (name == kGlobalAccount)
            continue;
        AccountInfo a;
        a.name = name;
        a.source = QStringLiteral("accountz");
        a.jetstream = false;
        a.streamsKnown = true;
        out.append(a);
    }
    for (AccountInfo &a : out)
        a.isSystem = (a.name == systemAccount);
    if (limits == AccountLimits::Read) {
        // The limits are only in the account's own view: ask through the accounts' own connections,
        // a few at once.
        QList<int> withCredentials;
        for (int i = 0; i < out.size(); ++i)
            if (out[i].jetstream && connections.hasAccountCredentials(out[i].name))
                withCredentials.append(i);
        parallelFor(int(withCredentials.size()), kAccountConnectionsAtOnce, [&](int k) {
            AccountInfo &a = out[withCredentials[k]];
            auto conn = connections.account(a.name);
            if (!conn)
                return;
            JetStreamClient js(*conn, connections.profile().jsDomain);
            if (auto ai = js.accountInfo()) {
                a.limits = ai->value(QLatin1String("limits")).toObject();
                a.limitsKnown = true;
            }
        });
    }
    sortByName(out);
    return out;
}

Result<QList<AccountInfo>> accounts(ConnectionSet &connections)
{
    return accounts(connections, AccountLimits::Read);
}

Result<AccountInfo> account(ConnectionSet &connections, const QString &name)
{
    if (!name.isEmpty() && connections.hasAccountCredentials(name)) {
        auto conn = connections.account(name);
        if (!conn)
            return conn.error();
        return accountThroughApi(*conn, name, connections.profile().jsDomain);
    }
    const bool primaryIsAccountUser = connections.profile().auth.isSet();
    if (primaryIsAccountUser) {
        auto primaryName = connections.primaryAccountName();
        if (!primaryName && name.isEmpty())
            return primaryName.error(); // the connection failed: connecting again below would only fail again
        if (name.isEmpty() || (primaryName && *primaryName == name)) {
            auto conn = connections.primary();
            if (!conn)
                return conn.error();
            return accountThroughApi(*conn, primaryName ? *primaryName : name, connections.profile().jsDomain);
        }
    }
    if (!connections.hasSystem())
        return Error(Error::Kind::InvalidInput,
                     QStringLiteral("cannot read account %1: no credentials for it and no system connection").arg(name),
                     QStringLiteral("connect as a user of the account (its user and password, credentials file, ...) or give a "
                                    "system connection"));
    if (name.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("which account? the system connection sees them all"),
                     QStringLiteral("name the account (the accounts listing shows them)"));
    auto sys = connections.systemClient();
    if (!sys)
        return sys.error();
    JszCollector collector(*sys);
    auto merge = collector.collectOne(name);
    if (!merge)
        return merge.error();
    for (const AccountInfo &a : merge->accounts())
        if (a.name == name)
            return a;
    // Not a JetStream account (or unknown): say which.
    auto detail = sys->ping(QStringLiteral("ACCOUNTZ"), QJsonObject{{QStringLiteral("account"), name}});
    if (detail) {
        for (const SystemClient::Reply &r : *detail) {
            const QJsonObject d = r.data.value(QLatin1String("account_detail")).toObject();
            if (!d.isEmpty() && str(d, "account_name") == name) {
                AccountInfo a;
                a.name = name;
                a.source = QStringLiteral("accountz");
                a.jetstream = d.value(QLatin1String("jetstream_enabled")).toBool();
                a.streamsKnown = !a.jetstream;
                return a;
            }
        }
    }
    return Error(Error::Kind::NotFound, QStringLiteral("account %1 was not found on any server").arg(name),
                 QStringLiteral("see the accounts command for the names"));
}

} // namespace MqttDoctor::Discovery
