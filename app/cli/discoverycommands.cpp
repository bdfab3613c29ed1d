#include "clicontext.h"
#include "jsoncontract.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include "common/jsonstreamwriter.h"
#include "diagnosis/accountcoverage.h"
#include "diagnosis/checks.h"
#include "diagnosis/diagnosisinput.h"
#include "mqtt/layouts.h"
#include "nats/clustergroup.h"
#include "nats/clusterjson.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

QString yesNo(bool b)
{
    return b ? QStringLiteral("yes") : QStringLiteral("no");
}

QString serverLinks(const ServerInfo &s)
{
    QStringList links;
    if (!s.gatewayRemotes.isEmpty())
        links << QStringLiteral("gateway to ") + s.gatewayRemotes.join(QLatin1Char(','));
    if (s.leafListener)
        links << QStringLiteral("leaf node hub");
    if (s.leafRemotes > 0)
        links << QStringLiteral("leaf node (%1 remote%2)").arg(s.leafRemotes).arg(s.leafRemotes == 1 ? QString() : QStringLiteral("s"));
    return links.isEmpty() ? QStringLiteral("-") : links.join(QStringLiteral("; "));
}

int runServers(CliContext &ctx)
{
    auto found = Discovery::servers(*ctx.connections);
    if (!found)
        return ctx.fail(found.error());
    const QList<ServerInfo> servers = ClusterGroup::sortedByCluster(*found);
    const QList<ClusterGroup> clusters = ClusterGroup::of(servers);
    if (ctx.json) {
        QJsonArray arr;
        for (const ServerInfo &s : servers)
            arr.append(ClusterJson::server(s));
        QJsonArray groups;
        for (const ClusterGroup &g : clusters)
            groups.append(g.toJson());
        printJson(ctx.out,
                  QJsonObject{{QStringLiteral("schema"), JsonContract::id(QStringLiteral("servers"))},
                              {QStringLiteral("servers"), arr},
                              {QStringLiteral("clusters"), groups},
                              {QStringLiteral("unanswered_servers"), ctx.unansweredServersJson()}});
        return ExitOk;
    }
    TextTable table({QStringLiteral("NAME"), QStringLiteral("VERSION"), QStringLiteral("CLUSTER"), QStringLiteral("JETSTREAM"),
                     QStringLiteral("MQTT"), QStringLiteral("LINKS"), QStringLiteral("ID")});
    for (const ServerInfo &s : servers) {
        const QString mqtt = !s.mqttKnown ? QStringLiteral("unknown")
            : s.mqttPort > 0              ? QStringLiteral("%1:%2").arg(s.mqttHost).arg(s.mqttPort)
                                          : QStringLiteral("none");
        QString js = yesNo(s.jetstream);
        if (s.jetstream && !s.jsDomain.isEmpty())
            js += QStringLiteral(" (domain ") + s.jsDomain + QLatin1Char(')');
        table.addRow({s.name.isEmpty() ? QStringLiteral("?") : s.name, s.version.isEmpty() ? QStringLiteral("?") : s.version,
                      s.cluster.isEmpty() ? QStringLiteral("-") : s.cluster, js, mqtt, serverLinks(s), s.id});
    }
    table.print(ctx.out);
    // Several clusters (a supercluster): one line per cluster, and the ones no server of answers.
    if (clusters.size() > 1) {
        ctx.out << '\n';
        for (const ClusterGroup &g : clusters) {
            const QString name = g.name.isEmpty() ? QStringLiteral("(not clustered)") : QStringLiteral("Cluster ") + g.name;
            if (!g.problem.isEmpty()) {
                ctx.out << name << ": UNREACHABLE: " << g.problem << ".\n";
                continue;
            }
            ctx.out << name << ": " << g.servers.size() << (g.servers.size() == 1 ? " server (" : " servers (")
                    << g.servers.join(QStringLiteral(", ")) << ')';
            if (!g.gateways.isEmpty())
                ctx.out << ", gateways to " << g.gateways.join(QStringLiteral(", "));
            ctx.out << ".\n";
        }
    }
    ctx.printUnansweredServers();
    if (!ctx.connections->hasSystem())
        ctx.out << "\n(without a system connection, MQTT listeners cannot be seen; give --system-user/--system-password)\n";
    return ExitOk;
}

