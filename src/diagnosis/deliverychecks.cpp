// Delivery checks of the sessions (docs/findings.md): durables that deliver without getting acknowledged
// (CONSUMER_STUCK) and offline sessions that keep many messages in the interest streams (INTEREST_PINNED).

#include "deliverychecks.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>

#include "common/duration.h"
#include "diagnosis/checks.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor::Checks {

namespace {

/** A byte count for a sentence: "12.3 MiB". */
QString deliveryBytesText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

struct StuckDurable
{
    QString name;
    QString sid;
    ConsumerProgress now;
    std::optional<ConsumerProgress> before;
};

} // namespace

QList<Finding> checkStuckConsumers(const SessionCheckInput &input, const AccountSample *previous, const CheckOptions &options)
{
    Q_UNUSED(options)
    QList<Finding> out;
    if (!input.consumersKnown || !input.connected || input.connected->isEmpty())
        return out;
    const bool compare = previous && previous->consumersKnown;
    const qint64 seconds =
        compare && input.now.isValid() && previous->time.isValid() ? std::max<qint64>(0, previous->time.secsTo(input.now)) : 0;
    for (const SessionEntry &e : input.sessions) {
        if (!e.record || e.isLegacy() || e.clientId.isEmpty())
            continue;
        // Every rule needs deliveries waiting for acknowledgement, which the join already counted.
        if (std::none_of(e.consumers.cbegin(), e.consumers.cend(),
                         [](const SessionConsumer &c) { return c.exists && c.numAckPending > 0; }))
            continue;
        const auto server = input.connected->constFind(e.clientId);
        if (server == input.connected->cend())
            continue;
        QList<StuckDurable> stuck;
        qint64 queued = 0;
        for (const SessionConsumer &c : e.consumers)
            queued += c.exists ? c.pending() : 0;
        for (const SessionConsumer &c : e.consumers) {
            if (!c.exists || c.numAckPending <= 0 || c.sid == QLatin1String("pubrel"))
                continue;
            const SessionLoader::IndexedConsumer *indexed = input.consumers.find(c.name);
            if (!indexed)
                continue;
            const ConsumerProgress now = ConsumerProgress::fromInfo(indexed->stream, indexed->info);
            std::optional<ConsumerProgress> before;
            if (compare)
                if (const auto it = previous->consumers.constFind(c.name); it != previous->consumers.cend())
                    before = *it;
            const bool advancedWithoutAcks = before && now.deliveredConsumerSeq > before->deliveredConsumerSeq
                && now.ackFloorConsumerSeq == before->ackFloorConsumerSeq && now.numAckPending > 0;
            const bool atLimit = now.maxAckPending > 0 && now.numAckPending >= now.maxAckPending && now.numRedelivered > 0;
            if (advancedWithoutAcks || atLimit)
                stuck.append({c.name, c.sid, now, advancedWithoutAcks ? before : std::nullopt});
        }
        if (stuck.isEmpty())
            continue;
        Finding f = FindingCatalogue::make(FindingCodes::consumerStuck(), input.account, MqttLayout::messagesStream(),
                                           {{QStringLiteral("subject"), e.subject}, {QStringLiteral("client_id"), e.clientId}});
        QStringList clauses;
        QJsonArray actual;
        for (const StuckDurable &d : std::as_const(stuck)) {
            QString clause;
            if (d.before) {
                clause = QStringLiteral("%1 (subscription %2) delivered %3 more time(s) in %4 while its ack floor stayed at stream "
                                        "sequence %5")
                             .arg(d.name, d.sid)
                             .arg(d.now.deliveredConsumerSeq - d.before->deliveredConsumerSeq)
                             .arg(formatAge(std::max<qint64>(1, seconds)))
                             .arg(d.now.ackFloorStreamSeq);
            } else {
                clause = QStringLiteral("%1 (subscription %2) has %3 deliveries waiting for acknowledgement, its max_ack_pending, and "
                                        "has redelivered %4 time(s): the server sends it nothing new")
                             .arg(d.name, d.sid)
                             .arg(d.now.numAckPending)
                             .arg(d.now.numRedelivered);
            }
            clauses << clause;
            QJsonObject o{{QStringLiteral("consumer"), d.name},
                          {QStringLiteral("delivered_consumer_seq"), d.now.deliveredConsumerSeq},
                          {QStringLiteral("ack_floor_stream_seq"), d.now.ackFloorStreamSeq},
                          {QStringLiteral("num_ack_pending"), d.now.numAckPending},
                          {QStringLiteral("max_ack_pending"), d.now.maxAckPending},
                          {QStringLiteral("num_redelivered"), d.now.numRedelivered},
                          {QStringLiteral("num_pending"), d.now.numPending}};
            if (d.before)
                o.insert(QStringLiteral("delivered_consumer_seq_before"), d.before->deliveredConsumerSeq);
            actual.append(o);
        }
        f.detail = QStringLiteral("Client \"%1\" is connected (to %2), yet its durable %3. Its client receives and does not "
                                  "acknowledge (PUBACK), or its acknowledgements do not reach the durable. Its durables hold %4 "
                                  "queued message(s). Resetting the session (back up, delete the record and its durables) lets "
                                  "the next CONNECT start clean; those queued messages are lost to it.")
                       .arg(e.clientId, server->isEmpty() ? QStringLiteral("a server") : *server, clauses.join(QStringLiteral("; ")))
                       .arg(queued);
        f.expected = QStringLiteral("the ack floor follows the deliveries");
        f.actual = actual;
        out.append(std::move(f));
    }
    sortFindings(out);
    return out;
}

