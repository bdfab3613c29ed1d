#pragma once
// Shared by the integration tests of check, repair and the record commands (header-only: the test
// support library must not link nats.c or the core). Runs `check --json` / `explain` as an operator would, changes streams through the
// account's raw JetStream API (JetStreamAdmin) as a careless operator would, and picks findings out of the CLI's JSON.

#include <QDebug>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QThread>

#include <memory>

#include "clirunner.h"
#include "diagnosis/logcatalogue.h"
#include "diagnosis/loglinematch.h"
#include "diagnosis/mqttprobe.h"
#include "jetstreamadmin.h"
#include "natsserverfixture.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/profile.h"

namespace MqttDoctor::Test::LiveCheck {

inline QString acme()
{
    return QStringLiteral("ACME");
}

inline QStringList systemArgs(const QString &url)
{
    return {QStringLiteral("--server"), url, QStringLiteral("--system-user"), QStringLiteral("sys"), QStringLiteral("--system-password"),
            QStringLiteral("syspass")};
}

inline QStringList userArgs(const QString &url, const QString &user, const QString &password)
{
    return {QStringLiteral("--server"), url, QStringLiteral("--user"), user, QStringLiteral("--password"), password};
}

/** A profile for ACME's own user (the account whose MQTT state the live tests make and break). */
inline Profile acmeProfile(const QString &url, bool allowChanges = false)
{
    Profile p;
    p.name = QStringLiteral("live-test");
    p.servers = {url};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = QStringLiteral("acme");
    p.auth.password = QStringLiteral("acmepass");
    p.allowChanges = allowChanges;
    return p;
}

/** acmeProfile() with the system user sys/syspass too (CONNZ: which MQTT clients are connected). */
inline Profile acmeWithSystemProfile(const QString &url, bool allowChanges = false)
{
    Profile p = acmeProfile(url, allowChanges);
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = QStringLiteral("sys");
    p.system.password = QStringLiteral("syspass");
    return p;
}

inline QStringList acmeArgs(const QString &url)
{
    return userArgs(url, QStringLiteral("acme"), QStringLiteral("acmepass"));
}

/** acmeArgs() with the system user sys/syspass too. */
inline QStringList acmeWithSystemArgs(const QString &url)
{
    return acmeArgs(url)
        + QStringList{QStringLiteral("--system-user"), QStringLiteral("sys"), QStringLiteral("--system-password"),
                      QStringLiteral("syspass")};
}

/**
 * What the product's own MQTT probe sees of ACME through the server's MQTT listener (acme/acmepass): QoS 1 and a
 * retained message to a new subscriber, then everything cleaned up. verified() is what a repair promises.
 */
inline MqttProbeResult probeAcme(const NatsServerFixture &server)
{
    MqttProbeRequest probe;
    probe.account = acme();
    probe.host = QStringLiteral("127.0.0.1");
    probe.port = server.mqttPort();
    probe.user = QStringLiteral("acme");
    probe.password = QStringLiteral("acmepass");
    return MqttProbe::run(probe);
}

inline QString describe(const CliRunner::Run &run);

/** `nats-mqtt-doctor-cli <connection> check --json <extra>`. MQTTDOCTOR_LIVECHECK_VERBOSE=1 prints the findings. */
inline CliRunner::Run check(const QStringList &connection, const QStringList &extra = {})
{
    CliRunner::Run run = CliRunner::run(connection + QStringList{QStringLiteral("check"), QStringLiteral("--json")} + extra);
    if (qEnvironmentVariableIsSet("MQTTDOCTOR_LIVECHECK_VERBOSE"))
        qInfo().noquote() << describe(run);
    return run;
}

inline QList<QJsonObject> findings(const CliRunner::Run &run)
{
    QList<QJsonObject> out;
    for (const QJsonValue &v : run.json.value(QLatin1String("findings")).toArray())
        out.append(v.toObject());
    return out;
}

inline QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

/**
 * The findings about the state (streams, records, clusters), without the servers' version advisories
 * (SERVER_VERSION_ADVISORY: info about the releases the test servers run, on 2.9 and 2.10).
 */
inline QList<QJsonObject> stateFindings(const CliRunner::Run &run)
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : findings(run))
        if (f.value(QLatin1String("code")).toString() != QLatin1String("SERVER_VERSION_ADVISORY"))
            out.append(f);
    return out;
}

/** Findings with this code (and stream, when given). */
inline QList<QJsonObject> findingsWith(const CliRunner::Run &run, const QString &code, const QString &stream = {})
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : findings(run))
        if (str(f, "code") == code && (stream.isEmpty() || str(f, "stream") == stream))
            out.append(f);
    return out;
}

