// The log-line catalogue (explain) against log lines captured from real nats-server 2.9.10, 2.10.27 and 2.15.1
// (tests/unit/data/logs, see its README), the seed messages and source-only templates. Explaining lines (prefixes,
// quoting, lines that must stay unmatched, advice, JSON): tst_logexplain.cpp.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/logcatalogue.h"
#include "diagnosis/logline.h"

#include "capturedlogs.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test::CapturedLogs;
using namespace Qt::StringLiterals;

namespace {

/** A sample value for a verb of a template, by its role (for the round-trip test). */
QString sampleValue(const QString &role, QChar verb)
{
    static const QHash<QString, QString> samples{
        {u"account"_s, u"ACME"_s},
        {u"client"_s, u"sensor-7"_s},
        {u"stream_label"_s, u"sessions"_s},
        {u"stream_name"_s, u"$MQTT_sess"_s},
        {u"subject"_s, u"sensors.kitchen"_s},
        {u"request_subject"_s, u"$MQTT.sess.k2My6qdB"_s},
        {u"kind"_s, u"SP"_s},
        {u"reply"_s, u"$MQTT.JSA.DiAi4bSi.SP.aWJUy3Jvbs67GPrgjIa50M"_s},
        {u"seq"_s, u"42"_s},
        {u"count"_s, u"3"_s},
        {u"duration"_s, u"5.000941976s"_s},
        {u"error"_s, u"stream not found (10059)"_s},
        {u"consumer"_s, u"PNfq787e_Z3lYPItRajULBBa2nFWaND"_s},
        {u"other"_s, u"127.0.0.1:40866 - mid:134 - \"x\""_s},
        {u"domain"_s, u"hub"_s},
        {u"js_code"_s, u"10002"_s},
    };
    const QString v = samples.value(role, u"x"_s);
    if (verb != u'q')
        return v;
    QString escaped = v;
    escaped.replace(u'\\', u"\\\\"_s);
    escaped.replace(u'"', u"\\\""_s);
    return u'"' + escaped + u'"';
}

/** Formats a template like Go would, with sample values; `overrides` replaces the sample of a role. */
QString render(const LogCatalogueEntry &e, const QHash<QString, QString> &overrides = {})
{
    QString out;
    qsizetype field = 0;
    for (qsizetype i = 0; i < e.text.size(); ++i) {
        if (e.text.at(i) == u'%' && i + 1 < e.text.size()) {
            const QChar verb = e.text.at(++i);
            if (verb == u'%') {
                out += u'%';
                continue;
            }
            const QString role = e.fields.value(field++);
            out += overrides.contains(role) && verb != u'q' ? overrides.value(role) : sampleValue(role, verb);
        } else {
            out += e.text.at(i);
        }
    }
    return out;
}

/**
 * The severity a line of `templateText` pointing to `codes` about `stream` must have, from the finding catalogue
 * itself: the most severe of the findings, each with its default severity, or the one FindingCatalogue::severityRule
 * names for what the line shows: "critical for $MQTT_sess" (STREAM_MISSING, STREAM_UNHEALTHY) and "critical when
 * mqtt.stream_replicas keeps missing streams from being created" (REPLICAS_MISMATCH on "create %s stream for account"
 * lines; not on the retained consumer's).
 * Empty without codes.
 */
QString findingSeverityOf(const QStringList &codes, const QString &stream, const QString &templateText)
{
    int worst = -1;
    for (const QString &code : codes) {
        const FindingCatalogue::Entry *finding = FindingCatalogue::entry(code);
        if (!finding)
            qFatal("unknown finding code %s", qPrintable(code));
        int rank = int(finding->severity);
        const QString rule = FindingCatalogue::severityRule(code);
        if (stream == u"$MQTT_sess"_s && rule.contains(u"critical for $MQTT_sess"_s))
            rank = int(Finding::Severity::Critical);
        const bool creatingStream = templateText.startsWith(u"create "_s) && templateText.contains(u" stream for account "_s);
        if (creatingStream && rule.contains(u"critical when mqtt.stream_replicas keeps missing streams"_s))
            rank = int(Finding::Severity::Critical);
        worst = qMax(worst, rank);
    }
    return worst < 0 ? QString() : Finding::severityName(Finding::Severity(worst));
}

/** The errors a template's %v may carry: the JetStream errors, timeouts and others the catalogue tells apart. */
const QStringList kErrors{
    u"stream not found (10059)"_s,
    u"subjects overlap with an existing stream (10065)"_s,
    u"maximum number of streams reached (10027)"_s,
    u"insufficient resources (10023)"_s,
    u"JetStream not enabled for account (10039)"_s,
    u"replicas > 1 not supported in non-clustered mode (10074)"_s,
    u"no suitable peers for placement (10005)"_s,
    u"consumer filter subject is not a valid subset of the interest subjects (10093)"_s,
    u"wrong last sequence: 3 (10071)"_s,
    u"maximum consumers limit reached (10026)"_s,
    u"no message found (10037)"_s,
    u"JetStream system temporarily unavailable (10008)"_s,
    u"stream name already in use with a different configuration (10058)"_s,
    u"sequence not found (10043)"_s,
    u"timeout for request type \"SP\" on \"$MQTT.sess.k2My6qdB\" (reply=\"$MQTT.JSA.x.SP.y\")"_s,
    u"timeout after 5.0s: request type \"SL\" on \"$JS.API.STREAM.INFO.$MQTT_sess\" (reply=\"$MQTT.JSA.x.SL.y\")"_s,
    u"invalid stream create response: missing stream info"_s,
    u"server is not running"_s,
    u"something nobody has seen (10999)"_s,
    u"something else entirely"_s,
};

} // namespace

