#include "apierrorchecks.h"

#include <QJsonObject>

#include "common/duration.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/jsrequesttypes.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor::Checks {

std::optional<Finding> checkApiErrors(const AccountInfo &account, const AccountSample &previous, const QDateTime &now,
                                      const CheckOptions &options)
{
    if (!account.api || !previous.api || !account.api->comparableWith(*previous.api) || options.apiErrorsPerMinute < 0)
        return std::nullopt;
    const qint64 errors = account.api->errors - previous.api->errors;
    const qint64 requests = account.api->total - previous.api->total;
    if (errors <= 0 || !now.isValid() || !previous.time.isValid())
        return std::nullopt;
    const qint64 ms = std::max<qint64>(1, previous.time.msecsTo(now));
    const double perMinute = double(errors) * 60000.0 / double(ms);
    if (perMinute < double(options.apiErrorsPerMinute))
        return std::nullopt;
    qint64 msgsConsumers = 0;
    for (const StreamInfo &s : account.streams)
        if (s.name == MqttLayout::messagesStream())
            msgsConsumers = s.consumersKnown ? qint64(s.consumers.size()) : s.state.value(QLatin1String("consumer_count")).toInteger();
    const QString window = formatAge(std::max<qint64>(1, (ms + 500) / 1000));
    Finding f = FindingCatalogue::make(FindingCodes::jetStreamApiErrors(), account.name);
    const QString counted = account.api->source == QLatin1String("jsz")
        ? QStringLiteral("summed over the %1 server(s) that answered JSZ").arg(account.api->servers)
        : QStringLiteral("as counted by the server that answered $JS.API.INFO (other servers of a cluster count "
                         "their own)");
    f.detail = QStringLiteral("The JetStream API of account %1 answered %2 request(s) with an error in the last %3 (%4 per minute; %5 "
                              "request(s) in all, %6). Every CONNECT of a clean-session or new MQTT client adds one (its session "
                              "lookup finds no record), so a trickle is normal; this many means requests are failing now. The "
                              "account has %7 consumer(s), %8 of them on %9. Look in the servers' logs of that time for "
                              "\"timeout after ...: request type\" lines, whose type says which request failed (%10); "
                              "\"Unable to persist session\" (SP) and \"Unable to add JetStream consumer\" (CC) under load point to "
                              "an overloaded meta leader or too many consumers, where mqtt { js_api_timeout } (2.11.3+) and "
                              "fewer durables help.")
                   .arg(account.name)
                   .arg(errors)
                   .arg(window)
                   .arg(qint64(perMinute + 0.5))
                   .arg(requests)
                   .arg(counted)
                   .arg(account.consumerCount)
                   .arg(msgsConsumers)
                   .arg(MqttLayout::messagesStream(), JsRequestType::legend());
    f.expected = QJsonObject{{QStringLiteral("errors_per_minute_below"), options.apiErrorsPerMinute}};
    f.actual = QJsonObject{{QStringLiteral("errors"), errors},
                           {QStringLiteral("requests"), requests},
                           {QStringLiteral("seconds"), double(ms) / 1000.0},
                           {QStringLiteral("errors_before"), previous.api->errors},
                           {QStringLiteral("errors_now"), account.api->errors}};
    return f;
}

} // namespace MqttDoctor::Checks