QString limitText(const AccountInfo &a)
{
    if (!a.limitsKnown)
        return QStringLiteral("-");
    const auto n = [&](const char *key) { return a.limits.value(QLatin1String(key)).toInteger(-1); };
    QStringList parts;
    if (n("max_streams") >= 0)
        parts << QStringLiteral("streams<=%1").arg(n("max_streams"));
    if (n("max_consumers") >= 0)
        parts << QStringLiteral("consumers<=%1").arg(n("max_consumers"));
    if (n("max_storage") >= 0)
        parts << QStringLiteral("file<=") + humanBytes(n("max_storage"));
    if (n("max_memory") >= 0)
        parts << QStringLiteral("mem<=") + humanBytes(n("max_memory"));
    return parts.isEmpty() ? QStringLiteral("unlimited") : parts.join(QLatin1Char(' '));
}

QString findingText(const QJsonObject &counts)
{
    QStringList parts;
    for (const char *k : {"critical", "error", "warning"})
        if (const int n = counts.value(QLatin1String(k)).toInt())
            parts << QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(k),
                                                          n > 1 && qstrcmp(k, "critical") != 0 ? QStringLiteral("s") : QString());
    return parts.isEmpty() ? QStringLiteral("ok") : parts.join(QStringLiteral(", "));
}

int runAccounts(CliContext &ctx)
{
    auto accounts = Discovery::accounts(*ctx.connections);
    if (!accounts)
        return ctx.fail(accounts.error());
    // Finding counts per account, from the same stream-level checks as `check --all-accounts`.
    QHash<QString, QJsonObject> counts;
    // What those checks covered: the streams (the system view), never the records (`check` reads them).
    QHash<QString, QJsonObject> coverage;
    if (auto servers = Discovery::servers(*ctx.connections)) {
        DiagnosisInput input;
        input.includeSystemAccount = true;
        input.servers = *servers;
        input.accounts = *accounts;
        for (const AccountInfo &a : *accounts)
            if (a.limitsKnown)
                input.limits.insert(a.name, a.limits);
        for (const AccountCoverage &c : AccountCoverage::of(input))
            coverage.insert(c.account, c.toJson());
        input.includeSystemAccount = false;
        for (const Finding &f : Checks::diagnose(input)) {
            QJsonObject &c = counts[f.account];
            const QString key = Finding::severityName(f.severity);
            c.insert(key, c.value(key).toInt() + 1);
        }
    }
    const auto findingCounts = [&](const QString &account) {
        QJsonObject c = counts.value(account);
        for (const char *k : {"critical", "error", "warning", "info"})
            if (!c.contains(QLatin1String(k)))
                c.insert(QLatin1String(k), 0);
        return c;
    };
    if (ctx.json) {
        JsonStreamWriter w(ctx.out);
        w.beginObject();
        w.string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("accounts")));
        w.beginArray(QStringLiteral("accounts"));
        for (const AccountInfo &a : *accounts) {
            QJsonObject o = ClusterJson::account(a);
            o.insert(QStringLiteral("findings"), findingCounts(a.name));
            o.insert(QStringLiteral("coverage"), coverage.value(a.name));
            w.value({}, o);
        }
        w.endArray();
        w.value(QStringLiteral("unanswered_servers"), ctx.unansweredServersJson());
        w.endObject();
        w.finish();
        return ExitOk;
    }
    TextTable table({QStringLiteral("ACCOUNT"), QStringLiteral("JETSTREAM"), QStringLiteral("STREAMS"), QStringLiteral("MQTT STREAMS"),
                     QStringLiteral("STORAGE"), QStringLiteral("LIMITS"), QStringLiteral("STREAM CHECKS")});
    for (const AccountInfo &a : *accounts) {
        QStringList mqtt;
        for (const StreamInfo &s : a.streams)
            if (s.isMqtt())
                mqtt << s.name;
        QString name = a.name.isEmpty() ? QStringLiteral("(connected user's account)") : a.name;
        if (a.isSystem)
            name += QStringLiteral(" (system)");
        const QString js = !a.jetstreamKnown ? QStringLiteral("unknown")
            : a.jetstream                    ? QStringLiteral("enabled")
                                             : QStringLiteral("disabled");
        table.addRow({name, js, a.streamsKnown && a.jetstream ? QString::number(a.streamCount) : QStringLiteral("-"),
                      !a.jetstream         ? QStringLiteral("-")
                          : mqtt.isEmpty() ? QStringLiteral("none")
                                           : mqtt.join(QLatin1Char(' ')),
                      a.jetstream ? humanBytes(a.storage) : QStringLiteral("-"), limitText(a), findingText(findingCounts(a.name))});
    }
    table.print(ctx.out);
    ctx.out << "Stream checks: the MQTT streams' configuration and state only; session records, consumers and connected "
               "clients are checked by \"check --all-accounts\".\n";
    ctx.printUnansweredServers();
    return ExitOk;
}

