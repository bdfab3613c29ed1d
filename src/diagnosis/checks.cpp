#include "checks.h"

#include <QJsonArray>

#include <algorithm>
#include <vector>

#include "diagnosis/checkcontext.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttlogformats.h"
#include "diagnosis/sessionchecks.h"
#include "mqtt/layouts.h"

namespace MqttDoctor::Checks {

using Sev = Finding::Severity;

QList<Finding> checkAccount(const AccountCheckInput &input)
{
    QList<Finding> out;
    const AccountInfo &acc = input.account;
    if (acc.jetstreamKnown && !acc.jetstream) {
        Finding f = FindingCatalogue::make(FindingCodes::jetStreamDisabled(), acc.name);
        f.expected = QJsonObject{{QStringLiteral("jetstream"), true}};
        f.actual = QJsonObject{{QStringLiteral("jetstream"), false}};
        if (input.assumeMqtt) {
            f.detail = QStringLiteral("nats-server keeps all MQTT state in JetStream: every MQTT connect to account \"%1\" fails with "
                                      "\"JetStream not enabled for account (10039)\" and no CONNACK. Enable JetStream for the account "
                                      "(accounts { %1: { jetstream: enabled } } or its JWT limits) and reload.").arg(acc.name);
        } else {
            f.severity = Sev::Info;
            f.detail = QStringLiteral("Account \"%1\" has no JetStream, so it cannot serve MQTT clients (their connects would fail with "
                                      "10039). Nothing to do unless MQTT clients are meant to use it.").arg(acc.name);
        }
        return {f};
    }
    if (!acc.streamsKnown)
        return out;

    CheckContext ctx = CheckContext::make(input);
    ctx.checkReplicasConfig(out);
    ctx.checkOverlap(out);
    ctx.checkHeadroom(out);
    ctx.checkMissing(out);
    ctx.checkSubjectsAndConfig(out);
    ctx.checkReplicas(out);
    ctx.checkHealth(out);
    ctx.checkRetained(out);
    ctx.checkLegacySessions(out);

    if (ctx.capAtWarning)
        for (Finding &f : out)
            if (int(f.severity) > int(Sev::Warning)) {
                f.severity = Sev::Warning;
                f.detail += QStringLiteral(" (Account \"%1\" has no MQTT stream yet: either no MQTT client has connected to it, or every "
                                          "one was refused because of this. Rated a warning because it cannot be told which; the "
                                          "next MQTT client to connect fails.)").arg(acc.name);
            }
    sortFindings(out);
    return out;
}

QList<Finding> checkCluster(const QList<ServerInfo> &servers, const CheckOptions &options)
{
    const LayoutChoice choice = Layouts::choose(servers, options.layout);
    if (!choice.mixed())
        return {};
    QStringList legacyVersions;
    QStringList currentVersions;
    for (const ServerInfo &s : servers) {
        const QString name = s.name.isEmpty() ? s.id : s.name;
        const QString entry = QStringLiteral("%1 (%2)").arg(name, s.version);
        if (choice.legacyServers.contains(name))
            legacyVersions.append(entry);
        else if (choice.currentServers.contains(name))
            currentVersions.append(entry);
    }
    Finding f = FindingCatalogue::make(FindingCodes::mixedServerVersions(), QString(), QString(),
                                       {{QStringLiteral("versions"), choice.versions.join(QStringLiteral(", "))}});
    f.expected = QJsonObject{{QStringLiteral("layouts"), 1}};
    f.actual = QJsonObject{{QStringLiteral("2.9"), QJsonArray::fromStringList(legacyVersions)},
                           {QStringLiteral("2.10+"), QJsonArray::fromStringList(currentVersions)}};
    f.explains = QStringList{CheckContext::withCause(MqttLogFormats::createRetainedConsumer(), MqttLogFormats::errFilterNotSubset())};
    f.detail = QStringLiteral("%1 serve MQTT with the 2.9 layout and %2 with the 2.10+ layout. Each 2.10+ server, the first time it "
                              "sets up MQTT for an account, creates $MQTT_qos2in and $MQTT_out and migrates $MQTT_rmsgs to "
                              "$MQTT.rmsgs.>; from then on every MQTT connect to that account through a 2.9 server fails "
                              "(10093). Accounts checked here are held to the 2.9 retained layout until the upgrade is finished.")
                   .arg(legacyVersions.join(QStringLiteral(", ")), currentVersions.join(QStringLiteral(", ")));
    return {f};
}

QList<Finding> diagnose(const DiagnosisInput &input)
{
    QList<Finding> out = checkCluster(input.servers, input.options);
    for (const AccountInfo &acc : input.accounts) {
        if (acc.isSystem && !input.includeSystemAccount)
            continue;
        AccountCheckInput in;
        in.account = acc;
        in.servers = input.servers;
        in.options = input.options;
        if (input.limits.contains(acc.name))
            in.limits = input.limits.value(acc.name);
        bool hasMqtt = false;
        for (const StreamInfo &s : acc.streams)
            hasMqtt = hasMqtt || s.isMqtt();
        in.assumeMqtt = hasMqtt || input.mqttAccounts.contains(acc.name);
        out.append(checkAccount(in));
        if (input.sessions.contains(acc.name))
            out.append(checkSessions(input.sessions.value(acc.name), input.options));
    }
    sortFindings(out);
    return out;
}

void sortFindings(QList<Finding> &findings)
{
    // The catalogue's order of each finding's code, looked up once per finding, not per comparison.
    static const QHash<QString, qsizetype> order = [] {
        QHash<QString, qsizetype> rank;
        const QStringList codes = FindingCatalogue::codes();
        for (qsizetype i = 0; i < codes.size(); ++i)
            rank.insert(codes.at(i), i);
        return rank;
    }();
    std::vector<qsizetype> rank(size_t(findings.size()));
    std::vector<qsizetype> index(size_t(findings.size()));
    for (qsizetype i = 0; i < findings.size(); ++i) {
        rank[size_t(i)] = order.value(findings.at(i).code, -1);
        index[size_t(i)] = i;
    }
    std::stable_sort(index.begin(), index.end(), [&](qsizetype ia, qsizetype ib) {
        const Finding &a = findings.at(ia);
        const Finding &b = findings.at(ib);
        if (a.severity != b.severity)
            return int(a.severity) > int(b.severity);
        if (a.account != b.account)
            return a.account < b.account;
        if (rank[size_t(ia)] != rank[size_t(ib)])
            return rank[size_t(ia)] < rank[size_t(ib)];
        if (a.stream != b.stream)
            return a.stream < b.stream;
        if (a.subject != b.subject)
            return a.subject < b.subject;
        return a.clientId < b.clientId;
    });
    // Into that order in place (following each cycle of the permutation): no second list of findings.
    findings.detach();
    for (qsizetype start = 0; start < findings.size(); ++start) {
        if (index[size_t(start)] == start)
            continue;
        Finding held = std::move(findings[start]);
        qsizetype at = start;
        for (;;) {
            const qsizetype from = index[size_t(at)];
            index[size_t(at)] = at;
            if (from == start) {
                findings[at] = std::move(held);
                break;
            }
            findings[at] = std::move(findings[from]);
            at = from;
        }
    }
}

std::optional<Finding::Severity> highestSeverity(const QList<Finding> &findings)
{
    std::optional<Sev> best;
    for (const Finding &f : findings)
        if (!best || int(f.severity) > int(*best))
            best = f.severity;
    return best;
}

int exitCodeFor(const QList<Finding> &findings)
{
    const auto worst = highestSeverity(findings);
    if (!worst || *worst == Sev::Info)
        return 0;
    return *worst == Sev::Warning ? 1 : 2;
}

} // namespace MqttDoctor::Checks
