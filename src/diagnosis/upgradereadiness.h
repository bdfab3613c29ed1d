#pragma once

#include <QList>
#include <QString>

#include "diagnosis/checkoptions.h"
#include "diagnosis/finding.h"
#include "diagnosis/sessionchecks.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * What a target server version (`check --target-version V`, CheckOptions::targetVersion) will refuse or
 * change for an account's real state, against what the servers run now (docs/findings.md):
 *
 * - UPGRADE_CLIENT_ID_REFUSED: client IDs of session records and connected clients with a space, tab, '.',
 *   '*', '>' or NUL, and connected client IDs whose hash another client's record holds: refused with
 *   CONNACK 0x02 from 2.11.15 / 2.12.6 / 2.14.0 (invalid UTF-8 is refused by every version, so no record
 *   or connection has it);
 * - UPGRADE_INTERNAL_SUBSCRIPTION: stored subscriptions to internal `$MQTT.` subjects (2.12.14 / 2.14.4);
 * - UPGRADE_RETAINED_SKIPPED: retained topics with whitespace control characters (2.12.9 / 2.14.1) or
 *   0x7f (2.14.0) that the target skips when it loads them and refuses on PUBLISH;
 * - UPGRADE_PAYLOAD_TOO_LARGE: retained payloads above the servers' max_payload (enforced on MQTT PUBLISH
 *   by newer servers).
 *
 * A change is reported only when the target has it and some server that serves MQTT does not yet. The
 * per-record work is a scan of each client ID (and of the connected IDs' hashes); it runs only with a
 * target version. Pure; any thread.
 */
class UpgradeReadiness final
{
public:
    /** The version each change comes with, per release line (VersionAdvisories::isFixed rules). */
    static QStringList clientIdRefusalVersions();
    static QStringList internalSubscriptionVersions();
    static QStringList controlCharacterTopicVersions();
    static QStringList delCharacterTopicVersions();

    /** Why `clientId` is refused from clientIdRefusalVersions(), empty when it is not. */
    static QString clientIdProblem(const QString &clientId);
    /** Why retained `topic` is skipped, and from which versions (controlCharacterTopicVersions or delCharacterTopicVersions); empty when not. */
    static QString topicProblem(const QString &topic, QStringList *versions = nullptr);

    /** Whether `target` has the change of `versions` and some server of `servers` that serves MQTT does not. */
    static bool changesWith(const QList<ServerInfo> &servers, const ServerVersion &target, const QStringList &versions);

    /** The findings of one account's records (sessions, connected clients, retained messages), sorted. */
    static QList<Finding> accountFindings(const SessionCheckInput &input, const QList<ServerInfo> &servers, const CheckOptions &options);
};

} // namespace MqttDoctor