QList<Finding> checkInterestPinned(const SessionCheckInput &input, const AccountInfo &account, const CheckOptions &options)
{
    QList<Finding> out;
    if (!input.consumersKnown || !input.connected || options.pinnedWarnAt < 0)
        return out;
    QHash<QString, double> averageBytes;
    for (const StreamInfo &s : account.streams) {
        const qint64 messages = s.state.value(QLatin1String("messages")).toInteger();
        if (messages > 0)
            averageBytes.insert(s.name, double(s.state.value(QLatin1String("bytes")).toInteger()) / double(messages));
    }
    for (const SessionEntry &e : input.sessions) {
        if (!e.record || e.isLegacy() || e.clientId.isEmpty())
            continue;
        qint64 held = 0;
        for (const SessionConsumer &c : e.consumers)
            held += c.exists ? c.pending() : 0;
        if (held <= options.pinnedWarnAt || input.connected->contains(e.clientId))
            continue;
        qint64 bytes = 0;
        QStringList durables;
        for (const SessionConsumer &c : e.consumers)
            if (c.exists && c.pending() > 0) {
                bytes += qint64(double(c.pending()) * averageBytes.value(c.stream, 0.0) + 0.5);
                durables << QStringLiteral("%1 (%2)").arg(c.name).arg(c.pending());
            }
        const QString written = e.time.isValid() ? e.time.toString(Qt::ISODate) : QStringLiteral("at an unknown time");
        const QString age = e.time.isValid() && input.now.isValid() ? formatAge(std::max<qint64>(0, e.time.secsTo(input.now))) : QString();
        Finding f = FindingCatalogue::make(FindingCodes::interestPinned(), input.account, MqttLayout::messagesStream(),
                                           {{QStringLiteral("subject"), e.subject}, {QStringLiteral("client_id"), e.clientId}});
        // The title names no count: the same session stays one finding while its count changes.
        f.detail = QStringLiteral("Session \"%1\" is not connected; its record was last written %2%3. Its durables %4 hold %5 "
                                  "message(s), about %6, which %7 keeps for it (interest retention) until the client reconnects "
                                  "and acknowledges them, or the session is deleted. If the device is gone, delete the session "
                                  "(backed up first); if it comes back, it gets them then.")
                       .arg(e.clientId, written, age.isEmpty() ? QString() : QStringLiteral(" (%1 ago)").arg(age),
                            durables.join(QStringLiteral(", ")))
                       .arg(held)
                       .arg(deliveryBytesText(bytes), MqttLayout::messagesStream());
        f.expected = QJsonObject{{QStringLiteral("max_messages_offline"), options.pinnedWarnAt}};
        f.actual = QJsonObject{{QStringLiteral("messages"), held},
                               {QStringLiteral("bytes_estimated"), bytes},
                               {QStringLiteral("written"), e.time.isValid() ? QJsonValue(e.time.toString(Qt::ISODate)) : QJsonValue()},
                               {QStringLiteral("connected"), false}};
        out.append(std::move(f));
    }
    sortFindings(out);
    return out;
}

} // namespace MqttDoctor::Checks