/** What `streams` shows of one account: its MQTT streams against the layout the servers expect, and why missing ones are. */
struct StreamsView
{
    AccountInfo account;
    QList<StreamInfo> mqtt;
    LayoutChoice layout;
    QStringList missing; ///< the layout's streams the account does not have (with JetStream)
    QMap<QString, Finding> why; ///< missing stream -> the finding that explains it
    int exitCode = ExitOk; ///< the one `check` would give for those findings
};

/** The account, the servers' expected layout and, for the missing streams, the stream-level findings that explain them. */
Result<StreamsView> readStreams(ConnectionSet &connections, const QString &accountName)
{
    auto account = Discovery::account(connections, accountName);
    if (!account)
        return account.error();
    StreamsView v;
    v.account = std::move(account).value();
    v.mqtt = v.account.mqttStreams();
    auto servers = Discovery::servers(connections);
    if (!servers)
        return servers.error();
    v.layout = Layouts::choose(*servers, {}, v.account.streams);
    for (const MqttStreamSpec &spec : v.layout.layout.streams()) {
        const bool present = std::any_of(v.mqtt.cbegin(), v.mqtt.cend(), [&](const StreamInfo &s) { return s.name == spec.name; });
        if (!present && v.account.jetstream)
            v.missing << spec.name;
    }
    // Why each missing stream is missing (the stream-level findings): absent is not "not created yet"
    // when something keeps the servers from creating it.
    QList<Finding> streamFindings;
    if (!v.missing.isEmpty()) {
        DiagnosisInput input;
        input.servers = *servers;
        input.accounts = {v.account};
        input.includeSystemAccount = true;
        if (v.account.limitsKnown)
            input.limits.insert(v.account.name, v.account.limits);
        streamFindings = Checks::diagnose(input);
    }
    for (const QString &name : std::as_const(v.missing))
        if (auto f = Checks::whyMissing(streamFindings, v.account.name, name))
            v.why.insert(name, *f);
    v.exitCode = v.why.isEmpty() ? ExitOk : Checks::exitCodeFor(v.why.values());
    return v;
}

void writeStreamsJson(QTextStream &out, const StreamsView &v)
{
    // Written stream by stream (an account's legacy per-session streams and its consumers can be many).
    JsonStreamWriter w(out);
    w.beginObject();
    w.string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("streams")));
    w.string(QStringLiteral("account"), v.account.name);
    w.boolean(QStringLiteral("jetstream"), v.account.jetstream);
    w.value(QStringLiteral("layout"), v.account.jetstream ? QJsonValue(v.layout.toJson()) : QJsonValue(QJsonValue::Null));
    w.strings(QStringLiteral("missing"), v.missing);
    w.string(QStringLiteral("source"), v.account.source);
    w.beginArray(QStringLiteral("streams"));
    for (const StreamInfo &s : v.mqtt) {
        QJsonObject o = ClusterJson::stream(s);
        if (const auto spec = v.layout.layout.stream(s.name)) {
            o.insert(QStringLiteral("expected"), spec->expectedConfig());
            QJsonArray diffs;
            for (const MqttStreamSpec::Difference &d : spec->differences(s.config))
                diffs.append(QJsonObject{
                    {QStringLiteral("field"), d.field}, {QStringLiteral("expected"), d.expected}, {QStringLiteral("actual"), d.actual}});
            o.insert(QStringLiteral("differences"), diffs);
        } else {
            o.insert(QStringLiteral("expected"), QJsonValue(QJsonValue::Null));
            o.insert(QStringLiteral("differences"), QJsonArray());
        }
        w.value({}, o);
    }
    w.endArray();
    w.endObject();
    w.finish();
}

/** The findings that explain the missing streams, each once (no info), and where their evidence is. */
void printWhyMissing(QTextStream &out, const StreamsView &v)
{
    QStringList shown;
    for (const Finding &f : v.why) {
        if (shown.contains(f.identity()) || f.severity == Finding::Severity::Info)
            continue;
        shown << f.identity();
        out << "  " << Finding::severityName(f.severity).toUpper() << ' ' << f.code << "  " << f.title << '\n';
    }
    if (!shown.isEmpty())
        out << "Run \"check --account " << v.account.name << "\" for the evidence and the repair.\n";
}