inline QJsonObject findingWith(const CliRunner::Run &run, const QString &code, const QString &stream = {})
{
    const QList<QJsonObject> all = findingsWith(run, code, stream);
    return all.isEmpty() ? QJsonObject() : all.first();
}

inline int severityRank(const QString &severity)
{
    static const QStringList order{QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error"), QStringLiteral("critical")};
    return int(order.indexOf(severity));
}

/** Findings more severe than `severity`. */
inline QList<QJsonObject> findingsAbove(const CliRunner::Run &run, const QString &severity)
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : findings(run))
        if (severityRank(str(f, "severity")) > severityRank(severity))
            out.append(f);
    return out;
}

inline QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    return v.isBool() ? (v.toBool() ? QStringLiteral("true") : QStringLiteral("false")) : QStringLiteral("null");
}

/** One line per finding (severity code account stream: title, evidence) for failure messages. */
inline QString summary(const QList<QJsonObject> &list)
{
    QStringList lines;
    for (const QJsonObject &f : list) {
        const QJsonObject ev = f.value(QLatin1String("evidence")).toObject();
        lines << QStringLiteral("  %1 %2 %3 %4: %5 | expected %6 | actual %7")
                     .arg(str(f, "severity"), str(f, "code"), str(f, "account"), str(f, "stream"), str(f, "title"),
                          compact(ev.value(QLatin1String("expected"))), compact(ev.value(QLatin1String("actual"))));
    }
    return lines.isEmpty() ? QStringLiteral("  (no findings)") : lines.join(u'\n');
}

inline QString describe(const CliRunner::Run &run)
{
    if (!run.jsonValid)
        return run.describe();
    return QStringLiteral("check exit %1, findings:\n%2").arg(run.exitCode()).arg(summary(findings(run)));
}

inline QJsonValue expectedOf(const QJsonObject &finding)
{
    return finding.value(QLatin1String("evidence")).toObject().value(QLatin1String("expected"));
}

inline QJsonValue actualOf(const QJsonObject &finding)
{
    return finding.value(QLatin1String("evidence")).toObject().value(QLatin1String("actual"));
}

inline QString describeMatch(const LogLineMatch &m);

/** LogCatalogue::explain (in-process); MQTTDOCTOR_LIVECHECK_VERBOSE=1 prints the match. */
inline LogLineMatch explain(const QString &line)
{
    const LogLineMatch m = LogCatalogue::explain(line);
    if (qEnvironmentVariableIsSet("MQTTDOCTOR_LIVECHECK_VERBOSE"))
        qInfo().noquote() << describeMatch(m);
    return m;
}

/** The same through the CLI (`explain LINE --per-line --json`): the first match object. */
inline QJsonObject explainCli(const QString &line)
{
    const CliRunner::Run run = CliRunner::run({QStringLiteral("explain"), line, QStringLiteral("--per-line"), QStringLiteral("--json")});
    return run.json.value(QLatin1String("matches")).toArray().first().toObject();
}

inline QString describeMatch(const LogLineMatch &m)
{
    return QStringLiteral("explain(%1): matched=%2 template=%3 codes=%4 account=%5 client=%6 stream=%7 error_code=%8 severity=%9")
        .arg(m.line, m.matched ? QStringLiteral("yes") : QStringLiteral("no"), m.templateId, m.codes.join(u','), m.account, m.clientId,
             m.stream)
        .arg(m.errorCode)
        .arg(m.severity);
}

/** The last log line matching `pattern` since `from`; empty when none. */
inline QString logLine(const NatsServerFixture &server, const QRegularExpression &pattern, qsizetype from = 0)
{
    const QStringList lines = server.logLinesMatching(pattern, from);
    return lines.isEmpty() ? QString() : lines.constLast();
}

/** Stops the server and starts `label`'s binary on the same config, ports and JetStream store (an upgrade or downgrade). */
inline bool switchBinary(NatsServerFixture &server, const QString &label)
{
    const NatsServerBinary binary = NatsServerBinary::locate(label);
    server.stop(); // an unclean stop (SIGKILL) is what a crash before an upgrade looks like: go on
    const ServerConfig config = server.config(); // launch() reports an invalid binary in errorString()
    return server.launch(binary, config) && server.waitUntilReady(NatsServerFixture::DefaultReadyTimeoutMs);
}

/** The raw JetStream API connection of one account's user, shared with the demo (tools/common/jetstreamadmin.h). */
using Test::JetStreamAdmin;

} // namespace MqttDoctor::Test::LiveCheck
