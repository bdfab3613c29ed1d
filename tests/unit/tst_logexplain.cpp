// Explaining server log lines (LogCatalogue::explain): the prefix variants of every server version, Go %q
// unquoting, lines that must stay unmatched, and the meaning, advice and JSON of a match. The catalogue itself,
// checked against the captured lines: tst_logcatalogue.cpp.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtConcurrent/QtConcurrentMap>

#include "diagnosis/logcatalogue.h"
#include "diagnosis/logline.h"

#include "capturedlogs.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::CapturedLogs;
using namespace Qt::StringLiterals;

class TestLogExplain : public QObject
{
    Q_OBJECT

private slots:
    // --- prefixes and quoting -------------------------------------------------------------------------------------

    void prefixVariants_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<QString>("level");
        const QString msg = u"unable to connect: loading session record: stream not found (10059) for account \"ACME\", "
                            u"session \"fresh1\""_s;
        const QString cl = u"127.0.0.1:45696 - mid:30 - \"fresh1\" - "_s;
        QTest::newRow("full") << u"[1234] 2026/12/02 15:50:37.344798 [ERR] "_s + cl + msg << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("no pid") << u"2026/12/02 15:50:37.344798 [ERR] "_s + cl + msg << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("level only") << u"[ERR] "_s + cl + msg << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("message only") << msg << u"fresh1"_s << QString();
        QTest::newRow("no wrapper") << u"[ERR] "_s + cl + msg.mid(19) << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("journald") << u"Dec 02 15:50:37 mqtt-1 nats-server[1234]: [1234] 2026/12/02 15:50:37.344798 [ERR] "_s + cl + msg
                                  << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("grep -n") << u"nats.log:1822:[1234] 2026/12/02 15:50:37.344798 [ERR] "_s + cl + msg << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("crlf") << u"[1234] 2026/12/02 15:50:37.344798 [ERR] "_s + cl + msg + u"  \r\n"_s << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("warn level") << u"[1234] 2026/12/02 15:50:37.344798 [WRN] "_s + cl + msg << u"fresh1"_s << u"WRN"_s;
        QTest::newRow("utc time") << u"[1234] 2026/12/02 15:50:37.344798Z [ERR] "_s + cl + msg << u"fresh1"_s << u"ERR"_s;
        QTest::newRow("ipv6") << u"[1234] 2026/12/02 15:50:37.344798 [ERR] [::1]:51234 - mid:7 - \"fresh1\" - "_s + msg << u"fresh1"_s
                              << u"ERR"_s;
        QTest::newRow("websocket") << u"[1234] 2026/12/02 15:50:37.344798 [ERR] [2001:db8::1]/127.0.0.1:443 - mid_ws:7 - \"fresh1\" - "_s
                + msg << u"fresh1"_s
                                   << u"ERR"_s;
        QTest::newRow("quoted client id")
            << u"[1] 2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:1 - mid:2 - \"we\\\"ird \u00fc\\\\id\" - unable to connect: "
               u"loading session record: stream not found (10059) for account \"ACME\", session \"we\\\"ird \u00fc\\\\id\""_s
            << u"we\"ird \u00fc\\id"_s << u"ERR"_s;
    }
    void prefixVariants()
    {
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(m.matched, qPrintable(line));
        QCOMPARE(m.templateId, u"session.load_failed"_s);
        QCOMPARE(m.account, u"ACME"_s);
        QTEST(m.clientId, "clientId");
        QTEST(m.level, "level");
        QCOMPARE(m.errorCode, 10059);
        QCOMPARE(m.codes, QStringList{u"STREAM_MISSING"_s});
        QVERIFY(m.connectRefused);
        QVERIFY(!m.line.endsWith(u'\n') && !m.line.endsWith(u' '));
    }

    void clientIdFromPrefixOnly()
    {
        // The template has no client ID: it comes from the prefix, unquoted.
        const LogLineMatch m = LogCatalogue::explain(
            u"[1] 2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:1 - mid:2 - \"a \\\"b\\\"\" - Unable to add JetStream consumer "
            u"for subscription on \"u.>\": err=stream not found (10059)"_s);
        QVERIFY(m.matched);
        QCOMPARE(m.clientId, u"a \"b\""_s);
        QCOMPARE(m.subject, u"u.>"_s);
        // A non-MQTT client's quoted name is not a client ID.
        const LogLine l = LogLine::parse(u"[1] 2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:1 - cid:2 - \"v2.10.0:go:app\" - x"_s);
        QCOMPARE(l.clientKind, u"cid"_s);
        QVERIFY(l.clientId.isEmpty());
        QCOMPARE(l.message, u"x"_s);
    }

    void unquoteGo_data()
    {
        QTest::addColumn<QString>("quoted");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("value");
        QTest::newRow("plain") << u"\"abc\""_s << true << u"abc"_s;
        QTest::newRow("empty") << u"\"\""_s << true << QString();
        QTest::newRow("quote") << u"\"a\\\"b\""_s << true << u"a\"b"_s;
        QTest::newRow("backslash") << u"\"a\\\\b\""_s << true << u"a\\b"_s;
        QTest::newRow("controls") << u"\"\\t\\n\\r\""_s << true << u"\t\n\r"_s;
        QTest::newRow("hex byte") << u"\"\\x41\\x7f\""_s << true << u"A\x7f"_s;
        QTest::newRow("utf8 bytes") << u"\"\\xc3\\xbc\""_s << true << u"\u00fc"_s;
        QTest::newRow("u4") << u"\"\\u00e9\""_s << true << u"\u00e9"_s;
        QTest::newRow("U8") << u"\"\\U0001F600\""_s << true << QString::fromUtf8("\xF0\x9F\x98\x80");
        QTest::newRow("unicode as is") << u"\"\u00fc\u4e2d\""_s << true << u"\u00fc\u4e2d"_s;
        QTest::newRow("octal") << u"\"\\101\""_s << true << u"A"_s;
        QTest::newRow("unterminated") << u"\"abc"_s << false << QString();
        QTest::newRow("inner quote") << u"\"a\"b\""_s << false << QString();
        QTest::newRow("bad escape") << u"\"\\q\""_s << false << QString();
        QTest::newRow("short hex") << u"\"\\x4\""_s << false << QString();
    }
    void unquoteGo()
    {
        QFETCH(QString, quoted);
        QFETCH(bool, valid);
        const auto v = LogLine::unquoteGo(quoted);
        QCOMPARE(v.has_value(), valid);
        if (valid)
            QTEST(*v, "value");
    }

    // --- what must stay unmatched ---------------------------------------------------------------------------------

    void unrelatedLinesStayUnmatched_data()
    {
        QTest::addColumn<QString>("line");
        QTest::newRow("empty") << QString();
        QTest::newRow("banner") << u"[27068] 2026/12/02 17:25:10.413985 [INF] Starting nats-server"_s;
        QTest::newRow("plaintext") << u"[27068] 2026/12/02 17:25:10.413985 [WRN] Plaintext passwords detected, use nkeys or bcrypt"_s;
        QTest::newRow("mqtt listener")
            << u"[27068] 2026/12/02 17:25:10.428089 [INF] Listening for MQTT clients on mqtt://127.0.0.1:27101"_s;
        QTest::newRow("restore") << u"[28795] 2026/12/02 17:26:18.230362 [INF]   Restored 1 messages for stream 'ACME > $MQTT_sess'"_s;
        QTest::newRow("mqtt debug")
            << u"[27068] 2026/12/02 17:25:11.528166 [DBG] 127.0.0.1:57908 - mid:45 - \"nojs-client\" - Client connection closed: Protocol Violation"_s;
        QTest::newRow("auth") << u"[1] 2026/12/02 17:25:11.528166 [ERR] 127.0.0.1:57908 - cid:45 - authentication error - User \"acme\""_s;
        QTest::newRow("mqtt auth") << u"[1] 2026/12/02 17:25:11.528166 [ERR] 127.0.0.1:57908 - mid:45 - \"c\" - authentication error"_s;
        QTest::newRow("route")
            << u"[1] 2026/12/02 17:25:11.528166 [ERR] 127.0.0.1:6222 - rid:3 - Error trying to connect to route: dial tcp 127.0.0.1:6222: connect: connection refused"_s;
        QTest::newRow("no quorum")
            << u"[1] 2026/12/02 17:25:11.528166 [WRN] JetStream cluster consumer 'ACME > $MQTT_msgs > PNfq787e_x' has NO quorum, stalled."_s;
        QTest::newRow("unknown connect error")
            << u"[1] 2026/12/02 17:25:11.528166 [ERR] 127.0.0.1:1 - mid:2 - \"c\" - unable to connect: something nobody has seen yet"_s;
        QTest::newRow("truncated template")
            << u"[1] 2026/12/02 17:25:11.528166 [ERR] 127.0.0.1:1 - mid:2 - \"c\" - unable to connect: create sessions stream for account \"ACME\""_s;
        QTest::newRow("template inside other text")
            << u"[1] 2026/12/02 17:25:11.528166 [ERR] note: create sessions stream for account \"ACME\": subjects overlap with an existing stream (10065)"_s;
        QTest::newRow("readloop non-mqtt")
            << u"[1] 2026/12/02 17:25:11.528166 [WRN] 127.0.0.1:1 - cid:2 - Readloop processing time: 4.0s"_s;
        QTest::newRow("not running non-mqtt") << u"[1] 2026/12/02 17:25:11.528166 [ERR] server is not running"_s;
        QTest::newRow("bad stream label")
            << u"[1] 2026/12/02 17:25:11.528166 [ERR] lookup orders stream for account \"ACME\": stream not found (10059)"_s;
        QTest::newRow("garbage") << u"hello world"_s;
        QTest::newRow("slow consumer")
            << u"[1] 2026/12/02 17:25:11.528166 [INF] 127.0.0.1:1 - mid:2 - \"c\" - Slow Consumer Detected: WriteDeadline of 10s exceeded"_s;
    }
    void unrelatedLinesStayUnmatched()
    {
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(!m.matched, qPrintable(m.templateId));
        QVERIFY(m.templateId.isEmpty());
        QVERIFY(m.codes.isEmpty());
        QVERIFY(m.account.isEmpty() && m.clientId.isEmpty() && m.errorCode == 0);
        QVERIFY(m.meaning.isEmpty() && m.advice.isEmpty());
        const QJsonObject o = m.toJson();
        QCOMPARE(o.value(u"matched"_s).toBool(true), false);
        QVERIFY(o.value(u"template"_s).isNull());
    }

    // --- meaning, advice, JSON ------------------------------------------------------------------------------------

    void adviceNamesTheAccount()
    {
        const LogLineMatch m = LogCatalogue::explain(
            u"[1] 2026/12/02 17:25:30.315664 [ERR] 127.0.0.1:45368 - mid:47 - \"fresh1\" - unable to connect: loading "
            u"session record for account \"SESS\", session \"fresh1\": stream not found (10059)"_s);
        QVERIFY(m.advice.contains(u"nats-mqtt-doctor-cli check --account SESS"_s));
        QVERIFY(m.advice.contains(u"nats-mqtt-doctor-cli repair --account SESS --finding STREAM_MISSING"_s));
        QVERIFY(m.meaning.contains(u"$MQTT_sess"_s));
        QCOMPARE(m.severity, u"critical"_s);

        // The global account needs shell quoting.
        const LogLineMatch g = LogCatalogue::explain(
            u"unable to connect: loading session record for account \"$G\", session \"client2\": stream not found (10059)"_s);
        QVERIFY(g.advice.contains(u"--account '$G'"_s));

        // Without an account in the line, check all accounts.
        const LogLineMatch n =
            LogCatalogue::explain(u"[ERR] 127.0.0.1:1 - mid:2 - \"w3\" - Unable to add JetStream consumer for subscription on \"c.d\": "
                                  u"err=maximum consumers limit reached (10026)"_s);
        QVERIFY(n.advice.contains(u"check --all-accounts"_s));
        QVERIFY(n.advice.contains(u"ORPHAN_CONSUMER"_s));
    }

    void causesDecideCodesAndSeverity()
    {
        // 10071 is a one-off: no finding, lowered severity.
        const LogLineMatch w = LogCatalogue::explain(
            u"[ERR] 127.0.0.1:1 - mid:2 - \"g1\" - unable to connect: unable to persist session \"g1\" (seq=2): wrong last "
            u"sequence: 3 (10071)"_s);
        QVERIFY(w.codes.isEmpty());
        QCOMPARE(w.severity, u"warning"_s);
        QVERIFY(w.meaning.contains(u"behind this server's back"_s));
        QCOMPARE(w.sequence, 2);
        // A timeout on a JS API request with a domain gives the domain hint.
        const LogLineMatch d = LogCatalogue::explain(
            u"unable to connect: lookup sessions stream for account \"ACME\": timeout after 4.008373159s: request type "
            u"\"SL\" on \"$JS.hub.API.STREAM.INFO.$MQTT_sess\" (reply=\"$MQTT.JSA.onglaOPN.SL.86sKeFMtnIwSahJJkzasmz\")"_s);
        QCOMPARE(d.codes, (QStringList{u"STREAM_UNHEALTHY"_s, u"JETSTREAM_API_ERRORS"_s}));
        QVERIFY(d.meaning.contains(u"domain \"hub\""_s));
        QVERIFY(d.meaning.contains(u"\"SL\" (stream lookup)"_s));
        // The same with a stored message points at missing/misconfigured streams.
        const LogLineMatch s =
            LogCatalogue::explain(u"unable to persist session \"w1\" (seq=0): timeout for request type \"SP\" on \"$MQTT.sess.YBRFqquM\" "
                                  u"(reply=\"$MQTT.JSA.onglaOPN.SP.6BZ65R3BpQ9Q2yOZHIKwIR\")"_s);
        QCOMPARE(s.codes, (QStringList{u"STREAM_MISSING"_s, u"STREAM_SUBJECTS_WRONG"_s, u"STREAM_UNHEALTHY"_s}));
        QVERIFY(s.meaning.contains(u"$MQTT.sess.YBRFqquM"_s));
        QVERIFY(!s.connectRefused);
        // An unknown JetStream code keeps the template's codes and quotes the error.
        const LogLineMatch u = LogCatalogue::explain(u"create messages stream for account \"A\": brand new problem (10999)"_s);
        QCOMPARE(u.codes, QStringList{u"STREAM_MISSING"_s});
        QCOMPARE(u.errorCode, 10999);
        QVERIFY(u.meaning.contains(u"brand new problem (10999)"_s));
    }

    void jsonHasTheContractKeys()
    {
        const LogLineMatch m = LogCatalogue::explain(
            u"[1] 2026/12/02 17:25:17.739323 [ERR] 127.0.0.1:40828 - mid:110 - \"ovl-c1\" - unable to connect: create "
            u"sessions stream for account \"OVL\": subjects overlap with an existing stream (10065)"_s);
        const QJsonObject o = m.toJson();
        for (const char *key : {"line", "template", "codes", "account", "client_id", "error_code", "advice", "matched", "meaning", "stream",
                                "subject", "error_text", "versions"})
            QVERIFY2(o.contains(QLatin1String(key)), key);
        QCOMPARE(o.value(u"template"_s).toString(), u"create sessions stream for account %q: %v"_s);
        QCOMPARE(o.value(u"codes"_s).toArray().first().toString(), u"SUBJECTS_OVERLAP"_s);
        QCOMPARE(o.value(u"account"_s).toString(), u"OVL"_s);
        QCOMPARE(o.value(u"client_id"_s).toString(), u"ovl-c1"_s);
        QCOMPARE(o.value(u"error_code"_s).toInt(), 10065);
        QCOMPARE(o.value(u"error_text"_s).toString(), u"subjects overlap with an existing stream (10065)"_s);
        QCOMPARE(o.value(u"stream"_s).toString(), u"$MQTT_sess"_s);
        QVERIFY(o.value(u"subject"_s).isNull());
        QCOMPARE(o.value(u"versions"_s).toArray().first().toString(), u"2.9.0+"_s);
        QVERIFY(o.value(u"matched"_s).toBool());
    }

    // The catalogue is shared and compiled once: explaining from several threads gives the same answers.
    void explainFromSeveralThreads()
    {
        QStringList lines;
        for (const QString &v : kVersions)
            for (const auto &[file, line] : readCapturedLogs(v))
                lines << line;
        QStringList sequential;
        for (const QString &l : std::as_const(lines))
            sequential << LogCatalogue::explain(l).templateId + u'|' + LogCatalogue::explain(l).advice;
        const QStringList parallel = QtConcurrent::blockingMapped<QStringList>(lines, [](const QString &l) -> QString {
            const LogLineMatch m = LogCatalogue::explain(l);
            return m.templateId + u'|' + m.advice;
        });
        QCOMPARE(parallel, sequential);
    }

    void explainAllSkipsBlankLines()
    {
        const QList<LogLineMatch> all = LogCatalogue::explainAll(
            {u"publish QoS=2 not supported"_s, QString(), u"   \r"_s, u"hello"_s,
             u"[WRN] 127.0.0.1:1 - mid:2 - \"k1\" - Closing because a remote connection has started with the same client ID: \"k1\""_s});
        QCOMPARE(all.size(), 3);
        QCOMPARE(all.at(0).templateId, u"qos.publish_qos2_unsupported"_s);
        QVERIFY(!all.at(1).matched);
        QCOMPARE(all.at(2).templateId, u"session.remote_takeover"_s);
        QCOMPARE(all.at(2).clientId, u"k1"_s);
    }
};

QTEST_GUILESS_MAIN(TestLogExplain)
#include "tst_logexplain.moc"
