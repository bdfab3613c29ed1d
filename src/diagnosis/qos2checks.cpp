#include "diagnosis/qos2checks.h"

#include <QJsonArray>
#include <QSet>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor::Checks {

QList<Finding> checkQos2Orphans(const SessionCheckInput &input)
{
    QList<Finding> out;
    if (!input.qos2Records)
        return out;
    QSet<QString> hashes;
    for (const SessionEntry &e : input.sessions)
        if (!e.isLegacy())
            hashes.insert(e.hash);
    for (const Qos2Records::Orphans &o : input.qos2Records->orphans(hashes)) {
        const bool incoming = o.stream == MqttLayout::qos2InStream();
        const QString owner = incoming ? QStringLiteral("\"%1\"").arg(o.clientId) : QStringLiteral("hash %1").arg(o.hash);
        Finding f =
            FindingCatalogue::make(FindingCodes::qos2Orphaned(), input.account, o.stream,
                                   {{QStringLiteral("count"), QString::number(o.sequences.size())}, {QStringLiteral("owner"), owner}});
        f.subject = o.subjectFilter;
        f.clientId = o.clientId;
        if (!incoming)
            f.severity = Finding::Severity::Warning;
        QStringList pis;
        for (int pi : o.packetIds)
            pis << QString::number(pi);
        f.detail = incoming
            ? QStringLiteral("%1 holds %2 QoS 2 message(s) that client \"%3\" published (packet IDs %4) and never released with a "
                             "PUBREL, but $MQTT_sess has no session of that client (hash %5): a clean session ended, or the "
                             "record was removed. Nothing ever deletes them. The stream keeps one message per packet ID, so "
                             "when a client with this ID publishes QoS 2 again with one of these packet IDs, the server "
                             "takes the new message for a duplicate and delivers the old one on its PUBREL.")
                  .arg(o.stream)
                  .arg(o.sequences.size())
                  .arg(o.clientId, pis.join(QStringLiteral(", ")), o.hash)
            : QStringLiteral("%1 holds %2 PUBREL record(s) (packet IDs %3) for the session of hash %4, which has no record in "
                             "$MQTT_sess any more. No client completes them; they hold storage until removed.")
                  .arg(o.stream)
                  .arg(o.sequences.size())
                  .arg(pis.join(QStringLiteral(", ")), o.hash);
        f.expected = QJsonObject{{QStringLiteral("session_subject_hash"), o.hash}, {QStringLiteral("records"), 0}};
        f.actual = o.toJson();
        out.append(std::move(f));
    }
    return out;
}

} // namespace MqttDoctor::Checks
