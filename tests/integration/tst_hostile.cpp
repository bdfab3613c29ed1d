// Hostile server replies: a poisoned responder on a REAL nats-server answers the
// JetStream API ($JS.API.> in an account without JetStream, on a server without JetStream) and the
// system requests ($SYS.REQ.> in an account that is not the system account) with truncated JSON,
// non-JSON, null, wrong types, huge or endless lists, unknown error codes, floods and silence. The
// real CLI and the core calls must end with a clear error naming the request, never crash or hang,
// and never send anything that changes state.
#include <QJsonArray>
#include <QTest>

#include "clirunner.h"
#include "natsserverfixture.h"
#include "poisonedresponder.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "nats/messagegetter.h"
#include "nats/streamindex.h"
#include "nats/streamreader.h"
#include "nats/systemclient.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

const QByteArray kInfo = R"({"type":"io.nats.jetstream.api.v1.account_info_response","memory":0,"storage":0,"streams":1,"consumers":0,
"limits":{"max_memory":-1,"max_storage":-1,"max_streams":-1,"max_consumers":-1},"api":{"total":1,"errors":0}})";
const QByteArray kStream = R"({"config":{"name":"$MQTT_sess","subjects":["$MQTT.sess.>"],"retention":"limits","max_msgs_per_subject":1,
"storage":"file","num_replicas":1},"state":{"messages":2,"bytes":10,"first_seq":1,"last_seq":2,"consumer_count":0},"created":"2026-12-02T15:50:37Z"})";
const QByteArray kStreamList = R"({"total":1,"offset":0,"limit":256,"streams":[)" + kStream + "]}";
const QByteArray kConsumers = R"({"total":0,"offset":0,"limit":256,"consumers":[]})";
const QByteArray kVarz = R"({"server":{"name":"fake1","host":"127.0.0.1","id":"NFAKE","ver":"2.9.10","jetstream":false},
"data":{"server_id":"NFAKE","server_name":"fake1","version":"2.9.10","mqtt":{}}})";
const QByteArray kAccountz =
    R"({"server":{"name":"fake1","id":"NFAKE","ver":"2.9.10"},"data":{"system_account":"SYS","accounts":["ACME"]}})";
// The ping every system request starts with: it tells how many servers to wait for.
const QByteArray kStatsz = R"({"server":{"name":"fake1","id":"NFAKE","ver":"2.9.10"},"statsz":{"active_servers":1}})";

QByteArray hugeNames(int n)
{
    QByteArray names;
    for (int i = 0; i < n; ++i)
        names += (i ? ",\"s" : "\"s") + QByteArray::number(i) + '"';
    return R"({"total":1000000000000,"offset":0,"limit":)" + QByteArray::number(n) + R"(,"streams":[)" + names + "]}";
}

QString errorKind(const CliRunner::Run &run)
{
    return run.json.value(QLatin1String("error")).toObject().value(QLatin1String("kind")).toString();
}

QString errorText(const CliRunner::Run &run)
{
    const QJsonObject e = run.json.value(QLatin1String("error")).toObject();
    return e.value(QLatin1String("message")).toString() + QLatin1Char(' ') + e.value(QLatin1String("hint")).toString();
}

// Requests that would change something: none may be sent after a poisoned read.
QStringList changes(const QStringList &subjects)
{
    QStringList out;
    for (const QString &s : subjects)
        for (const char *op : {".CREATE.", ".UPDATE.", ".DELETE.", ".PURGE.", ".MSG.DELETE.", ".DURABLE."})
            if (s.contains(QLatin1String(op)) && !s.contains(QLatin1String("CONSUMER.CREATE.")))
                out << s;
    return out;
}

} // namespace

class TestHostile : public QObject
{
    Q_OBJECT

private:
    NatsServerFixture m_server;
    PoisonedResponder m_js; // $JS.API.> of account POISON
    PoisonedResponder m_sys; // $SYS.REQ.> of account FAKESYS

