#include "checkrecord.h"

#include <QJsonDocument>

#include "diagnosis/diagnosisgatherer.h"
#include "history/historylocation.h"

namespace MqttDoctor {

namespace {

std::optional<qint64> streamState(const AccountInfo &account, const QString &stream, const char *field)
{
    if (!account.streamsKnown)
        return std::nullopt;
    for (const StreamInfo &s : account.streams)
        if (s.name == stream)
            return s.state.value(QLatin1String(field)).toInteger();
    return 0;
}

} // namespace

QString CheckRecord::subscriptionsText(const SessionEntry &entry)
{
    QStringList lines;
    for (const SessionRecord::Subscription &s : entry.subscriptions())
        lines << QStringLiteral("%1 %2").arg(s.mqttFilter.isEmpty() ? s.natsSubject : s.mqttFilter).arg(s.qos);
    lines.sort();
    lines.removeDuplicates();
    return lines.join(QLatin1Char('\n'));
}

CheckRecord CheckRecord::of(const DiagnosisInput &input, const QList<Finding> &findings, int exitCode, const QString &source)
{
    CheckRecord r;
    r.at = input.sampledAt.isValid() ? input.sampledAt : QDateTime::currentDateTimeUtc();
    r.source = source;
    r.cluster = HistoryLocation::clusterName(input.servers);
    r.exitCode = exitCode;
    r.gaps = CoverageGap::texts(input.gaps);
    r.complete = !CoverageGap::anyLeavesVerdictOpen(input.gaps);
    r.coverage = AccountCoverage::of(input);
    if (r.coverage.size() == 1)
        r.scope = r.coverage.first().account;
    r.findings.reserve(findings.size());
    for (const Finding &f : findings)
        r.findings.append(
            {f.identity(), f.code, Finding::severityName(f.severity), f.account, f.stream, f.subject, f.clientId, f.title.toString()});
    for (const ServerInfo &s : input.servers)
        r.servers.append({s.id, s.name, s.version});

    QHash<QString, QString> recordsLevel;
    for (const AccountCoverage &c : std::as_const(r.coverage))
        recordsLevel.insert(c.account, c.records);
    for (const AccountInfo &a : input.accounts) {
        if (a.isSystem && !input.includeSystemAccount)
            continue;
        Counts c;
        c.account = a.name;
        c.retained = streamState(a, QStringLiteral("$MQTT_rmsgs"), "messages");
        c.queuedMessages = streamState(a, QStringLiteral("$MQTT_msgs"), "messages");
        c.queuedBytes = streamState(a, QStringLiteral("$MQTT_msgs"), "bytes");
        if (a.streamsKnown) {
            qint64 consumers = 0;
            QHash<QString, QString> configs;
            for (const StreamInfo &s : a.streams) {
                if (!s.isMqtt())
                    continue;
                consumers += s.state.value(QLatin1String("consumer_count")).toInteger();
                configs.insert(s.name, QString::fromUtf8(QJsonDocument(s.config).toJson(QJsonDocument::Compact)));
            }
            c.consumers = consumers;
            r.streamConfigs.insert(a.name, configs);
        }
        const auto sessions = input.sessions.constFind(a.name);
        if (sessions != input.sessions.cend()) {
            c.sessions = sessions->sessions.size();
            if (sessions->connected)
                c.connected = sessions->connected->size();
            // Only a complete read of the records is compared with the last one: a partial one would
            // report every record it missed as vanished.
            if (recordsLevel.value(a.name) == QLatin1String("checked")) {
                QList<SessionRow> rows;
                rows.reserve(sessions->sessions.size());
                for (const SessionEntry &e : sessions->sessions)
                    if (!e.isLegacy())
                        rows.append({e.subject, e.clientId, qint64(e.seq), subscriptionsText(e)});
                r.sessions.insert(a.name, std::move(rows));
            }
        } else {
            c.sessions = streamState(a, QStringLiteral("$MQTT_sess"), "messages");
            // No `$MQTT_sess` (no MQTT client yet) is a complete view of no records: the baseline the first
            // sessions appear against.
            if (recordsLevel.value(a.name) == QLatin1String("not_applicable"))
                r.sessions.insert(a.name, {});
        }
        r.counts.append(c);
    }
    r.samples = DiagnosisGatherer::samplesOf(input);
    for (auto it = input.closedConnections.cbegin(); it != input.closedConnections.cend(); ++it)
        r.clientEvents += it.value();
    return r;
}

} // namespace MqttDoctor
