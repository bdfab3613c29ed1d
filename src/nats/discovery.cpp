#include "discovery.h"

#include <QJsonArray>
#include <QMap>
#include <QSet>

#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"

namespace MqttDoctor::Discovery {

namespace {

constexpr int kJszPageSize = 256;
constexpr int kJszMaxPages = 400;  // 100,000 accounts: far beyond any real cluster
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
    const QJsonObject mqtt = v.value(QLatin1String("mqtt")).toObject();
    s.mqttKnown = true;
    s.mqttPort = mqtt.value(QLatin1String("port")).toInt();
    s.mqttHost = s.mqttPort > 0 ? str(mqtt, "host") : QString();
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
    struct StreamPick { StreamInfo info; bool fromLeader = false; QMap<QString, QPair<QJsonObject, bool>> consumers; };
    struct AccountAcc { AccountInfo info; QMap<QString, StreamPick> streams; };
    QMap<QString, AccountAcc> byName;

    for (const SystemClient::Reply &reply : replies) {
        if (!reply.error.isEmpty())
            continue;
        const QString serverName = str(reply.server, "name");
        for (const QJsonValue &av : reply.data.value(QLatin1String("account_details")).toArray()) {
            const QJsonObject a = av.toObject();
            AccountAcc &acc = byName[str(a, "name")];
            acc.info.name = str(a, "name");
            acc.info.jetstream = true;
            acc.info.source = QStringLiteral("jsz");
            acc.info.streamsKnown = true;
            acc.info.memory = std::max<qint64>(acc.info.memory, a.value(QLatin1String("memory")).toInteger());
            acc.info.storage = std::max<qint64>(acc.info.storage, a.value(QLatin1String("storage")).toInteger());
            for (const QJsonValue &sv : a.value(QLatin1String("stream_detail")).toArray()) {
                const QJsonObject sj = sv.toObject();
                StreamInfo s = streamFromJson(sj, QStringLiteral("jsz"));
                const bool leader = s.cluster.isEmpty() || str(s.cluster, "leader") == serverName;
                StreamPick &pick = acc.streams[s.name];
                if (pick.info.name.isEmpty() || (leader && !pick.fromLeader)) {
                    const auto consumers = pick.consumers;
                    pick.info = s;
                    pick.fromLeader = leader;
                    pick.consumers = consumers;
                }
                // Consumers are groups of their own: keep each consumer's view from its leader.
                for (const QJsonObject &c : s.consumers) {
                    const QString cname = str(c, "name");
                    const bool cLeader = c.value(QLatin1String("cluster")).toObject().isEmpty()
                        || c.value(QLatin1String("cluster")).toObject().value(QLatin1String("leader")).toString() == serverName;
                    auto it = pick.consumers.find(cname);
                    if (it == pick.consumers.end() || (cLeader && !it->second))
                        pick.consumers.insert(cname, qMakePair(c, cLeader));
                }
            }
        }
    }