class TestLogCatalogue : public QObject
{
    Q_OBJECT

private slots:
    // --- the catalogue itself -------------------------------------------------------------------------------------

    void catalogueIsWellFormed()
    {
        const QStringList codes = LogCatalogue::findingCodes(); // the finding catalogue's: every code of docs/findings.md
        QSet<QString> ids;
        for (const LogCatalogueEntry &e : LogCatalogue::entries()) {
            QVERIFY2(!ids.contains(e.id), qPrintable(u"duplicate id "_s + e.id));
            ids.insert(e.id);
            QVERIFY2(!e.text.isEmpty() && !e.versions.isEmpty(), qPrintable(e.id));
            QVERIFY2(!e.meaning.isEmpty() && !e.advice.isEmpty(), qPrintable(e.id));
            QVERIFY2(QStringList({u"info"_s, u"warning"_s, u"error"_s, u"critical"_s}).contains(e.severity), qPrintable(e.id));
            for (const QString &c : e.codes)
                QVERIFY2(codes.contains(c), qPrintable(e.id + u": unknown code "_s + c));
            for (const QStringList &byCause : e.codesByCause)
                for (const QString &c : byCause)
                    QVERIFY2(codes.contains(c), qPrintable(e.id + u": unknown code "_s + c));
            for (const QString &v : e.verifiedOn)
                QVERIFY2(kVersions.contains(v), qPrintable(e.id + u": verified on unknown version "_s + v));
            // one field per verb
            const qsizetype verbs = e.text.count(QRegularExpression(u"%[qvsdw]"_s));
            QVERIFY2(verbs == e.fields.size(), qPrintable(e.id + u": verbs and fields differ"_s));
        }
        QVERIFY(LogCatalogue::entry(u"asm.create_sessions_stream"_s).has_value());
        QVERIFY(!LogCatalogue::entry(u"no.such.template"_s).has_value());
    }

