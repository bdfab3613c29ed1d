#include "versionadvisories.h"

#include <QJsonArray>
#include <QJsonObject>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"

namespace MqttDoctor {

namespace {

// A release line as one number: 2.11 → 2011.
int releaseLineOf(const ServerVersion &v)
{
    return v.majorVersion() * 1000 + v.minorVersion();
}

QList<VersionAdvisories::Advisory> buildAdvisories()
{
    using A = VersionAdvisories::Advisory;
    return {
        A{QStringLiteral("retained-migration-spin"),
          QStringLiteral("a corrupt 2.9 retained message makes the move to per-subject retained messages retry it forever inside "
                         "CONNECT, so MQTT connects of the account hang"),
          QStringLiteral("2.10.0"),
          {QStringLiteral("2.10.6")},
          QStringLiteral("nats-server PR #4810")},
        A{QStringLiteral("consumer-churn-memory"),
          QStringLiteral("server memory grows while MQTT clients subscribe and leave (consumers created and deleted)"),
          {},
          {QStringLiteral("2.10.17"), QStringLiteral("2.11.0")},
          QStringLiteral("nats-server #5471, fixed by PR #5575")},
        A{QStringLiteral("retained-load-false-timeout"),
          QStringLiteral("false \"Timing out waiting to load N retained messages\" warnings when $MQTT_rmsgs has deleted sequences"),
          {},
          {QStringLiteral("2.11.12"), QStringLiteral("2.12.3"), QStringLiteral("2.14.0")},
          QStringLiteral("nats-server PR #7616")},
        A{QStringLiteral("qos2-silent-after-restart"),
          QStringLiteral("QoS 2 subscriptions receive nothing after a server restart"),
          QStringLiteral("2.10.0"),
          {QStringLiteral("2.11.12"), QStringLiteral("2.12.3")},
          QStringLiteral("nats-server PR #7643")},
        A{QStringLiteral("hash-collision-takeover"),
          QStringLiteral("a client whose ID has the same 8-character hash as another client's silently takes over that client's "
                         "session"),
          {},
          {QStringLiteral("2.11.15"), QStringLiteral("2.12.6"), QStringLiteral("2.14.0")},
          QStringLiteral("nats-server commit 0bb51511b (session restores with a mismatched client ID are refused)")},
        A{QStringLiteral("deny-bypass-retained-internal"),
          QStringLiteral("deny permissions are not applied to retained and QoS replays, and MQTT subscriptions to internal $MQTT. "
                         "subjects bypass deny rules (security)"),
          {},
          {QStringLiteral("2.12.14"), QStringLiteral("2.14.4")},
          QStringLiteral("nats-server security releases 2.12.12 to 2.12.14 and 2.14.3 to 2.14.4")},
        A{QStringLiteral("poisoned-record-panic"),
          QStringLiteral("a malformed record in $MQTT_rmsgs or $MQTT_sess, or a malformed JetStream reply, crashes the server"),
          {},
          {QStringLiteral("2.12.14"), QStringLiteral("2.14.4")},
          QStringLiteral("nats-server commit 0fb7c1f57 (backports 53d688e7a, f44c537da)")},
    };
}

} // namespace

const QList<VersionAdvisories::Advisory> &VersionAdvisories::all()
{
    static const QList<Advisory> table = buildAdvisories();
    return table;
}

bool VersionAdvisories::isFixed(const ServerVersion &running, const QStringList &fixedIn)
{
    const int line = releaseLineOf(running);
    bool newerThanEveryFix = true;
    for (const QString &text : fixedIn) {
        const auto fix = ServerVersion::parse(text);
        if (!fix)
            continue;
        const int fixLine = releaseLineOf(*fix);
        if (fixLine == line)
            return running >= *fix;
        if (fixLine > line)
            newerThanEveryFix = false;
    }
    return newerThanEveryFix && !fixedIn.isEmpty();
}

bool VersionAdvisories::affects(const Advisory &advisory, const QString &running)
{
    const auto version = ServerVersion::parse(running);
    if (!version)
        return false;
    if (!advisory.affectedFrom.isEmpty())
        if (const auto from = ServerVersion::parse(advisory.affectedFrom); from && *version < *from)
            return false;
    return !isFixed(*version, advisory.fixedIn);
}

QList<Finding> VersionAdvisories::findings(const QList<ServerInfo> &servers)
{
    QList<Finding> out;
    for (const Advisory &a : all()) {
        QStringList named;
        QJsonArray affected;
        for (const ServerInfo &s : servers) {
            if (s.mqttKnown && s.mqttPort <= 0)
                continue; // serves no MQTT
            if (!affects(a, s.version))
                continue;
            const QString name = s.name.isEmpty() ? s.id : s.name;
            named.append(QStringLiteral("%1 %2").arg(name, s.version));
            affected.append(QJsonObject{{QStringLiteral("server"), name}, {QStringLiteral("version"), s.version}});
        }
        if (named.isEmpty())
            continue;
        const QString fixes = a.fixedIn.join(QStringLiteral(" / "));
        Finding f = FindingCatalogue::make(FindingCodes::serverVersionAdvisory(), QString(), QString(),
                                           {{QStringLiteral("advisory"), a.id},
                                            {QStringLiteral("symptom"), a.symptom},
                                            {QStringLiteral("servers"), named.join(QStringLiteral(", "))}});
        f.expected = QJsonObject{{QStringLiteral("fixed_in"), QJsonArray::fromStringList(a.fixedIn)}};
        f.actual = QJsonObject{{QStringLiteral("servers"), affected}, {QStringLiteral("source"), a.source}};
        f.detail = QStringLiteral("Known defect of the version(s) these servers run: %1. Fixed in %2 (a newer release line has it "
                                  "from its first release; source: %3). Nothing in the streams is wrong because of this finding "
                                  "alone; it says what to expect until the servers are upgraded.")
                       .arg(a.symptom, fixes, a.source);
        out.append(f);
    }
    return out;
}

QString VersionAdvisories::markdownTable()
{
    QString out = QStringLiteral("| Advisory | Symptom | Affected from | Fixed in | Source |\n|---|---|---|---|---|\n");
    for (const Advisory &a : all())
        out += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n")
                   .arg(a.id, a.symptom, a.affectedFrom.isEmpty() ? QStringLiteral("any") : a.affectedFrom,
                        a.fixedIn.join(QStringLiteral(" / ")), a.source);
    return out;
}

} // namespace MqttDoctor
