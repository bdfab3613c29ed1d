// AccountSnapshotLoader against a real nats-server 2.10 with a mosquitto-made session, counted with the
// connection set's RequestCounter: the CLI's `check` of one account (DiagnosisGatherer::gather, as
// checkcommand.cpp calls it) asks each thing once and, run again on the same connections, asks no
// server discovery; a snapshot loaded without its sessions streams them later (what a streamed
// `sessions` listing calls) without listing consumers, asking CONNZ or STREAM.INFO again.
#include <QTest>

#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/diagnosisgatherer.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/requestcounter.h"
#include "natsserverfixture.h"
#include "serverconfig.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;
using Kind = RequestCounter::Kind;

class TestAccountSnapshot : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void checkOfOneAccountReadsEachThingOnce();
    void sessionsStreamedFromASnapshot();

private:
    Profile profile() const;
    NatsServerFixture m_server;
};

Profile TestAccountSnapshot::profile() const
{
    Profile p;
    p.servers = {m_server.url()};
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = u"sys"_s;
    p.system.password = u"syspass"_s;
    Credentials acme;
    acme.kind = Credentials::Kind::UserPassword;
    acme.user = u"acme"_s;
    acme.password = u"acmepass"_s;
    p.accounts.insert(u"ACME"_s, acme);
    return p;
}

void TestAccountSnapshot::initTestCase()
{
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    QVERIFY2(m_server.start(u"2.10"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));
    const MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    for (const QString &id : {u"dev-1"_s, u"dev-2"_s}) {
        const MqttResult r = mqtt.createPersistentSession(id, {u"d/"_s + id}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }
}

void TestAccountSnapshot::checkOfOneAccountReadsEachThingOnce()
{
    ConnectionSet connections(profile());
    RequestCounter &requests = connections.requests();
    requests.setRecording(true);
    DiagnosisGatherer::Request request;
    request.account = u"ACME"_s;

    for (int run = 0; run < 2; ++run) {
        requests.clearRecorded();
        const RequestCounter::Counts before = requests.counts();
        auto input = DiagnosisGatherer::gather(connections, request);
        QVERIFY2(input, qPrintable(input ? QString() : input.error().toString()));
        QVERIFY(input->sessions.contains(u"ACME"_s));
        QCOMPARE(input->sessions.value(u"ACME"_s).sessions.size(), 2);
        const RequestCounter::Counts n = requests.counts() - before;
        const QString all = requests.recorded().join(u'\n') + u'\n';
        const QString what = u"run %1: "_s.arg(run) + n.toString() + u'\n' + all;
        // The servers once per connection set: the first run discovers them (STATSZ learns the
        // roster, VARZ, JSZ for the offline peers), the second uses what the set knows.
        const quint64 discovery = run == 0 ? 1 : 0;
        QVERIFY2(n[Kind::Statsz] == discovery && n[Kind::Varz] == discovery && n[Kind::Jsz] == discovery, qPrintable(what));
        QVERIFY2(n[Kind::JsAccountInfo] == 1 && n[Kind::StreamList] == 1 && n[Kind::StreamInfo] == 1, qPrintable(what));
        QVERIFY2(!all.contains(u"STREAM.INFO.$MQTT_sess"_s) && !all.contains(u"STREAM.NAMES"_s), qPrintable(what));
        QVERIFY2(n[Kind::ConsumerList] == 5, qPrintable(what));
        for (const QString &stream : {u"$MQTT_msgs"_s, u"$MQTT_out"_s, u"$MQTT_sess"_s, u"$MQTT_rmsgs"_s, u"$MQTT_qos2in"_s})
            QVERIFY2(all.count(u"CONSUMER.LIST."_s + stream + u'\n') == 1, qPrintable(what));
        QVERIFY2(n[Kind::Connz] == 1, qPrintable(what));
        // The servers' MQTT set-up of the account: one SUBSZ ping (RETAINED_CONSUMER_MISSING).
        QVERIFY2(n[Kind::OtherSystem] == 1 && all.count(u"$SYS.REQ.SERVER.PING.SUBSZ\n"_s) == 1, qPrintable(what));
        // One ordered consumer on $MQTT_sess: its CONSUMER.CREATE, and its CONSUMER.DELETE once read.
        QVERIFY2(n[Kind::OrderedConsumer] == 1 && n[Kind::ConsumerCreate] == 1 && n[Kind::ConsumerDelete] == 1, qPrintable(what));
        QVERIFY2(n.requests() == 12 + 3 * discovery, qPrintable(what));
    }
}

void TestAccountSnapshot::sessionsStreamedFromASnapshot()
{
    ConnectionSet connections(profile());
    AccountSnapshotLoader loader(connections);
    AccountSnapshotLoader::Options options;
    options.sessions = false;
    auto snapshot = loader.load(u"ACME"_s, options);
    QVERIFY2(snapshot, qPrintable(snapshot ? QString() : snapshot.error().toString()));
    QVERIFY(snapshot->recordAccess.has_value());
    QVERIFY(snapshot->records.consumersKnown && snapshot->records.connected.has_value());
    QVERIFY(snapshot->records.sessions.isEmpty());
    QCOMPARE(connections.requests().count(Kind::OrderedConsumer), 0u);

    const RequestCounter::Counts before = connections.requests().counts();
    SessionLoadOptions listing;
    listing.filter = u"dev-2"_s;
    QList<SessionEntry> rows;
    auto summary = AccountSnapshotLoader::streamSessions(*snapshot, listing, [&rows](QList<SessionEntry> &&batch, const ReadProgress &) {
        rows.append(batch);
        return true;
    });
    QVERIFY2(summary, qPrintable(summary ? QString() : summary.error().toString()));
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().clientId, u"dev-2"_s);
    QVERIFY2(!rows.first().hasProblems(), qPrintable(rows.first().problems().join(u"; "_s))); // joined with the snapshot's consumers
    QCOMPARE(rows.first().connected, std::optional<bool>(false)); // and its CONNZ
    const RequestCounter::Counts n = connections.requests().counts() - before;
    QVERIFY2(n[Kind::OrderedConsumer] == 1 && n[Kind::ConsumerCreate] == 1 && n[Kind::ConsumerDelete] == 1 && n.requests() == 2,
             qPrintable(n.toString()));
}

QTEST_GUILESS_MAIN(TestAccountSnapshot)
#include "tst_accountsnapshot.moc"
