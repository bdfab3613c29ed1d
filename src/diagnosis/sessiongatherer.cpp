// Gathers the input of the record-level checks (Checks::checkSessions) of one account. Blocking.

#include "diagnosisgatherer.h"

#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"
#include "nats/streamreader.h"
#include "records/recordsource.h"

namespace MqttDoctor::DiagnosisGatherer {

Result<SessionCheckInput> gatherSessions(ConnectionSet &connections, const AccountInfo &account,
                                         const QList<ServerInfo> &servers)
{
    auto src = RecordSource::resolve(connections, account.name, servers);
    if (!src)
        return src.error();
    SessionCheckInput in;
    in.account = account.name;
    in.now = QDateTime::currentDateTimeUtc();

    // Sessions first, then consumers: a session created in between shows as an orphan candidate
    // rather than a missing consumer, and the repair re-checks before it deletes anything.
    SessionLoadOptions options;
    options.dialect = src->dialect;
    options.domain = src->apiDomain;
    QList<SessionEntry> sessions;
    auto summary = SessionLoader::load(src->connection, options, std::nullopt, std::nullopt,
                                       [&sessions](QList<SessionEntry> &&batch, const ReadProgress &) {
                                           sessions.append(std::move(batch));
                                           return true;
                                       });
    if (!summary)
        return summary.error();

    auto consumers = SessionLoader::loadConsumers(src->connection, src->apiDomain);
    if (!consumers)
        return consumers.error();
    in.consumers = *consumers;
    in.consumersKnown = true;
    in.connected = src->connectedClients(connections);
    for (SessionEntry &e : sessions) {
        SessionLoader::joinConsumers(e, in.consumers, true);
        SessionLoader::joinConnected(e, in.connected);
    }
    in.sessions = std::move(sessions);

    // Duplicates are possible only when the stream keeps more than one message per subject.
    for (const StreamInfo &s : account.streams) {
        if (s.name != MqttLayout::sessionsStream())
            continue;
        if (s.config.value(QLatin1String("max_msgs_per_subject")).toInteger(-1) != 1) {
            StreamReader reader(src->connection, src->apiDomain);
            auto counts = reader.subjectCounts(MqttLayout::sessionsStream(), QStringLiteral("$MQTT.sess.>"));
            if (!counts)
                return counts.error();
            in.subjectCounts = *counts;
        }
    }
    return in;
}

} // namespace MqttDoctor::DiagnosisGatherer