void printStreamTable(QTextStream &out, const QList<StreamInfo> &mqtt)
{
    TextTable table({QStringLiteral("STREAM"), QStringLiteral("SUBJECTS"), QStringLiteral("RETENTION"), QStringLiteral("STORAGE"),
                     QStringLiteral("REPLICAS"), QStringLiteral("PER-SUBJECT"), QStringLiteral("MESSAGES"), QStringLiteral("BYTES"),
                     QStringLiteral("CONSUMERS"), QStringLiteral("CLUSTER"), QStringLiteral("LEADER")});
    for (const StreamInfo &s : mqtt) {
        QStringList subjects;
        for (const QJsonValue &v : s.config.value(QLatin1String("subjects")).toArray())
            subjects << v.toString();
        QString name = s.name;
        if (s.isLegacySession())
            name += QStringLiteral(" (legacy)");
        table.addRow({name, subjects.join(QLatin1Char(',')), s.config.value(QLatin1String("retention")).toString(),
                      s.config.value(QLatin1String("storage")).toString(),
                      QString::number(s.config.value(QLatin1String("num_replicas")).toInt()),
                      QString::number(s.config.value(QLatin1String("max_msgs_per_subject")).toInteger()),
                      QString::number(s.state.value(QLatin1String("messages")).toInteger()),
                      humanBytes(s.state.value(QLatin1String("bytes")).toInteger()),
                      QString::number(s.state.value(QLatin1String("consumer_count")).toInt()),
                      s.cluster.value(QLatin1String("name")).toString(QStringLiteral("-")),
                      s.cluster.value(QLatin1String("leader")).toString(QStringLiteral("-"))});
    }
    table.print(out);
}

/** Each config field of a stream that differs from the layout's: "<stream> <field>: -expected +actual". */
void printDifferences(QTextStream &out, const StreamsView &v)
{
    for (const StreamInfo &s : v.mqtt) {
        const auto spec = v.layout.layout.stream(s.name);
        if (!spec)
            continue;
        for (const MqttStreamSpec::Difference &d : spec->differences(s.config)) {
            const auto text = [](const QJsonValue &value) {
                return value.isArray() ? QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact))
                                       : value.toVariant().toString();
            };
            out << s.name << ' ' << d.field << ": -" << text(d.expected) << " +" << text(d.actual) << '\n';
        }
    }
}

int printStreams(QTextStream &out, const StreamsView &v)
{
    const AccountInfo &account = v.account;
    out << "Account " << (account.name.isEmpty() ? QStringLiteral("(connected user's account)") : account.name)
        << (account.source == QLatin1String("jsz") ? " (system view, read-only)" : "") << '\n';
    if (!account.jetstream) {
        out << "JetStream is not enabled for this account: MQTT clients of this account cannot connect.\n";
        return ExitOk;
    }
    if (v.mqtt.isEmpty()) {
        if (v.exitCode == ExitOk) {
            out << "No MQTT streams. nats-server creates them on the first MQTT connection of the account.\n";
        } else {
            out << "No MQTT streams, and the servers cannot create them:\n";
            printWhyMissing(out, v);
        }
        return v.exitCode;
    }
    printStreamTable(out, v.mqtt);
    const LayoutChoice &layout = v.layout;
    out << "\nExpected layout: " << MqttLayout::kindName(layout.layout.kind()) << " (" << layout.layout.streams().size()
        << " streams, replicas " << layout.layout.replicas();
    if (!layout.cluster.isEmpty())
        out << " in cluster " << layout.cluster << " of " << layout.peerCount() << " JetStream server"
            << (layout.peerCount() == 1 ? "" : "s") << ": " << layout.peers.join(QStringLiteral(", "));
    out << ")\n";
    if (!v.missing.isEmpty()) {
        out << "Missing: " << v.missing.join(QStringLiteral(", ")) << '\n';
        printWhyMissing(out, v);
    }
    printDifferences(out, v);
    return v.exitCode;
}

int runStreams(CliContext &ctx)
{
    const auto view = readStreams(*ctx.connections, ctx.parser.value(QStringLiteral("account")));
    if (!view)
        return ctx.fail(view.error());
    if (!ctx.json)
        return printStreams(ctx.out, *view);
    writeStreamsJson(ctx.out, *view);
    return view->exitCode;
}

} // namespace

QList<Command> discoveryCommands()
{
    Command streams{QStringLiteral("streams"),
                    QStringLiteral("Show an account's MQTT streams ($MQTT_*) with config, state and consumers."),
                    {QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                                        QStringLiteral("name"))},
                    runStreams};
    streams.account = AccountUse::One; // with only a system connection: its JSZ view
    return {
        {QStringLiteral("servers"),
         QStringLiteral("List the servers: name, id, version, cluster, JetStream, MQTT listener."),
         {},
         runServers},
        {QStringLiteral("accounts"),
         QStringLiteral("List the accounts with their JetStream state, limits and MQTT streams."),
         {},
         runAccounts},
        streams,
    };
}

} // namespace MqttDoctor::Cli