    // --timeout bounds each request. The responder answers on loopback at once; a subject it has no
    // rule for gets silence on purpose, and the CLI waits the whole timeout for it.
    QStringList accountArgs(const QString &timeout = QStringLiteral("2s")) const
    {
        return {QStringLiteral("--server"),   m_server.url(),
                QStringLiteral("--user"),     QStringLiteral("victim"),
                QStringLiteral("--password"), QStringLiteral("victimpass"),
                QStringLiteral("--timeout"),  timeout};
    }
    QStringList systemArgs() const
    {
        return {QStringLiteral("--server"),          m_server.url(),
                QStringLiteral("--system-user"),     QStringLiteral("fakesys"),
                QStringLiteral("--system-password"), QStringLiteral("fakesyspass"),
                QStringLiteral("--timeout"),         QStringLiteral("2s")};
    }
    void validJetStream()
    {
        m_js.clearRules();
        m_js.setRule(QStringLiteral("$JS.API.INFO"), kInfo);
        m_js.setRule(QStringLiteral("$JS.API.STREAM.LIST"), kStreamList);
        m_js.setRule(QStringLiteral("$JS.API.STREAM.NAMES"), R"({"total":1,"offset":0,"limit":1024,"streams":["$MQTT_sess"]})");
        m_js.setRule(QStringLiteral("$JS.API.STREAM.INFO.$MQTT_sess"), kStream);
        m_js.setRule(QStringLiteral("$JS.API.CONSUMER.LIST."), kConsumers);
    }
    std::shared_ptr<NatsConnection> connect(const QString &user, const QString &password)
    {
        ConnectionSettings settings;
        settings.servers = {m_server.url()};
        settings.credentials.kind = Credentials::Kind::UserPassword;
        settings.credentials.user = user;
        settings.credentials.password = password;
        settings.timeoutMs = 1500;
        auto conn = NatsConnection::connect(settings);
        return conn ? *conn : nullptr;
    }

private slots:
    void initTestCase()
    {
        ServerConfig config;
        config.setJetStreamEnabled(false); // nobody but the responder answers $JS.API
        config.setMqttEnabled(false);
        config.clearSystemAccount();
        config.addSetting(QStringLiteral(R"(accounts {
  SYS: { users: [ { user: sys, password: syspass } ] }
  POISON: { users: [ { user: victim, password: victimpass }, { user: responder, password: responderpass } ] }
  FAKESYS: { users: [ { user: fakesys, password: fakesyspass }, { user: sysresponder, password: sysresponderpass } ] }
}
system_account: SYS)"));
        QVERIFY2(m_server.start(QStringLiteral("2.9"), config), qPrintable(m_server.errorString()));
        QVERIFY2(m_js.start(m_server.url(), QStringLiteral("responder"), QStringLiteral("responderpass"), {QStringLiteral("$JS.API.>")}),
                 qPrintable(m_js.errorString()));
        QVERIFY2(
            m_sys.start(m_server.url(), QStringLiteral("sysresponder"), QStringLiteral("sysresponderpass"), {QStringLiteral("$SYS.REQ.>")}),
            qPrintable(m_sys.errorString()));
    }