    QList<AccountInfo> out;
    for (AccountAcc &acc : byName) {
        for (StreamPick &pick : acc.streams) {
            pick.info.consumers.clear();
            for (const auto &c : std::as_const(pick.consumers))
                pick.info.consumers.append(c.first);
            pick.info.consumersKnown = true;
            acc.info.streams.append(pick.info);
            acc.info.consumerCount += static_cast<int>(pick.info.consumers.size());
        }
        sortStreams(acc.info.streams);
        acc.info.streamCount = static_cast<int>(acc.info.streams.size());
        out.append(acc.info);
    }
    sortByName(out);
    return out;
}

namespace {

Result<AccountInfo> accountThroughApi(const std::shared_ptr<NatsConnection> &conn, const QString &name,
                                      const QString &domain)
{
    JetStreamClient js(conn, domain);
    AccountInfo info;
    info.name = name;
    info.source = QStringLiteral("api");
    auto ai = js.accountInfo();
    if (!ai) {
        if (ai.error().jsErrCode() == 10039) {
            info.jetstream = false;
            return info;
        }
        return ai.error().prefixed(QStringLiteral("account ") + (name.isEmpty() ? QStringLiteral("(connected user)") : name));
    }
    info.jetstream = true;
    info.limits = ai->value(QLatin1String("limits")).toObject();
    info.limitsKnown = !info.limits.isEmpty();
    info.memory = ai->value(QLatin1String("memory")).toInteger();
    info.storage = ai->value(QLatin1String("storage")).toInteger();
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

// The parts of a JSZ reply the merge relies on: arrays of objects with names.
Result<void> checkJsz(const SystemClient::Reply &r, const QString &subject)
{
    const QJsonValue details = r.data.value(QLatin1String("account_details"));
    if (details.isUndefined() || details.isNull())
        return {};
    if (!details.isArray())
        return malformedSys(subject, QStringLiteral("\"account_details\" is not an array"));
    for (const QJsonValue &av : details.toArray()) {
        const QJsonObject a = av.toObject();
        if (!av.isObject() || !a.value(QLatin1String("name")).isString() || str(a, "name").isEmpty())
            return malformedSys(subject, QStringLiteral("an account entry has no name"));
        const QJsonValue streams = a.value(QLatin1String("stream_detail"));
        if (streams.isUndefined() || streams.isNull())
            continue;
        if (!streams.isArray())
            return malformedSys(subject, QStringLiteral("stream_detail of account %1 is not an array").arg(str(a, "name").left(100)));
        for (const QJsonValue &sv : streams.toArray()) {
            const QJsonObject sj = sv.toObject();
            const QString name = sj.contains(QLatin1String("name")) ? str(sj, "name")
                                                                     : sj.value(QLatin1String("config")).toObject().value(QLatin1String("name")).toString();
            if (!sv.isObject() || name.isEmpty())
                return malformedSys(subject, QStringLiteral("a stream of account %1 has no name").arg(str(a, "name").left(100)));
            const QJsonValue consumers = sj.value(QLatin1String("consumer_detail"));
            if (!consumers.isUndefined() && !consumers.isNull() && !consumers.isArray())
                return malformedSys(subject, QStringLiteral("consumer_detail of stream %1 is not an array").arg(name.left(100)));
            for (const QJsonValue &c : consumers.toArray())
                if (!c.isObject() || str(c.toObject(), "name").isEmpty())
                    return malformedSys(subject, QStringLiteral("a consumer of stream %1 has no name").arg(name.left(100)));
        }
    }
    return {};
}

Result<QList<SystemClient::Reply>> jszAllPages(SystemClient &sys, const QString &account = {})
{
    QList<SystemClient::Reply> all;
    QJsonObject options{{QStringLiteral("accounts"), true}, {QStringLiteral("streams"), true},
                        {QStringLiteral("consumer"), true}, {QStringLiteral("config"), true},
                        {QStringLiteral("limit"), kJszPageSize}};
    if (!account.isEmpty())
        options.insert(QStringLiteral("account"), account);
    const QString subject = QStringLiteral("$SYS.REQ.SERVER.PING.JSZ");
    QSet<QString> seen;  // server + account
    for (int page = 0;; ++page) {
        if (page >= kJszMaxPages)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1: malformed reply: still full pages of accounts after %2 pages").arg(subject).arg(page));
        options.insert(QStringLiteral("offset"), page * kJszPageSize);
        auto replies = sys.ping(QStringLiteral("JSZ"), options);
        if (!replies)
            return replies.error();
        bool anyFull = false;
        bool anyNew = false;
        for (const SystemClient::Reply &r : *replies) {
            if (!r.error.isEmpty())
                continue;
            if (auto ok = checkJsz(r, subject); !ok)
                return ok.error();
            const QJsonArray details = r.data.value(QLatin1String("account_details")).toArray();
            if (details.size() >= kJszPageSize)
                anyFull = true;
            for (const QJsonValue &a : details) {
                const QString key = str(r.server, "name") + QLatin1Char('\n') + str(a.toObject(), "name");
                if (!seen.contains(key)) {
                    seen.insert(key);
                    anyNew = true;
                }
            }
        }
        // A full page of accounts already seen: the server repeats itself instead of paging.
        if (anyFull && !anyNew)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1: malformed reply: the page at offset %2 repeats accounts already listed")
                             .arg(subject).arg(page * kJszPageSize));
        all += *replies;
        if (!anyFull || !account.isEmpty())
            break;
    }
    return all;
}

} // namespace

Result<QList<ServerInfo>> servers(ConnectionSet &connections)
{
    if (connections.hasSystem()) {
        auto sysConn = connections.system();
        if (!sysConn)
            return sysConn.error();
        SystemClient sys(*sysConn);
        auto replies = sys.ping(QStringLiteral("VARZ"));
        if (!replies)
            return replies.error();
        QList<ServerInfo> out;
        for (const SystemClient::Reply &r : *replies) {
            if (!r.error.isEmpty())
                continue;
            ServerInfo s = serverFromVarz(r);
            if (s.name.isEmpty() && s.id.isEmpty())
                return malformedSys(QStringLiteral("$SYS.REQ.SERVER.PING.VARZ"), QStringLiteral("a reply names no server"));
            out.append(s);
        }
        std::sort(out.begin(), out.end(), [](const ServerInfo &a, const ServerInfo &b) { return a.name < b.name; });
        return out;
    }
    auto conn = connections.primary();
    if (!conn)
        return conn.error();
    // Every account imports $SYS.REQ.SERVER.PING.CONNZ (mapped to itself); the reply envelopes name
    // each server and its version. Ask for no connection details.
    auto raw = (*conn)->gather(QStringLiteral("$SYS.REQ.SERVER.PING.CONNZ"), QByteArrayLiteral("{\"limit\":1}"), 300);
    QList<ServerInfo> out;
    if (raw) {
        for (const NatsReply &r : *raw) {
            auto parsed = SystemClient::parse(r.data);
            if (parsed && !parsed->server.isEmpty())
                out.append(serverFromEnvelope(parsed->server));
        }
    }
    if (out.isEmpty()) {
        ServerInfo s;
        s.id = (*conn)->connectedServerId();
        s.host = (*conn)->connectedUrl();
        out.append(s);
    }
    std::sort(out.begin(), out.end(), [](const ServerInfo &a, const ServerInfo &b) { return a.name < b.name; });
    return out;
}

Result<QList<AccountInfo>> accounts(ConnectionSet &connections)
{
    if (!connections.hasSystem()) {
        auto conn = connections.primary();
        if (!conn)
            return conn.error();
        auto name = connections.primaryAccountName();
        auto info = accountThroughApi(*conn, name ? *name : QString(), connections.profile().jsDomain);
        if (!info)
            return info.error();
        return QList<AccountInfo>{*info};
    }
    auto sysConn = connections.system();
    if (!sysConn)
        return sysConn.error();
    SystemClient sys(*sysConn);
    auto accountz = sys.ping(QStringLiteral("ACCOUNTZ"));
    if (!accountz)
        return accountz.error();
    QSet<QString> names;
    QString systemAccount;
    for (const SystemClient::Reply &r : *accountz) {
        if (!r.error.isEmpty())
            continue;
        const QJsonValue list = r.data.value(QLatin1String("accounts"));
        if (!list.isArray())
            return malformedSys(QStringLiteral("$SYS.REQ.SERVER.PING.ACCOUNTZ"), QStringLiteral("\"accounts\" is not an array"));
        for (const QJsonValue &v : list.toArray()) {
            if (!v.isString() || v.toString().isEmpty())
                return malformedSys(QStringLiteral("$SYS.REQ.SERVER.PING.ACCOUNTZ"), QStringLiteral("an account name is not a string"));
            names.insert(v.toString());
        }
        if (systemAccount.isEmpty())
            systemAccount = str(r.data, "system_account");
    }
    auto jsz = jszAllPages(sys);
    if (!jsz)
        return jsz.error();
    QList<AccountInfo> merged = accountsFromJsz(*jsz);
    QSet<QString> seen;
    constexpr int kMaxConfirmations = 512;
    int confirmed = 0;
    for (const AccountInfo &a : std::as_const(merged))
        seen.insert(a.name);
    for (const QString &name : std::as_const(names)) {
        if (seen.contains(name))
            continue;
        // Not in any server's JSZ: confirm through the account's own details.
        AccountInfo a;
        a.name = name;
        a.source = QStringLiteral("accountz");
        // One request per account: bounded, so that a huge list cannot keep the command going for hours.
        auto detail = ++confirmed <= kMaxConfirmations
            ? sys.ping(QStringLiteral("ACCOUNTZ"), QJsonObject{{QStringLiteral("account"), name}})
            : Result<QList<SystemClient::Reply>>(Error(Error::Kind::Internal, QStringLiteral("not asked")));
        if (detail) {
            for (const SystemClient::Reply &r : *detail)
                if (r.data.value(QLatin1String("account_detail")).toObject().value(QLatin1String("jetstream_enabled")).toBool())
                    a.jetstream = true;
        } else {
            a.jetstreamKnown = false;
        }
        a.streamsKnown = !a.jetstream;
        // The global account ($G) is always listed by the server; show it only when it is used.
        if (name == kGlobalAccount && !a.jetstream)
            continue;
        merged.append(a);
    }
    for (AccountInfo &a : merged) {
        a.isSystem = (a.name == systemAccount);
        if (a.jetstream && connections.hasAccountCredentials(a.name)) {
            auto conn = connections.account(a.name);
            if (conn) {
                JetStreamClient js(*conn, connections.profile().jsDomain);
                if (auto ai = js.accountInfo()) {
                    a.limits = ai->value(QLatin1String("limits")).toObject();
                    a.limitsKnown = true;
                }
            }
        }
    }
    sortByName(merged);
    return merged;
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
                     QStringLiteral("connect as a user of the account (--user/--password, --creds, ...) or give a system connection"));
    if (name.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("which account? the system connection sees them all"),
                     QStringLiteral("give --account NAME (see the accounts command)"));
    auto sysConn = connections.system();
    if (!sysConn)
        return sysConn.error();
    SystemClient sys(*sysConn);
    auto jsz = jszAllPages(sys, name);
    if (!jsz)
        return jsz.error();
    const QList<AccountInfo> merged = accountsFromJsz(*jsz);
    for (const AccountInfo &a : merged)
        if (a.name == name)
            return a;
    // Not a JetStream account (or unknown): say which.
    auto detail = sys.ping(QStringLiteral("ACCOUNTZ"), QJsonObject{{QStringLiteral("account"), name}});
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
