// The demo's seeded problems (docs/findings.md), each made the way it happens on a real server:
// real mosquitto clients set up the MQTT state, then the
// account's own JetStream API breaks it as a careless operator or tool does. The JetStream requests
// go through JetStreamAdmin (tools/common), as the integration tests' do.
#include "demoscenario.h"

#include "jetstreamadmin.h"
#include "mqtt/clientidhash.h"
#include "natsserverfixture.h"

#include <QJsonArray>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Demo {

namespace {

QString sessionSubject(const QString &clientId)
{
    return u"$MQTT.sess."_s + ClientIdHash::hash(clientId);
}

} // namespace

// OVERLAP: an operator's stream on `$MQTT.>`, made before the first MQTT client of the account. The
// server cannot create $MQTT_sess (10065), so no MQTT stream exists and every MQTT client is dropped.
bool DemoScenario::seedOverlap(Test::NatsServerFixture &server)
{
    const DemoAccount account = accountNamed(u"OVERLAP"_s);
    Test::JetStreamAdmin admin;
    if (!admin.connect({server.url()}, account.user, account.password))
        return fail(u"connecting as %1: %2"_s.arg(account.user, admin.error()));
    const QJsonObject archive{{u"name"_s, u"MQTT_ARCHIVE"_s}, {u"subjects"_s, QJsonArray{u"$MQTT.>"_s}}, {u"storage"_s, u"file"_s}};
    if (!admin.createStream(archive))
        return fail(u"creating MQTT_ARCHIVE in %1: %2"_s.arg(account.name, admin.error()));
    const QString logLine = refusedConnect(server, account.name, u"overlap-device"_s, true);
    if (logLine.isEmpty())
        return false;
    m_problems << SeededProblem{account.name,
                                {u"SUBJECTS_OVERLAP"_s},
                                u"OVERLAP: stream MQTT_ARCHIVE (subjects $MQTT.>) was made before the first MQTT client, so the server "
                                "cannot create $MQTT_sess and the other MQTT streams; every MQTT client is dropped without a CONNACK"_s,
                                logLine};
    return true;
}

// NOSESS: MQTT was set up (a retained message), then $MQTT_sess was deleted while the server runs. The
// server never recreates it: every connect fails loading the session record (10059).
bool DemoScenario::seedMissingSessions(Test::NatsServerFixture &server)
{
    const DemoAccount account = accountNamed(u"NOSESS"_s);
    if (!publish(server, account.name, u"plant/line-1/status"_s, "running", 1, true))
        return false;
    Test::JetStreamAdmin admin;
    if (!admin.connect({server.url()}, account.user, account.password))
        return fail(u"connecting as %1: %2"_s.arg(account.user, admin.error()));
    if (!admin.deleteStream(u"$MQTT_sess"_s))
        return fail(u"deleting $MQTT_sess in %1: %2"_s.arg(account.name, admin.error()));
    const QString logLine = refusedConnect(server, account.name, u"nosess-device"_s, true);
    if (logLine.isEmpty())
        return false;
    m_problems << SeededProblem{account.name,
                                {u"STREAM_MISSING"_s},
                                u"NOSESS: $MQTT_sess was deleted after MQTT was set up; the server never recreates it, so every MQTT "
                                "client is dropped (the retained message in $MQTT_rmsgs is still there)"_s,
                                logLine};
    return true;
}

// GARBAGE: a client's session record overwritten with bytes that are not JSON (a careless import, a
// hand-made publish). Every connect of that client fails decoding it; the other sessions work.
bool DemoScenario::seedGarbageRecord(Test::NatsServerFixture &server)
{
    const DemoAccount account = accountNamed(u"GARBAGE"_s);
    if (!createSession(server, account.name, u"meter-1"_s, {u"meters/meter-1/cmd"_s})
        || !createSession(server, account.name, u"meter-2"_s, {u"meters/meter-2/cmd"_s}))
        return false;
    Test::JetStreamAdmin admin;
    if (!admin.connect({server.url()}, account.user, account.password))
        return fail(u"connecting as %1: %2"_s.arg(account.user, admin.error()));
    const QString subject = sessionSubject(u"meter-2"_s);
    if (!admin.store(subject, "this is not a session record (overwritten by an import script)"))
        return fail(u"storing a garbage record on %1 in %2: %3"_s.arg(subject, account.name, admin.error()));
    const QString logLine = refusedConnect(server, account.name, u"meter-2"_s, false, u"unmarshal of session record"_s);
    if (logLine.isEmpty())
        return false;
    m_problems << SeededProblem{account.name,
                                {u"SESSION_UNDECODABLE"_s},
                                u"GARBAGE: the session record of \"meter-2\" (%1) was overwritten with text that is not JSON; every "
                                "connect of \"meter-2\" fails decoding it (\"meter-1\" is fine)"_s.arg(subject),
                                logLine};
    return true;
}

// ORPHAN: a session record purged by hand while its durables on $MQTT_msgs remain. Nothing reads them
// any more; on an interest stream they pin every message they match (nats-server #3116). The server
// logs nothing.
bool DemoScenario::seedOrphanConsumers(Test::NatsServerFixture &server)
{
    const DemoAccount account = accountNamed(u"ORPHAN"_s);
    if (!createSession(server, account.name, u"tracker-1"_s, {u"trackers/tracker-1/cmd"_s})
        || !createSession(server, account.name, u"tracker-2"_s, {u"trackers/tracker-2/cmd"_s, u"trackers/all/cmd"_s})
        || !publish(server, account.name, u"trackers/tracker-2/cmd"_s, "report position", 1, false))
        return false;
    Test::JetStreamAdmin admin;
    if (!admin.connect({server.url()}, account.user, account.password))
        return fail(u"connecting as %1: %2"_s.arg(account.user, admin.error()));
    const QString subject = sessionSubject(u"tracker-2"_s);
    if (!admin.call(u"STREAM.PURGE.$MQTT_sess"_s, QJsonObject{{u"filter"_s, subject}}))
        return fail(u"purging %1 in %2: %3"_s.arg(subject, account.name, admin.error()));
    const QString prefix = ClientIdHash::hash(u"tracker-2"_s) + u'_';
    QStringList orphans;
    for (const QString &name : admin.consumerNames(u"$MQTT_msgs"_s))
        if (name.startsWith(prefix))
            orphans << name;
    if (orphans.isEmpty())
        return fail(
            u"tracker-2 of %1 has no durables on $MQTT_msgs: %2"_s.arg(account.name, admin.consumerNames(u"$MQTT_msgs"_s).join(u", "_s)));
    m_problems << SeededProblem{account.name,
                                {u"ORPHAN_CONSUMER"_s},
                                u"ORPHAN: the session record of \"tracker-2\" was purged while its %1 durables on $MQTT_msgs (%2) remain; "
                                "nothing reads them, so the message queued for it stays in $MQTT_msgs forever"_s.arg(orphans.size())
                                    .arg(orphans.join(u", "_s)),
                                {}};
    return true;
}

} // namespace MqttDoctor::Demo