    void jetStreamReplies_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QStringList>("mentions");
        const QString info = QStringLiteral("$JS.API.INFO");
        const QString list = QStringLiteral("$JS.API.STREAM.LIST");
        const QString cons = QStringLiteral("$JS.API.CONSUMER.LIST.");
        const QString protocol = QStringLiteral("protocol");
        auto row = [](const char *name, const QString &subject, const QByteArray &reply, const QString &kind, const QStringList &mentions) {
            QTest::newRow(name) << subject << reply << kind << mentions;
        };
        row("INFO truncated", info, kInfo.left(40), protocol, {QStringLiteral("INFO"), QStringLiteral("not JSON")});
        row("INFO not JSON", info, "hello, world", protocol, {QStringLiteral("INFO"), QStringLiteral("not JSON")});
        row("INFO empty", info, "", protocol, {QStringLiteral("INFO"), QStringLiteral("empty")});
        row("INFO null", info, "null", protocol, {QStringLiteral("INFO"), QStringLiteral("not JSON"), QStringLiteral("null")});
        row("INFO array", info, "[1,2,3]", protocol, {QStringLiteral("INFO"), QStringLiteral("array")});
        row("INFO string", info, "\"ok\"", protocol, {QStringLiteral("INFO")});
        row("INFO memory string", info, R"({"memory":"lots","storage":0})", protocol, {QStringLiteral("INFO"), QStringLiteral("memory")});
        row("INFO limits array", info, R"({"memory":0,"limits":[1]})", protocol, {QStringLiteral("INFO"), QStringLiteral("limits")});
        row("INFO error unknown code", info, R"({"error":{"code":599,"err_code":99999,"description":"kaboom"}})",
            QStringLiteral("jetstream"), {QStringLiteral("INFO"), QStringLiteral("kaboom"), QStringLiteral("99999")});
        row("INFO error without fields", info, R"({"error":{}})", QStringLiteral("jetstream"),
            {QStringLiteral("INFO"), QStringLiteral("no description")});
        row("INFO error string", info, R"({"error":"kaboom"})", protocol, {QStringLiteral("INFO"), QStringLiteral("error")});
        row("INFO error huge code", info, R"({"error":{"code":1e300,"err_code":-5,"description":"x"}})", QStringLiteral("jetstream"),
            {QStringLiteral("INFO")});
        row("LIST streams string", list, R"({"total":1,"offset":0,"limit":256,"streams":"x"})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("not an array")});
        row("LIST total string", list, R"({"total":"1","offset":0,"streams":[]})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("total")});
        row("LIST entry number", list, R"({"total":1,"offset":0,"limit":256,"streams":[1]})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("not an object")});
        row("LIST config string", list, R"({"total":1,"offset":0,"limit":256,"streams":[{"config":"x","state":{}}]})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("config")});
        row("LIST name number", list, R"({"total":1,"offset":0,"limit":256,"streams":[{"config":{"name":5},"state":{}}]})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("config.name")});
        row("LIST messages string", list,
            R"({"total":1,"offset":0,"limit":256,"streams":[{"config":{"name":"S"},"state":{"messages":"many"}}]})", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("state.messages")});
        row("LIST huge total", list, R"({"total":1e15,"offset":0,"limit":1,"streams":[)" + kStream + "]}", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("entries")});
        row("LIST same page forever", list, R"({"total":1000,"offset":0,"limit":1,"streams":[)" + kStream + "]}", protocol,
            {QStringLiteral("STREAM.LIST"), QStringLiteral("offset")});
        row("CONSUMER.LIST not JSON", cons, "<html>502</html>", protocol,
            {QStringLiteral("CONSUMER.LIST.$MQTT_sess"), QStringLiteral("not JSON")});
        row("CONSUMER.LIST entry without name", cons, R"({"total":1,"offset":0,"limit":256,"consumers":[{"config":{}}]})", protocol,
            {QStringLiteral("CONSUMER.LIST.$MQTT_sess"), QStringLiteral("name")});
        row("CONSUMER.LIST never answers", cons, QByteArray(), QStringLiteral("timeout"), {QStringLiteral("CONSUMER.LIST.$MQTT_sess")});
    }

    void jetStreamReplies()
    {
        QFETCH(QString, subject);
        QFETCH(QByteArray, reply);
        QFETCH(QString, kind);
        QFETCH(QStringList, mentions);
        validJetStream();
        if (kind == QLatin1String("timeout"))
            m_js.setSilent(subject);
        else
            m_js.setRule(subject, reply);
        m_js.clearReceived();
        const auto run = CliRunner::run(accountArgs() + QStringList{QStringLiteral("streams"), QStringLiteral("--json")}, 60000);
        QVERIFY2(!run.process.crashed && !run.process.timedOut, qPrintable(run.describe()));
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(errorKind(run) == kind, qPrintable(run.describe()));
        for (const QString &m : mentions)
            QVERIFY2(errorText(run).contains(m), qPrintable(QStringLiteral("missing \"%1\" in: %2").arg(m, errorText(run))));
        QVERIFY2(changes(m_js.received()).isEmpty(), qPrintable(changes(m_js.received()).join(QLatin1Char(' '))));
    }

    // The valid fake answers read fine: the poisoned rows fail because of the poison, not the setup.
    void validRepliesRead()
    {
        validJetStream();
        const auto run = CliRunner::run(accountArgs() + QStringList{QStringLiteral("streams"), QStringLiteral("--json")}, 60000);
        // The fake account has $MQTT_sess only: the others are missing, and streams exits as
        // check would for them (2), with the streams it read and no error.
        QVERIFY2(run.exitCode() == 2 && run.jsonValid && !run.json.contains(QLatin1String("error"))
                     && !run.json.value(QLatin1String("missing")).toArray().isEmpty()
                     && !run.json.value(QLatin1String("streams")).toArray().isEmpty(),
                 qPrintable(run.describe()));
    }

    void coreCalls()
    {
        auto conn = connect(QStringLiteral("victim"), QStringLiteral("victimpass"));
        QVERIFY(conn);
        JetStreamClient js(conn);
        validJetStream();

        m_js.setRule(QStringLiteral("$JS.API.STREAM.NAMES"), hugeNames(1024));
        auto names = js.streamNames();
        QVERIFY(!names);
        QVERIFY2(names.error().message().contains(QLatin1String("STREAM.NAMES")), qPrintable(names.error().message()));

        m_js.setRule(QStringLiteral("$JS.API.STREAM.NAMES"), R"({"total":2,"offset":0,"limit":1024,"streams":["a",null]})");
        names = js.streamNames();
        QVERIFY2(!names && names.error().kind() == Error::Kind::Protocol, "a null stream name is malformed");

        m_js.setRule(QStringLiteral("$JS.API.STREAM.INFO.X"), R"({"config":{"name":"Y"},"state":{}})");
        auto info = js.streamInfo(QStringLiteral("X"));
        QVERIFY2(!info && info.error().message().contains(QLatin1String("STREAM.INFO.X")), "another stream's info is refused");

        m_js.setRule(QStringLiteral("$JS.API.CONSUMER.INFO."), "null");
        auto ci = js.call(QStringLiteral("CONSUMER.INFO.S.C"));
        QVERIFY2(!ci && ci.error().kind() == Error::Kind::Protocol && ci.error().message().contains(QLatin1String("CONSUMER.INFO.S.C")),
                 qPrintable(ci.error().message()));
        m_js.setRule(QStringLiteral("$JS.API.CONSUMER.DELETE."), R"({"error":{"code":500,"err_code":42424,"description":"odd"}})");
        auto del = js.call(QStringLiteral("CONSUMER.DELETE.S.C"));
        QVERIFY2(!del && del.error().jsErrCode() == 42424, "an unknown error code is kept");
        m_js.clearReceived(); // the deletes above were ours; from here on nothing may change anything

        StreamReader reader(conn);

        MessageGetter getter(conn);

        StreamIndex index(conn);
        // A state whose range cannot hold its message count would have callers list billions of sequences.
        m_js.setRule(QStringLiteral("$JS.API.STREAM.INFO.BIG"),
                     R"({"config":{"name":"BIG"},"state":{"messages":1,"first_seq":1,"last_seq":9000000000000000000}})");
        auto map = index.sequenceMap(QStringLiteral("BIG"));
        QVERIFY2(!map && map.error().kind() == Error::Kind::Protocol, "a bogus sequence range is refused");
        m_js.setRule(QStringLiteral("$JS.API.STREAM.INFO.BIG"),
                     R"({"config":{"name":"BIG"},"state":{"messages":1,"subjects":{"a":"x"}},"total":1})");
        auto counts = index.subjectCounts(QStringLiteral("BIG"));
        QVERIFY2(!counts && counts.error().kind() == Error::Kind::Protocol, "a subject count that is not a number is refused");

        // STREAM.MSG.GET: the wrong sequence, garbage, an error that is not an object; and silence.
        StreamReader::Options options;
        options.idleTimeoutMs = 1500;
        auto noop = [](QList<StreamMessage> &&, const ReadProgress &) { return true; };
        for (const QByteArray &poison : {QByteArray(R"({"message":{"subject":"a","seq":99,"data":""}})"), QByteArray("{\"message\":"),
                                         QByteArray(R"({"error":[1]})"), QByteArray(R"({"message":"x"})")}) {
            m_js.setRule(QStringLiteral("$JS.API.STREAM.MSG.GET.S"), poison);
            auto got = getter.getBySequences(QStringLiteral("S"), {1, 2, 3}, options, noop);
            QVERIFY2(!got && got.error().kind() == Error::Kind::Protocol, poison.constData());
            QVERIFY2(got.error().message().contains(QLatin1String("STREAM.MSG.GET.S")), qPrintable(got.error().message()));
        }
        m_js.setSilent(QStringLiteral("$JS.API.STREAM.MSG.GET.S"));
        auto silent = getter.getBySequences(QStringLiteral("S"), {1}, options, noop);
        QVERIFY2(!silent && silent.error().kind() == Error::Kind::Timeout, "silence ends as a timeout");

        // An ordered read whose consumer creation gets garbage (nats.c parses that reply itself).
        for (const QByteArray &poison : {QByteArray("garbage"), QByteArray("null"), QByteArray(R"({"error":{"code":1}})"),
                                         QByteArray(R"({"type":"x","config":[]})")}) {
            m_js.setRule(QStringLiteral("$JS.API.CONSUMER."), poison);
            auto read = reader.readLastPerSubject(QStringLiteral("$MQTT_sess"), {}, options, noop);
            QVERIFY2(!read, poison.constData());
        }
        QVERIFY2(changes(m_js.received()).isEmpty(), qPrintable(changes(m_js.received()).join(QLatin1Char(' '))));
    }

    // Every command that reads an account, with every API answer poisoned in turn (the account
    // listing itself valid): an error or findings, never a crash or a hang, and no change sent.
    void commandsUnderPoison_data()
    {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QByteArray>("reply");
        const QList<QPair<QString, QByteArray>> poisons{
            {QStringLiteral("$JS.API.STREAM.INFO."), "{\"config\":"},
            {QStringLiteral("$JS.API.STREAM.INFO."), "null"},
            {QStringLiteral("$JS.API.STREAM.INFO."), R"({"config":{"name":"$MQTT_sess","subjects":"x"},"state":{"messages":1}})"},
            {QStringLiteral("$JS.API.CONSUMER."), "garbage"},
            {QStringLiteral("$JS.API.CONSUMER."), R"({"error":{"code":503,"err_code":77777}})"},
            {QStringLiteral("$JS.API.STREAM.MSG.GET."), "[]"},
            {QStringLiteral("$JS.API.STREAM.NAMES"), R"({"total":5,"streams":[{}]})"},
        };
        const QList<QStringList> commands{{QStringLiteral("check")},
                                          {QStringLiteral("sessions")},
                                          {QStringLiteral("retained")},
                                          {QStringLiteral("--allow-changes"), QStringLiteral("repair"), QStringLiteral("--yes")}};
        for (const QStringList &command : commands)
            for (const auto &poison : poisons)
                QTest::addRow("%s %s %s", qPrintable(command.join(QLatin1Char(' '))), qPrintable(poison.first),
                              poison.second.left(20).constData())
                    << command << poison.first << poison.second;
    }

    void commandsUnderPoison()
    {
        QFETCH(QStringList, command);
        QFETCH(QString, subject);
        QFETCH(QByteArray, reply);
        validJetStream();
        m_js.setRule(subject, reply);
        m_js.clearReceived();
        // 1 s: these 28 runs wait out about 50 silent requests between them (2 s each took ~100 s
        // under ASan); a real reply of the responder comes within milliseconds even there.
        const auto run = CliRunner::run(accountArgs(QStringLiteral("1s")) + command + QStringList{QStringLiteral("--json")}, 90000);
        QVERIFY2(!run.process.crashed && !run.process.timedOut, qPrintable(run.describe()));
        QVERIFY2(run.exitCode() == 2 || run.exitCode() == 3, qPrintable(run.describe()));
        QVERIFY2(run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(changes(m_js.received()).isEmpty(), qPrintable(changes(m_js.received()).join(QLatin1Char(' '))));
        if (run.exitCode() == 3)
            qInfo().noquote() << "error:" << errorText(run);
    }

    void systemReplies_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<int>("copies");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("mentions");
        const QString varz = QStringLiteral("$SYS.REQ.SERVER.PING.VARZ");
        const QString accountz = QStringLiteral("$SYS.REQ.SERVER.PING.ACCOUNTZ");
        const QString jsz = QStringLiteral("$SYS.REQ.SERVER.PING.JSZ");
        const QString servers = QStringLiteral("servers");
        const QString accounts = QStringLiteral("accounts");
        const QString protocol = QStringLiteral("protocol");
        QTest::newRow("VARZ truncated") << servers << varz << kVarz.left(50) << 1 << protocol << varz;
        QTest::newRow("VARZ null") << servers << varz << QByteArray("null") << 1 << protocol << varz;
        QTest::newRow("VARZ data string") << servers << varz << QByteArray(R"({"server":{},"data":"x"})") << 1 << protocol << varz;
        QTest::newRow("VARZ server array") << servers << varz << QByteArray(R"({"server":[],"data":{}})") << 1 << protocol << varz;
        QTest::newRow("VARZ nameless") << servers << varz << QByteArray(R"({"server":{},"data":{}})") << 1 << protocol << varz;
        QTest::newRow("VARZ error") << servers << varz << QByteArray(R"({"error":{"code":418,"description":"teapot"}})") << 1 << protocol
                                    << QStringLiteral("teapot");
        // One server's reply is all a one-server roster waits for; copies after it go unread. A server
        // answering twice before the others have answered is an error.
        QTest::newRow("STATSZ twice") << servers << QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ")
                                      << QByteArray(R"({"server":{"name":"fake1","id":"NFAKE"},"statsz":{"active_servers":2}})") << 2
                                      << protocol << QStringLiteral("answered twice");
        QTest::newRow("STATSZ silence") << servers << QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ") << QByteArray() << 0
                                        << QStringLiteral("timeout") << QStringLiteral("no reply on $SYS.REQ.SERVER.PING.STATSZ");
        // Silence is a timeout, not a lack of system access (the system account always answers).
        QTest::newRow("VARZ silence") << servers << varz << QByteArray() << 0 << QStringLiteral("timeout") << varz;
        QTest::newRow("ACCOUNTZ accounts object")
            << accounts << accountz << QByteArray(R"({"server":{"name":"f"},"data":{"accounts":{}}})") << 1 << protocol << accountz;
        QTest::newRow("ACCOUNTZ account number")
            << accounts << accountz << QByteArray(R"({"server":{"name":"f"},"data":{"accounts":[7]}})") << 1 << protocol << accountz;
        QTest::newRow("JSZ details string") << accounts << jsz << QByteArray(R"({"server":{"name":"f"},"data":{"account_details":"x"}})")
                                            << 1 << protocol << jsz;
        QTest::newRow("JSZ nameless stream")
            << accounts << jsz
            << QByteArray(R"({"server":{"name":"f"},"data":{"account_details":[{"name":"ACME","stream_detail":[{"config":{}}]}]}})") << 1
            << protocol << jsz;
        // Every page full (the default page is 1,024 accounts) and the same: a server repeating itself.
        QByteArray full = R"({"server":{"name":"f"},"data":{"account_details":[)";
        for (int i = 0; i < 1024; ++i)
            full += (i ? ",{\"name\":\"A" : "{\"name\":\"A") + QByteArray::number(i) + "\"}";
        QTest::newRow("JSZ endless pages") << accounts << jsz << full + "]}}" << 1 << protocol << QStringLiteral("repeats");
        QTest::newRow("JSZ silence") << accounts << jsz << QByteArray() << 0 << QStringLiteral("timeout") << jsz;
    }

    void systemReplies()
    {
        QFETCH(QString, command);
        QFETCH(QString, subject);
        QFETCH(QByteArray, reply);
        QFETCH(int, copies);
        QFETCH(QString, kind);
        QFETCH(QString, mentions);
        m_sys.clearRules();
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ"), kStatsz);
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.VARZ"), kVarz);
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.ACCOUNTZ"), kAccountz);
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.JSZ"), R"({"server":{"name":"fake1"},"data":{"account_details":[]}})");
        if (copies == 0)
            m_sys.setSilent(subject);
        else
            m_sys.setRule(subject, reply, copies);
        const auto run = CliRunner::run(systemArgs() + QStringList{command, QStringLiteral("--json")}, 90000);
        QVERIFY2(!run.process.crashed && !run.process.timedOut, qPrintable(run.describe()));
        QVERIFY2(run.exitCode() == 3 && run.jsonValid, qPrintable(run.describe()));
        QVERIFY2(errorKind(run) == kind, qPrintable(run.describe()));
        QVERIFY2(errorText(run).contains(mentions), qPrintable(errorText(run)));
    }

    void systemCore()
    {
        auto conn = connect(QStringLiteral("fakesys"), QStringLiteral("fakesyspass"));
        QVERIFY(conn);
        SystemClient sys(conn, nullptr, 200);
        m_sys.clearRules();
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ"), kStatsz);
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING.CONNZ"), R"({"server":{"name":"f"},"data":{"connections":"x"}})");
        m_sys.setRule(QStringLiteral("$SYS.REQ.SERVER.PING"), "{\"statsz\":"); // the server ping itself
        auto raw = conn->gather(QStringLiteral("$SYS.REQ.SERVER.PING"), {}, 200);
        QVERIFY(raw);
        auto ping = SystemClient::parse(raw->first().data, QStringLiteral("$SYS.REQ.SERVER.PING"));
        QVERIFY2(!ping && ping.error().kind() == Error::Kind::Protocol, "a truncated statsz is malformed");
        QVERIFY(ping.error().message().contains(QLatin1String("$SYS.REQ.SERVER.PING")));
        auto connz = sys.ping(QStringLiteral("CONNZ"));
        QVERIFY2(connz, "the shape of data's members is the caller's to check (and the real server answers too)");
    }

    void cleanupTestCase()
    {
        m_js.stop();
        m_sys.stop();
        QVERIFY(m_server.stop());
    }
};

QTEST_GUILESS_MAIN(TestHostile)
#include "tst_hostile.moc"
