#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include "common/result.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "nats/profile.h"

namespace MqttDoctor {

/** Where and as whom the probe connects (the profile's `mqtt_probe` entry of an account, resolved). */
struct MqttProbeRequest
{
    QString account;
    QString host;
    int port = 1883;
    QString user; ///< empty: none
    QString password; ///< secret: never in a result, a log or an error
    bool tls = false;
    QString caFile; ///< with tls: the CA file (empty: the system's)
    QString certFile; ///< with tls: a client certificate (optional)
    QString keyFile;
    int timeoutMs = 5000; ///< per step
};

/** One step of a probe: what it did, whether it worked, what happened. */
struct MqttProbeStep
{
    QString name; ///< "connect", "qos1" (subscribe, publish, receive), "retained", "clear_retained", "remove_session"
    bool ok = false;
    QString detail; ///< one sentence
    qint64 ms = 0; ///< how long it took
};

/** What a real MQTT client saw (MqttProbe::run). */
struct MqttProbeResult
{
    enum class Verdict {
        Verified, ///< every step worked: connects, QoS 1 and retained delivery work for a client now
        Failed, ///< a step failed: MQTT clients see the same
        NotRun, ///< nothing to probe with (no listener or user): `why`
    };
    Verdict verdict = Verdict::NotRun;
    QString account;
    QString listener; ///< host:port
    QString clientId;
    QString topic; ///< the reserved topic's prefix
    QString why; ///< Failed: the failed step's detail; NotRun: why it did not run
    QList<MqttProbeStep> steps;
    /** What could not be cleaned up afterwards (a retained message or a session left behind); empty when all was. */
    QString leftBehind;

    bool verified() const { return verdict == Verdict::Verified; }
    /** "verified", "failed", "not_run". */
    static QString verdictName(Verdict v);
    /** One line: "MQTT delivery verified for account ACME through 127.0.0.1:1883 (...)" or why not. */
    QString summary() const;
    /** {account, verdict, listener, client_id, topic, why?, left_behind?, steps: [{name, ok, detail, ms}]} (docs/cli.md). */
    QJsonObject toJson() const;
    static MqttProbeResult notRun(const QString &account, const QString &why);
};

/**
 * An end-to-end probe of an account's MQTT service through its MQTT listener, with a real MQTT 3.1.1
 * client (libmosquitto): a client with a reserved client ID (`nats-mqtt-doctor-probe-<random>`) connects
 * with a persistent session, subscribes at QoS 1 to a reserved topic (`nats-mqtt-doctor/probe/<random>/...`)
 * and gets its own QoS 1 message back; publishes a retained message that a second, new subscriber must
 * receive; clears it again (a new subscriber then gets none); and ends by removing its session (a clean
 * connect). What it leaves behind when a step fails is cleaned up as far as the server allows and said.
 *
 * Blocking, seconds: call on a worker thread. Each call has its own clients; calls may run at once.
 */
namespace MqttProbe {

MqttProbeResult run(const MqttProbeRequest &request);

/**
 * The probe of `account` as the profile describes it (`mqtt_probe`): its user, and its listener or else
 * the MQTT listener the servers report (a wildcard host replaced by the host of the profile's first
 * server). NotFound when the profile has no entry for the account; InvalidInput for a listener that is not
 * host:port, TLS files given inline, or no listener at all.
 */
Result<MqttProbeRequest> requestFor(const Profile &profile, const QString &account, const QList<ServerInfo> &servers);

/**
 * Probes each of `accounts` the profile has an `mqtt_probe` entry for (every one, NotRun with the reason
 * for those it has none for, when `everyAccount` is false; those are left out when it is true).
 */
QList<MqttProbeResult> probeAccounts(const Profile &profile, const QList<ServerInfo> &servers, const QStringList &accounts,
                                     bool everyAccount);

} // namespace MqttProbe

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::MqttProbeResult)