    // Each template, formatted as the server would with sample values, matches itself and no other template first.
    void everyTemplateRoundTrips_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("line");
        for (const LogCatalogueEntry &e : LogCatalogue::entries()) {
            const QString prefix = e.mqttClientOnly ? u"[77] 2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:45696 - mid:30 - \"sensor-7\" - "_s
                                                    : u"[77] 2026/12/02 15:50:37.344798 [ERR] "_s;
            QTest::newRow(qPrintable(e.id)) << e.id << prefix + render(e);
        }
    }
    void everyTemplateRoundTrips()
    {
        QFETCH(QString, id);
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(m.matched, qPrintable(line));
        QCOMPARE(m.templateId, id);
        QVERIFY(!m.meaning.isEmpty());
        QVERIFY(!m.advice.isEmpty());
        static const QRegularExpression placeholder(u"\\{[a-z_]+(:[A-Z_]+)?\\}"_s);
        QVERIFY2(!m.meaning.contains(placeholder) && !m.advice.contains(placeholder), qPrintable(m.meaning + u' ' + m.advice));
    }

    // --- severity: a line is as severe as the finding it is a symptom of -----------------------------------------

    // Every template linked to a finding, with each error its %v may carry and each stream its wording may name: a
    // line that points to findings is exactly as severe as the most severe of them in the finding catalogue
    // (FindingCatalogue), not a severity of its own; the catalogue's listing says the same for the template.
    void severityAgreesWithFindings_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("line");
        int linked = 0;
        for (const LogCatalogueEntry &e : LogCatalogue::entries()) {
            if (e.codes.isEmpty() && e.codesByCause.isEmpty())
                continue;
            ++linked;
            const QString prefix = e.mqttClientOnly ? u"[77] 2026/12/02 15:50:37.344798 [ERR] 127.0.0.1:45696 - mid:30 - \"sensor-7\" - "_s
                                                    : u"[77] 2026/12/02 15:50:37.344798 [ERR] "_s;
            const QStringList labels = e.fields.contains(u"stream_label"_s)
                ? QStringList{u"sessions"_s, u"messages"_s, u"retained messages"_s}
                : QStringList{QString()};
            const QStringList errors = e.fields.contains(u"error"_s) ? kErrors : QStringList{QString()};
            for (const QString &label : labels) {
                for (const QString &error : errors) {
                    QHash<QString, QString> overrides;
                    if (!label.isEmpty())
                        overrides.insert(u"stream_label"_s, label);
                    if (!error.isEmpty())
                        overrides.insert(u"error"_s, error);
                    QTest::addRow("%s %s %s", qPrintable(e.id), qPrintable(label), qPrintable(error.left(40)))
                        << e.id << prefix + render(e, overrides);
                }
            }
        }
        QVERIFY(linked >= 50);
    }
    void severityAgreesWithFindings()
    {
        QFETCH(QString, id);
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(m.matched, qPrintable(line));
        QCOMPARE(m.templateId, id);
        QVERIFY2(QStringList({u"info"_s, u"warning"_s, u"error"_s, u"critical"_s}).contains(m.severity), qPrintable(m.severity));
        if (!m.codes.isEmpty())
            QCOMPARE(m.severity, findingSeverityOf(m.codes, m.stream, m.templateText));
        // The listing (--templates) rates the template by its own codes.
        const LogCatalogueEntry e = *LogCatalogue::entry(id);
        if (!e.codes.isEmpty())
            QCOMPARE(e.severity, findingSeverityOf(e.codes, e.stream, e.text));
    }

    // The two lines of the issue: a record the server cannot decode is as severe as SESSION_UNDECODABLE, a stream
    // creation refused for an overlap as SUBJECTS_OVERLAP (both critical: the client is refused every time).
    void severityOfTheIssuesLines()
    {
        const LogLineMatch undecodable = LogCatalogue::explain(
            u"[1] 2026/12/02 17:27:20.840592 [ERR] 127.0.0.1:1 - mid:2 - \"g1\" - unable to connect: unmarshal of session "
            u"record at sequence 2 for account \"GARB\", session \"g1\": invalid character 'o' in literal null (expecting 'u')"_s);
        QCOMPARE(undecodable.codes, QStringList{u"SESSION_UNDECODABLE"_s});
        QCOMPARE(undecodable.severity, u"critical"_s);
        QCOMPARE(FindingCatalogue::entry(u"SESSION_UNDECODABLE"_s)->severity, Finding::Severity::Critical);
        const LogLineMatch overlap =
            LogCatalogue::explain(u"[1] 2026/12/02 17:25:17.739323 [ERR] 127.0.0.1:1 - mid:2 - \"c\" - unable to connect: create messages "
                                  u"stream for account \"OVL\": subjects overlap with an existing stream (10065)"_s);
        QCOMPARE(overlap.codes, QStringList{u"SUBJECTS_OVERLAP"_s});
        QCOMPARE(overlap.severity, u"critical"_s);
        // Without a known cause the same template points to STREAM_MISSING: an error for $MQTT_msgs, critical for
        // $MQTT_sess (no session can be read or saved), as `check` rates the missing stream.
        QCOMPARE(LogCatalogue::explain(u"create messages stream for account \"A\": brand new (10999)"_s).severity, u"error"_s);
        QCOMPARE(LogCatalogue::explain(u"create sessions stream for account \"A\": brand new (10999)"_s).severity, u"critical"_s);
        // Replicas the servers cannot place keep the stream from being created: critical, as check rates it then.
        const LogLineMatch peers = LogCatalogue::explain(
            u"unable to connect: create sessions stream for account \"A\": no suitable peers for placement (10005)"_s);
        QCOMPARE(peers.codes, (QStringList{u"REPLICAS_MISMATCH"_s, u"JETSTREAM_META_DEGRADED"_s}));
        QCOMPARE(peers.severity, u"critical"_s);
        QVERIFY(FindingCatalogue::severityRule(u"REPLICAS_MISMATCH"_s).contains(u"critical when mqtt.stream_replicas"_s));
        // A line that points to no finding keeps its own: a one-off conditional write, a shutdown.
        const LogLineMatch oneOff = LogCatalogue::explain(u"unable to persist session \"g1\" (seq=2): wrong last sequence: 3 (10071)"_s);
        QVERIFY(oneOff.codes.isEmpty());
        QCOMPARE(oneOff.severity, u"warning"_s);
        QCOMPARE(LogCatalogue::findingSeverity({}, u"$MQTT_sess"_s), QString());
        QCOMPARE(LogCatalogue::findingSeverity({u"SESSION_STALE"_s, u"ORPHAN_CONSUMER"_s}, {}), u"warning"_s);
        QCOMPARE(LogCatalogue::findingSeverity({u"NO_SUCH_CODE"_s}, {}), QString());
    }

    // --- real lines -----------------------------------------------------------------------------------------------

    // tests/unit/data/logs/expected.jsonl: one captured line per (template, error, codes) and version, with what it must yield.
    void capturedLines_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<QString>("templateId");
        QTest::addColumn<QString>("codes");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<int>("errorCode");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<qlonglong>("sequence");
        QTest::addColumn<QString>("inner");
        QFile f(logsDir() + u"/expected.jsonl"_s);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(f.fileName()));
        int n = 0;
        for (const QByteArray &raw : f.readAll().split('\n')) {
            if (raw.trimmed().isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(raw).object();
            QStringList codes;
            for (const QJsonValue &c : o.value(u"codes"_s).toArray())
                codes << c.toString();
            const QString name = u"%1 %2/%3 %4"_s.arg(++n).arg(o.value(u"version"_s).toString(), o.value(u"file"_s).toString(),
                                                               o.value(u"template_id"_s).toString());
            QTest::newRow(qPrintable(name)) << o.value(u"version"_s).toString() << o.value(u"file"_s).toString()
                                            << o.value(u"needle"_s).toString() << o.value(u"template_id"_s).toString() << joined(codes)
                                            << o.value(u"account"_s).toString() << o.value(u"client_id"_s).toString()
                                            << o.value(u"error_code"_s).toInt() << o.value(u"stream"_s).toString()
                                            << o.value(u"subject"_s).toString() << qlonglong(o.value(u"sequence"_s).toInteger())
                                            << o.value(u"inner_template"_s).toString();
        }
        QVERIFY(n >= 100);
    }
    void capturedLines()
    {
        QFETCH(QString, version);
        QFETCH(QString, file);
        QFETCH(QString, needle);
        QFile f(logsDir() + u'/' + version + u'/' + file);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        QString line;
        for (const QByteArray &raw : f.readAll().split('\n')) {
            const QString l = QString::fromUtf8(raw);
            if (l.contains(needle)) {
                line = l;
                break;
            }
        }
        QVERIFY2(!line.isEmpty(), qPrintable(u"no line with: "_s + needle));

        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(m.matched, qPrintable(line));
        QTEST(m.templateId, "templateId");
        QTEST(joined(m.codes), "codes");
        QTEST(m.account, "account");
        QTEST(m.clientId, "clientId");
        QTEST(m.errorCode, "errorCode");
        QTEST(m.stream, "stream");
        QTEST(m.subject, "subject");
        QTEST(qlonglong(m.sequence), "sequence");
        QTEST(m.innerTemplateId, "inner");
        QCOMPARE(m.line, line.trimmed());
        QVERIFY(!m.meaning.isEmpty());
        QVERIFY(!m.advice.isEmpty());
        QVERIFY(!m.level.isEmpty() || file == u"config-errors.log");
        if (!m.codes.isEmpty())
            QCOMPARE(m.severity, findingSeverityOf(m.codes, m.stream, m.templateText));
    }

    // A template marked as verified on a version really has a captured line of that version.
    void verifiedTemplatesHaveCapturedLines_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString &v : kVersions)
            QTest::newRow(qPrintable(v)) << v;
    }
    void verifiedTemplatesHaveCapturedLines()
    {
        QFETCH(QString, version);
        QSet<QString> seen;
        for (const auto &[file, line] : readCapturedLogs(version)) {
            const LogLineMatch m = LogCatalogue::explain(line);
            if (m.matched) {
                seen.insert(m.templateId);
                if (!m.innerTemplateId.isEmpty())
                    seen.insert(m.innerTemplateId);
            }
        }
        for (const LogCatalogueEntry &e : LogCatalogue::entries()) {
            if (e.verifiedOn.contains(version))
                QVERIFY2(seen.contains(e.id), qPrintable(e.id + u" is marked verified on "_s + version));
        }
    }

    // Every [ERR]/[WRN] line of an MQTT client in the captured logs is explained; other lines of the captures are
    // either an MQTT template or stay unmatched (startup banner, stream restore, debug lines...).
    void capturedMqttErrorsAreAllExplained_data()
    {
        QTest::addColumn<QString>("version");
        for (const QString &v : kVersions)
            QTest::newRow(qPrintable(v)) << v;
    }
    void capturedMqttErrorsAreAllExplained()
    {
        QFETCH(QString, version);
        int checked = 0;
        for (const auto &[file, line] : readCapturedLogs(version)) {
            const LogLine parsed = LogLine::parse(line);
            const LogLineMatch m = LogCatalogue::explain(line);
            if ((parsed.level == u"ERR" || parsed.level == u"WRN") && parsed.isMqttClient()) {
                QVERIFY2(m.matched, qPrintable(file + u": "_s + line));
                ++checked;
            }
            // The one debug template: a leaf connection not passing a JetStream API request on.
            if (m.templateId == u"leaf.js_api_not_delivered"_s)
                continue;
            if (parsed.level == u"DBG" || line.contains(u"Plaintext passwords"_s) || line.contains(u"restore for stream"_s)
                || line.contains(u"Restored "_s) || line.contains(u"Listening for"_s))
                QVERIFY2(!m.matched, qPrintable(file + u": "_s + line));
        }
        QVERIFY(checked >= 20);
    }

    // --- the four seed records, with concrete values as a 2.12.14+/2.14.4+/2.15 server prints them ----------------

    void seeds_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("templateId");
        QTest::addColumn<QString>("codes");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<int>("errorCode");
        QTest::addColumn<QString>("stream");

        QTest::newRow("retained stream race")
            << u"[4711] 2026/12/02 15:50:37.344798 [ERR] 10.0.3.17:51234 - mid:88 - \"sensor-7\" - unable to connect: "
               u"could not look up or create the retained messages stream for account \"ACME\""_s
            << u"asm.retained_stream_unavailable"_s << u"STREAM_UNHEALTHY,STREAM_MISSING"_s << u"ACME"_s << u"sensor-7"_s << 0
            << u"$MQTT_rmsgs"_s;
        QTest::newRow("sessions stream overlap")
            << u"[4711] 2026/12/02 15:50:38.001002 [ERR] 10.0.3.17:51240 - mid:89 - \"sensor-7\" - unable to connect: "
               u"create sessions stream for account \"ACME\": subjects overlap with an existing stream (10065)"_s
            << u"asm.create_sessions_stream"_s << u"SUBJECTS_OVERLAP"_s << u"ACME"_s << u"sensor-7"_s << 10065 << u"$MQTT_sess"_s;
        QTest::newRow("sessions stream limit")
            << u"[4711] 2026/12/02 15:50:38.101002 [ERR] 10.0.3.17:51241 - mid:90 - \"sensor-8\" - unable to connect: "
               u"create sessions stream for account \"LIMITED\": maximum number of streams reached (10027)"_s
            << u"asm.create_sessions_stream"_s << u"STREAM_LIMIT_HEADROOM"_s << u"LIMITED"_s << u"sensor-8"_s << 10027 << u"$MQTT_sess"_s;
        QTest::newRow("qos2 incoming stream limit")
            << u"[4711] 2026/12/02 15:50:39.420000 [ERR] 10.0.3.17:51250 - mid:91 - \"plant-a/line-2\" - unable to connect: "
               u"create QoS2 incoming messages stream for account \"FACTORY\": maximum number of streams reached (10027)"_s
            << u"asm.create_qos2in_stream"_s << u"STREAM_LIMIT_HEADROOM"_s << u"FACTORY"_s << u"plant-a/line-2"_s << 10027
            << u"$MQTT_qos2in"_s;
        QTest::newRow("qos2 incoming stream replicas")
            << u"[4711] 2026/12/02 15:50:39.520000 [ERR] 10.0.3.17:51251 - mid:92 - \"plant-a\" - unable to connect: "
               u"create QoS2 incoming messages stream for account \"FACTORY\": insufficient resources (10023)"_s
            << u"asm.create_qos2in_stream"_s << u"STREAM_LIMIT_HEADROOM"_s << u"FACTORY"_s << u"plant-a"_s << 10023 << u"$MQTT_qos2in"_s;
        QTest::newRow("loading session record, stream gone")
            << u"[4711] 2026/12/02 15:50:40.000001 [ERR] 10.0.3.17:51260 - mid:93 - \"fresh1\" - unable to connect: "
               u"loading session record: stream not found (10059) for account \"ACME\", session \"fresh1\""_s
            << u"session.load_failed"_s << u"STREAM_MISSING"_s << u"ACME"_s << u"fresh1"_s << 10059 << u"$MQTT_sess"_s;
        QTest::newRow("loading session record, timeout")
            << u"[4711] 2026/12/02 15:50:45.000001 [ERR] 10.0.3.17:51261 - mid:94 - \"fresh2\" - unable to connect: "
               u"loading session record: timeout after 5.001s: request type \"ML\" on \"$JS.API.DIRECT.GET.$MQTT_sess\" "
               u"(reply=\"$MQTT.JSA.DiAi4bSi.ML.x1\") for account \"ACME\", session \"fresh2\""_s
            << u"session.load_failed"_s << u"STREAM_UNHEALTHY,JETSTREAM_API_ERRORS"_s << u"ACME"_s << u"fresh2"_s << 0 << u"$MQTT_sess"_s;
    }
    void seeds()
    {
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY(m.matched);
        QTEST(m.templateId, "templateId");
        QTEST(joined(m.codes), "codes");
        QTEST(m.account, "account");
        QTEST(m.clientId, "clientId");
        QTEST(m.errorCode, "errorCode");
        QTEST(m.stream, "stream");
        QVERIFY(m.connectRefused);
        QCOMPARE(m.level, u"ERR"_s);
    }

    // --- templates that could not be captured: realistic lines built from the source text -------------------------

    void sourceOnlyTemplates_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("templateId");
        QTest::addColumn<QString>("inner");
        QTest::addColumn<QString>("codes");
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("clientId");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("subject");

        const QString err = u"[9] 2026/12/02 15:50:37.344798 [ERR] "_s;
        const QString wrn = u"[9] 2026/12/02 15:50:37.344798 [WRN] "_s;
        const QString inf = u"[9] 2026/12/02 15:50:37.344798 [INF] "_s;
        const QString cl = u"127.0.0.1:45696 - mid:30 - \"c1\" - "_s;
        auto row = [](const char *name, const QString &line, const char *id, const char *inner, const char *codes, const char *account,
                      const char *client, const char *stream, const char *subject) {
            QTest::newRow(name) << line << QString::fromUtf8(id) << QString::fromUtf8(inner) << QString::fromUtf8(codes)
                                << QString::fromUtf8(account) << QString::fromUtf8(client) << QString::fromUtf8(stream)
                                << QString::fromUtf8(subject);
        };
        row("lookup lost", err + cl + u"unable to connect: could not look up the retained messages stream for account \"ACME\""_s,
            "asm.retained_stream_lookup_lost", "", "STREAM_UNHEALTHY,STREAM_MISSING", "ACME", "c1", "$MQTT_rmsgs", "");
        row("create response",
            err + cl
                + u"unable to connect: create retained messages stream for account \"ACME\": invalid stream create response: missing stream info"_s,
            "asm.create_retained_stream", "asm.invalid_stream_create_response", "STREAM_UNHEALTHY", "ACME", "c1", "$MQTT_rmsgs", "");
        row("update response",
            err + cl + u"unable to connect: failed to update stream config: invalid stream update response: missing stream info"_s,
            "asm.update_stream_config", "asm.invalid_stream_update_response", "STREAM_UNHEALTHY", "", "c1", "$MQTT_rmsgs", "");
        row("update other",
            err + cl + u"unable to connect: failed to update stream config: insufficient storage resources available (10047)"_s,
            "asm.update_stream_config", "", "STREAM_LIMIT_HEADROOM", "", "c1", "$MQTT_rmsgs", "");
        row("retained load timeout", wrn + u"Timing out waiting to load 120000 retained messages"_s, "asm.retained_load_timeout", "",
            "STREAM_UNHEALTHY", "", "", "$MQTT_rmsgs", "");
        row("invalid pub ack", err + cl + u"unable to connect: unable to persist session \"c1\" (seq=7): invalid pub ack response"_s,
            "session.persist_invalid_ack", "", "STREAM_UNHEALTHY", "", "c1", "$MQTT_sess", "");
        row("delete consumer",
            err + cl
                + u"unable to delete consumer \"PNfq787e_Z3lYPItRajULBBa2nFWaND\" for session \"c1\": timeout after 5s: request type \"CD\" on \"$JS.API.CONSUMER.DELETE.$MQTT_msgs.PNfq787e_Z3lYPItRajULBBa2nFWaND\" (reply=\"$MQTT.JSA.x.CD.y\")"_s,
            "session.delete_consumer_failed", "jsa.timeout_after", "STREAM_UNHEALTHY,JETSTREAM_API_ERRORS", "", "c1", "$MQTT_msgs",
            "$JS.API.CONSUMER.DELETE.$MQTT_msgs.PNfq787e_Z3lYPItRajULBBa2nFWaND");
        row("delete record old", err + cl + u"unable to delete session \"c1\" record at sequence 12"_s, "session.delete_record_failed_old",
            "", "SESSION_STALE", "", "c1", "$MQTT_sess", "");
        row("delete record",
            err + cl + u"unable to delete session \"c1\" record at sequence 12: JetStream system temporarily unavailable (10008)"_s,
            "session.delete_record_failed", "", "STREAM_UNHEALTHY", "", "c1", "$MQTT_sess", "");
        row("in use", err + cl + u"another session is in use with client ID \"c1\""_s, "session.in_use", "", "", "", "c1", "", "");
        row("max ack pending", err + cl + u"max_ack_pending for all consumers would be 66560 which exceeds the limit of 65535"_s,
            "consumer.max_ack_pending", "", "", "", "c1", "", "");
        row("subscribe failed",
            err + cl
                + u"Unable to create subscription for JetStream consumer on \"a.b\": permissions violation for subscription to \"$MQTT.sub.abc\""_s,
            "consumer.subscribe_failed", "", "", "", "c1", "", "a.b");
        row("retained load all",
            wrn + cl
                + u"error loading retained messages: timeout after 5s: request type \"ML\" on \"$JS.API.DIRECT.GET.$MQTT_rmsgs\": got 3 out of 10"_s,
            "retained.load_all_failed", "jsa.timeout_after_multi", "STREAM_UNHEALTHY,JETSTREAM_API_ERRORS", "", "c1", "$MQTT_rmsgs",
            "$JS.API.DIRECT.GET.$MQTT_rmsgs");
        row("retained decode", wrn + cl + u"failed to decode retained message for subject \"r.3\": invalid retained message flags"_s,
            "retained.decode_failed", "", "", "", "c1", "$MQTT_rmsgs", "r.3");
        row("retained 0x7f", wrn + cl + u"Skipping retained message for subject \"bad\\x7fsubject\": unsupported character 0x7f"_s,
            "retained.skipped_del_char", "", "UPGRADE_RETAINED_SKIPPED", "", "c1", "$MQTT_rmsgs", "bad\x7fsubject");
        row("transfer retry", wrn + u"Failed to transfer 3 MQTT retained messages, will try again in 5s"_s, "retained.transfer_retry", "",
            "RETAINED_LEGACY_LAYOUT,RETAINED_ORPHANED", "", "", "$MQTT_rmsgs", "");
        row("transfer load",
            wrn + u"    Unable to transfer a retained message: failed to load from '$MQTT.rmsgs': no message found (10037)"_s,
            "retained.transfer_load_failed", "", "RETAINED_LEGACY_LAYOUT,RETAINED_ORPHANED", "", "", "$MQTT_rmsgs", "");
        row("transfer store",
            err + u"    Unable to transfer the retained message with sequence 17: maximum messages per subject exceeded"_s,
            "retained.transfer_store_failed", "", "RETAINED_LEGACY_LAYOUT", "", "", "$MQTT_rmsgs", "");
        row("transfer cleanup",
            err + u"    Unable to clean up the retained message with sequence 17: timeout after 5s: request type \"MD\" on \"$JS.API.STREAM.MSG.DELETE.$MQTT_rmsgs\" (reply=\"$MQTT.JSA.x.MD.y\")"_s,
            "retained.transfer_cleanup_failed", "jsa.timeout_after", "RETAINED_ORPHANED", "", "", "$MQTT_rmsgs",
            "$JS.API.STREAM.MSG.DELETE.$MQTT_rmsgs");
        row("transfer timeout",
            inf + u"timed out while transferring retained messages from '$MQTT.rmsgs' after 10.000312s, 31211 processed, 31198 successfully transferred"_s,
            "retained.transfer_timeout", "", "RETAINED_ORPHANED,RETAINED_LEGACY_LAYOUT", "", "", "$MQTT_rmsgs", "");
        row("sessions list",
            err + u"Unable to transfer MQTT session streams: timeout for request type \"SN\" on \"$JS.API.STREAM.NAMES\" (reply=\"$MQTT.JSA.x.SN.y\")"_s,
            "transfer.sessions_list_failed", "jsa.timeout", "LEGACY_SESSION_STREAMS", "", "", "", "$JS.API.STREAM.NAMES");
        row("sessions store",
            err + u"    Unable to transfer the session record: timeout for request type \"SP\" on \"$MQTT.sess.abc\" (reply=\"$MQTT.JSA.x.SP.y\")"_s,
            "transfer.sessions_store_failed", "jsa.timeout", "LEGACY_SESSION_STREAMS", "", "", "$MQTT_sess", "$MQTT.sess.abc");
        row("pipelined window",
            err + cl
                + u"JetStream failed a pipelined QoS1/2 operation (pi=9): in-flight window full (1024 packets), no JetStream ack for the oldest within 5s; closing the connection"_s,
            "qos.pipeline_failed", "qos.window_full", "STREAM_MISSING,STREAM_SUBJECTS_WRONG,STREAM_UNHEALTHY", "", "c1", "", "");
        row("retained qos2 rejected", wrn + cl + u"Rejecting retained message with QoS2 for subscription \"a.b\", as configured"_s,
            "qos.retained_qos2_rejected", "", "", "", "c1", "", "a.b");
        row("invalid pubrel", err + cl + u"invalid message in QoS2 PUBREL stream"_s, "qos.invalid_pubrel_message", "", "", "", "c1",
            "$MQTT_qos2in", "");
        row("slow subscription", wrn + cl + u"Took too long to process subscription for \"a.>\": 5.2s"_s, "mqtt.subscription_slow", "",
            "STREAM_UNHEALTHY", "", "c1", "", "a.>");
        row("unknown reply code", wrn + u"127.0.0.1:1 - mid:2 - \"c1\" - Unknown reply code \"ZZ\""_s, "mqtt.unknown_reply_code", "", "",
            "", "c1", "", "");
        row("js api timeout config", u"nats-server: JS API timeout must be a positive value"_s, "config.js_api_timeout_negative", "", "",
            "", "", "", "");
        row("auth username", u"nats-server: mqtt authentication username not compatible with presence of users/nkeys"_s,
            "config.auth_username_conflict", "", "", "", "", "", "");
        row("auth token", u"nats-server: mqtt authentication token not compatible with presence of users/nkeys"_s,
            "config.auth_token_conflict", "", "", "", "", "", "");
        row("lookup no leader",
            err + cl
                + u"unable to connect: lookup messages stream for account \"ACME\": JetStream system temporarily unavailable (10008)"_s,
            "asm.lookup_stream", "", "STREAM_UNHEALTHY", "ACME", "c1", "$MQTT_msgs", "");
        row("no peers",
            err + cl + u"unable to connect: create sessions stream for account \"ACME\": no suitable peers for placement (10005)"_s,
            "asm.create_sessions_stream", "", "REPLICAS_MISMATCH,JETSTREAM_META_DEGRADED", "ACME", "c1", "$MQTT_sess", "");
        row("unknown js code", err + cl + u"unable to connect: create sessions stream for account \"ACME\": something new (10999)"_s,
            "asm.create_sessions_stream", "", "STREAM_MISSING", "ACME", "c1", "$MQTT_sess", "");
    }
    void sourceOnlyTemplates()
    {
        QFETCH(QString, line);
        const LogLineMatch m = LogCatalogue::explain(line);
        QVERIFY2(m.matched, qPrintable(line));
        QTEST(m.templateId, "templateId");
        QTEST(m.innerTemplateId, "inner");
        QTEST(joined(m.codes), "codes");
        QTEST(m.account, "account");
        QTEST(m.clientId, "clientId");
        QTEST(m.stream, "stream");
        QTEST(m.subject, "subject");
    }

    // Every template is exercised by a real captured line or by a source-only row above.
    void everyTemplateIsCovered()
    {
        QSet<QString> covered;
        for (const QString &v : kVersions)
            for (const auto &[file, line] : readCapturedLogs(v)) {
                const LogLineMatch m = LogCatalogue::explain(line);
                covered.insert(m.templateId);
                covered.insert(m.innerTemplateId);
            }
        // The ids the source-only rows above exercise:
        const QStringList sourceOnly{
            u"asm.retained_stream_unavailable"_s,
            u"asm.retained_stream_lookup_lost"_s,
            u"asm.invalid_stream_create_response"_s,
            u"asm.invalid_stream_update_response"_s,
            u"asm.retained_load_timeout"_s,
            u"session.persist_invalid_ack"_s,
            u"session.delete_consumer_failed"_s,
            u"session.delete_record_failed_old"_s,
            u"session.delete_record_failed"_s,
            u"session.in_use"_s,
            u"consumer.max_ack_pending"_s,
            u"consumer.subscribe_failed"_s,
            u"retained.load_all_failed"_s,
            u"retained.decode_failed"_s,
            u"retained.skipped_del_char"_s,
            u"retained.transfer_retry"_s,
            u"retained.transfer_load_failed"_s,
            u"retained.transfer_store_failed"_s,
            u"retained.transfer_cleanup_failed"_s,
            u"retained.transfer_timeout"_s,
            u"transfer.sessions_list_failed"_s,
            u"transfer.sessions_store_failed"_s,
            u"jsa.timeout_after_multi"_s,
            u"qos.window_full"_s,
            u"qos.retained_qos2_rejected"_s,
            u"qos.invalid_pubrel_message"_s,
            u"mqtt.subscription_slow"_s,
            u"mqtt.unknown_reply_code"_s,
            u"config.js_api_timeout_negative"_s,
            u"config.auth_username_conflict"_s,
            u"config.auth_token_conflict"_s,
        };
        for (const QString &id : sourceOnly) {
            QVERIFY2(LogCatalogue::entry(id).has_value(), qPrintable(id));
            QVERIFY2(LogCatalogue::entry(id)->verifiedOn.isEmpty(), qPrintable(id + u" is captured: drop it here"_s));
            covered.insert(id);
        }
        for (const LogCatalogueEntry &e : LogCatalogue::entries())
            QVERIFY2(covered.contains(e.id), qPrintable(e.id + u" has no test line"_s));
    }

    // docs/findings.md documents every finding code and lists every template with its versions.
    void docsListEveryTemplate()
    {
        QFile f(sourceDir() + u"/docs/findings.md"_s);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QString doc = QString::fromUtf8(f.readAll());
        for (const QString &code : LogCatalogue::findingCodes())
            QVERIFY2(doc.contains(u"\n### "_s + code + u'\n'), qPrintable(code));
        for (const LogCatalogueEntry &e : LogCatalogue::entries()) {
            QVERIFY2(doc.contains(u"| `"_s + e.text + u"` | "_s + e.id + u" | "_s + e.versions.join(u", "_s) + u" |"_s), qPrintable(e.id));
        }
        // The example log lines of the page are explained.
        int examples = 0;
        for (const QString &line : doc.split(u'\n')) {
            if (!line.startsWith(u'[') || !line.contains(u"] 20"_s))
                continue;
            QVERIFY2(LogCatalogue::explain(line).matched, qPrintable(line));
            ++examples;
        }
        QVERIFY(examples >= 30);
    }
};

QTEST_GUILESS_MAIN(TestLogCatalogue)
#include "tst_logcatalogue.moc"
