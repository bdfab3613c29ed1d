#pragma once

#include <QList>

#include <optional>

#include "diagnosis/accountcheckinput.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * The stream-level checks (docs/findings.md): pure functions over gathered state, no network; any thread.
 *
 * Typical use (CLI `check`, GUI findings list):
 * @code
 *   DiagnosisInput in;
 *   in.servers = *Discovery::servers(connections);
 *   in.accounts = {*Discovery::account(connections, name)};
 *   const QList<Finding> findings = Checks::diagnose(in);
 * @endcode
 *
 * Severities: critical = MQTT clients cannot connect now (or the next connect fails); error = data
 * loss or broken delivery; warning = breaks on upgrade, restart or node loss; info = for the record.
 * A healthy 2.9 account, a healthy 2.10+ account and an account no MQTT client has used yet produce
 * nothing above info.
 */
namespace Checks {

/**
 * Findings of one account: JETSTREAM_DISABLED, STREAM_MISSING, STREAM_SUBJECTS_WRONG,
 * STREAM_CONFIG_WRONG, SUBJECTS_OVERLAP, STREAM_LIMIT_HEADROOM, REPLICAS_MISMATCH, STREAM_UNHEALTHY,
 * RETAINED_LEGACY_LAYOUT, RETAINED_ORPHANED, RETAINED_DOWNGRADE, LEGACY_SESSION_STREAMS. Sorted
 * (sortFindings). Nothing but JETSTREAM_DISABLED when JetStream is off; nothing when the streams
 * are unknown (AccountInfo::streamsKnown false).
 *
 * MIXED_SERVER_VERSIONS is not reported here: it is a cluster-level finding (account empty) from
 * checkCluster(), so checking many accounts reports it once. The mixed layout still drives this
 * account's retained checks (a 2.10+-shaped $MQTT_rmsgs is RETAINED_DOWNGRADE).
 */
QList<Finding> checkAccount(const AccountCheckInput &input);

/** Cluster-level findings (account empty): MIXED_SERVER_VERSIONS. */
QList<Finding> checkCluster(const QList<ServerInfo> &servers, const CheckOptions &options = {});

/**
 * Whether the account shows that it serves MQTT: it has an MQTT stream (`$MQTT_*`, legacy session
 * streams included), or a stream of its captures `$MQTT.` subjects (made for MQTT state, or blocking
 * it). The one rule for AccountCheckInput::assumeMqtt, whichever way an account is checked (alone,
 * with every account, before a repair): the same state gets the same severities.
 */
bool showsMqttUse(const AccountInfo &account);

/** checkCluster() plus checkAccount() of every account (the system account only when asked), sorted. */
QList<Finding> diagnose(const DiagnosisInput &input);

/**
 * The finding that says why the MQTT stream `stream` of `account` does not exist: JETSTREAM_DISABLED,
 * its STREAM_MISSING, or the blocker that keeps the servers from creating it (SUBJECTS_OVERLAP naming it,
 * STREAM_LIMIT_HEADROOM, REPLICAS_MISMATCH). nullopt when no finding is about it.
 */
std::optional<Finding> whyMissing(const QList<Finding> &findings, const QString &account, const QString &stream);

/** Most severe first, then account, catalogue order of the code, stream, subject, client ID. */
void sortFindings(QList<Finding> &findings);

/** The highest severity, nullopt for no findings. */
std::optional<Finding::Severity> highestSeverity(const QList<Finding> &findings);

/** Exit code of the CLI's `check` (docs/cli.md): 0 nothing above info, 1 warnings, 2 errors or critical. */
int exitCodeFor(const QList<Finding> &findings);

} // namespace Checks
} // namespace MqttDoctor
