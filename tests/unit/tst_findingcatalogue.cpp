#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <tuple>

#include "diagnosis/checks.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/logcatalogue.h"

#include "capturedlogs.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Finding::Severity)

class TestFindingCatalogue : public QObject
{
    Q_OBJECT

private slots:
    void everyCodeOfTheProduct_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<Finding::Severity>("severity");
        QTest::addColumn<QString>("repair");
        using S = Finding::Severity;
        // docs/findings.md, in its order, with the repair column.
        QTest::newRow("JETSTREAM_DISABLED") << QStringLiteral("JETSTREAM_DISABLED") << S::Critical << QString();
        QTest::newRow("STREAM_MISSING") << QStringLiteral("STREAM_MISSING") << S::Error << QStringLiteral("create_stream");
        QTest::newRow("STREAM_SUBJECTS_WRONG") << QStringLiteral("STREAM_SUBJECTS_WRONG") << S::Error << QStringLiteral("update_stream");
        QTest::newRow("STREAM_CONFIG_WRONG") << QStringLiteral("STREAM_CONFIG_WRONG") << S::Error << QStringLiteral("update_stream");
        QTest::newRow("SUBJECTS_OVERLAP") << QStringLiteral("SUBJECTS_OVERLAP") << S::Critical << QStringLiteral("resolve_overlap");
        QTest::newRow("STREAM_LIMIT_HEADROOM") << QStringLiteral("STREAM_LIMIT_HEADROOM") << S::Critical << QString();
        QTest::newRow("REPLICAS_MISMATCH") << QStringLiteral("REPLICAS_MISMATCH") << S::Warning << QStringLiteral("update_stream");
        QTest::newRow("STREAM_UNHEALTHY") << QStringLiteral("STREAM_UNHEALTHY") << S::Error << QString();
        QTest::newRow("MIXED_SERVER_VERSIONS") << QStringLiteral("MIXED_SERVER_VERSIONS") << S::Warning << QString();
        QTest::newRow("RETAINED_LEGACY_LAYOUT")
            << QStringLiteral("RETAINED_LEGACY_LAYOUT") << S::Info << QStringLiteral("migrate_retained");
        QTest::newRow("RETAINED_ORPHANED") << QStringLiteral("RETAINED_ORPHANED") << S::Error << QStringLiteral("republish");
        QTest::newRow("RETAINED_DOWNGRADE") << QStringLiteral("RETAINED_DOWNGRADE") << S::Critical << QStringLiteral("revert_retained");
        QTest::newRow("RETAINED_CONSUMER_MISSING")
            << QStringLiteral("RETAINED_CONSUMER_MISSING") << S::Error << QStringLiteral("restore_retained_consumer");
        QTest::newRow("LEGACY_SESSION_STREAMS")
            << QStringLiteral("LEGACY_SESSION_STREAMS") << S::Warning << QStringLiteral("migrate_legacy_sessions");
        QTest::newRow("SESSION_UNDECODABLE") << QStringLiteral("SESSION_UNDECODABLE") << S::Critical << QStringLiteral("purge_session");
        QTest::newRow("SESSION_ID_MISMATCH") << QStringLiteral("SESSION_ID_MISMATCH") << S::Error << QStringLiteral("purge_session");
        QTest::newRow("SESSION_HASH_COLLISION") << QStringLiteral("SESSION_HASH_COLLISION") << S::Warning << QString();
        QTest::newRow("SESSION_MISSING_CONSUMER")
            << QStringLiteral("SESSION_MISSING_CONSUMER") << S::Error << QStringLiteral("create_consumer");
        QTest::newRow("ORPHAN_CONSUMER") << QStringLiteral("ORPHAN_CONSUMER") << S::Warning << QStringLiteral("delete_consumer");
        QTest::newRow("SESSION_STALE") << QStringLiteral("SESSION_STALE") << S::Info << QStringLiteral("delete_session");
        QTest::newRow("DUPLICATE_SESSION_RECORDS")
            << QStringLiteral("DUPLICATE_SESSION_RECORDS") << S::Error << QStringLiteral("update_stream");
        QTest::newRow("QOS2_ORPHANED") << QStringLiteral("QOS2_ORPHANED") << S::Error << QStringLiteral("delete_qos2_records");
        QTest::newRow("CLIENT_ID_TAKEOVER") << QStringLiteral("CLIENT_ID_TAKEOVER") << S::Warning << QString();
        QTest::newRow("CONSUMER_STUCK") << QStringLiteral("CONSUMER_STUCK") << S::Error << QStringLiteral("delete_session");
        QTest::newRow("SESSION_DURABLE_REPLACED")
            << QStringLiteral("SESSION_DURABLE_REPLACED") << S::Error << QStringLiteral("adopt_durable");
        QTest::newRow("INTEREST_PINNED") << QStringLiteral("INTEREST_PINNED") << S::Warning << QStringLiteral("delete_session");
        QTest::newRow("JETSTREAM_API_ERRORS") << QStringLiteral("JETSTREAM_API_ERRORS") << S::Warning << QString();
        QTest::newRow("SERVER_VERSION_ADVISORY") << QStringLiteral("SERVER_VERSION_ADVISORY") << S::Info << QString();
        QTest::newRow("JETSTREAM_META_DEGRADED") << QStringLiteral("JETSTREAM_META_DEGRADED") << S::Warning << QString();
        QTest::newRow("DELIBERATE_DEVIATION") << QStringLiteral("DELIBERATE_DEVIATION") << S::Info << QStringLiteral("recreate_stream");
        QTest::newRow("UPGRADE_CLIENT_ID_REFUSED") << QStringLiteral("UPGRADE_CLIENT_ID_REFUSED") << S::Warning << QString();
        QTest::newRow("UPGRADE_RETAINED_SKIPPED") << QStringLiteral("UPGRADE_RETAINED_SKIPPED") << S::Warning << QString();
        QTest::newRow("UPGRADE_PAYLOAD_TOO_LARGE") << QStringLiteral("UPGRADE_PAYLOAD_TOO_LARGE") << S::Warning << QString();
        QTest::newRow("UPGRADE_INTERNAL_SUBSCRIPTION") << QStringLiteral("UPGRADE_INTERNAL_SUBSCRIPTION") << S::Warning << QString();
    }

    void everyCodeOfTheProduct()
    {
        QFETCH(QString, code);
        QFETCH(Finding::Severity, severity);
        QFETCH(QString, repair);
        const FindingCatalogue::Entry *e = FindingCatalogue::entry(code);
        QVERIFY2(e, qPrintable(code));
        QCOMPARE(e->code, code);
        QCOMPARE(e->severity, severity);
        QCOMPARE(e->repair, repair);
        QVERIFY(!e->titleTemplate.isEmpty());
        QVERIFY(!e->detects.isEmpty());
        QVERIFY(!e->guidance.isEmpty());
        // Something tells the operator what they see: a log line, or a symptom that leaves none.
        QVERIFY(!e->explains.isEmpty() || !e->symptoms.isEmpty());
        for (const auto &l : e->explains) {
            QVERIFY2(!l.format().isEmpty(), qPrintable(code + u": no log template "_s + l.line));
            QVERIFY(!l.versions().isEmpty());
            QVERIFY2(l.cause.isEmpty() || !LogCatalogue::causeText(l.cause).isEmpty(), qPrintable(code + u": no cause "_s + l.cause));
        }
    }

    void catalogueIsComplete()
    {
        const QStringList codes = FindingCatalogue::codes();
        QCOMPARE(codes.size(), 34);
        QCOMPARE(QSet<QString>(codes.begin(), codes.end()).size(), codes.size());
        QCOMPARE(codes.first(), FindingCodes::jetStreamDisabled());
        QCOMPARE(codes.last(), FindingCodes::upgradeInternalSubscription());
        QVERIFY(!FindingCatalogue::entry(QStringLiteral("NO_SUCH_CODE")));
        QCOMPARE(FindingCatalogue::entry(FindingCodes::streamConfigWrong())->alternativeRepairs,
                 QStringList{QStringLiteral("recreate_stream")});
    }

    /** The server strings of the four seed records and other key lines are explained by some code. */
    void explainsServerLines_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("code");
        QTest::newRow("seed: retained lookup-or-create")
            << QStringLiteral("could not look up or create the retained messages stream for account %q")
            << QStringLiteral("STREAM_UNHEALTHY");
        QTest::newRow("seed: sessions stream") << QStringLiteral("create sessions stream for account %q: %v")
                                               << QStringLiteral("SUBJECTS_OVERLAP");
        QTest::newRow("seed: QoS2 stream") << QStringLiteral("create QoS2 incoming messages stream for account %q: %v")
                                           << QStringLiteral("STREAM_LIMIT_HEADROOM");
        QTest::newRow("seed: loading session") << QStringLiteral("loading session record: %w for account %q, session %q")
                                               << QStringLiteral("STREAM_MISSING");
        QTest::newRow("old loading session") << QStringLiteral("loading session record for account %q, session %q: %v")
                                             << QStringLiteral("STREAM_MISSING");
        QTest::newRow("10093") << QStringLiteral("create retained messages consumer for account %q: %v")
                               << QStringLiteral("RETAINED_DOWNGRADE");
        QTest::newRow("replicas warning") << QStringLiteral(
            "MQTT %s stream replicas mismatch: current is %v but configuration is %v for '%s > %s'")
                                          << QStringLiteral("REPLICAS_MISMATCH");
        QTest::newRow("JS disabled") << QStringLiteral("lookup %s stream for account %q: %v") << QStringLiteral("JETSTREAM_DISABLED");
        QTest::newRow("legacy loop") << QStringLiteral("Failed to transfer all MQTT session streams, will try again in %v")
                                     << QStringLiteral("LEGACY_SESSION_STREAMS");
        QTest::newRow("retained deadline") << QStringLiteral(
            "timed out while transferring retained messages from '$MQTT.rmsgs' after %v, %d processed, %d successfully transferred")
                                           << QStringLiteral("RETAINED_LEGACY_LAYOUT");
        QTest::newRow("unmarshal") << QStringLiteral("unmarshal of session record at sequence %v: %w for account %q, session %q")
                                   << QStringLiteral("SESSION_UNDECODABLE");
        QTest::newRow("collision") << QStringLiteral("stored session does not match client ID for account %q, session %q")
                                   << QStringLiteral("SESSION_ID_MISMATCH");
    }

    void explainsServerLines()
    {
        QFETCH(QString, format);
        QFETCH(QString, code);
        bool found = false;
        for (const auto &l : FindingCatalogue::entry(code)->explains)
            found = found || l.format() == format;
        QVERIFY2(found, qPrintable(code + QStringLiteral(" does not explain ") + format));
    }

    void templateText()
    {
        using LT = FindingCatalogue::LogTemplate;
        QCOMPARE((LT{u"asm.create_sessions_stream"_s, u"js:10065"_s}.text()),
                 u"create sessions stream for account %q: subjects overlap with an existing stream (10065)"_s);
        // %w in the middle of the line: the error goes there.
        QCOMPARE((LT{u"session.load_failed"_s, u"js:10059"_s}.text()),
                 u"loading session record: stream not found (10059) for account %q, session %q"_s);
        QCOMPARE((LT{u"asm.replicas_mismatch"_s, {}}.text()), LogCatalogue::templateText(u"asm.replicas_mismatch"_s));
        // A line without %v / %w keeps its text whatever the cause.
        QCOMPARE((LT{u"session.id_mismatch"_s, u"js:10059"_s}.text()), LogCatalogue::templateText(u"session.id_mismatch"_s));
        QCOMPARE((LT{u"session.persist_failed"_s, u"timeout:store"_s}.text()), u"unable to persist session %q (seq=%v): timeout"_s);
        QCOMPARE((LT{u"asm.create_qos2in_stream"_s, {}}.versions()), QStringList{u"2.10.0+"_s});
        // An unknown id is a defect: said loudly, and the id stands in for the text.
        QTest::ignoreMessage(QtCriticalMsg, "LogCatalogue: no template with id no.such_line");
        QCOMPARE((LT{u"no.such_line"_s, {}}.text()), u"no.such_line"_s);
    }

    // The compiled-in data file is what the catalogue holds, and bad data is refused with a clear error.
    void dataFile()
    {
        QFile f(FindingCatalogue::dataResource());
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto parsed = FindingCatalogue::parseData(f.readAll());
        QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().message()));
        QCOMPARE(parsed->size(), FindingCatalogue::entries().size());

        const auto errorOf = [](const QByteArray &json) {
            const auto r = FindingCatalogue::parseData(json);
            return r.ok() ? QString() : r.error().message();
        };
        const QByteArray good =
            R"({"code": "X", "severity": "error", "scope": "stream", "title": "t", "detects": "d", "symptoms": "s", "guidance": "g")";
        QVERIFY(errorOf(QByteArray(R"({"findings": [)") + good + "}]}").isEmpty());
        QVERIFY(errorOf("{").contains(u"not JSON"_s));
        QCOMPARE(errorOf(R"({"findings": [], "extra": 1})"), u"finding catalogue: unknown member 'extra'"_s);
        QCOMPARE(errorOf(QByteArray(R"({"findings": [)") + good + R"(, "colour": "red"}]})"),
                 u"finding catalogue entry X: unknown member 'colour'"_s);
        QCOMPARE(errorOf(QByteArray(R"({"findings": [)") + good + "}, " + good + "}]}"), u"finding catalogue: code X appears twice"_s);
        QCOMPARE(
            errorOf(
                R"({"findings": [{"code": "X", "severity": "bad", "scope": "stream", "title": "t", "detects": "d", "symptoms": "s", "guidance": "g"}]})"),
            u"finding catalogue entry X: unknown severity 'bad'"_s);
        QCOMPARE(
            errorOf(
                R"({"findings": [{"code": "X", "severity": "error", "scope": "stream", "title": "t", "detects": "d", "guidance": "g"}]})"),
            u"finding catalogue entry X: neither a line it explains nor a symptom tells the operator what they see"_s);
        QCOMPARE(
            errorOf(
                R"({"findings": [{"code": "X", "severity": "error", "scope": "stream", "title": "t", "detects": "d", "guidance": "g", "explains": [{"line": "a", "why": 1}]}]})"),
            u"explained line of X: unknown member 'why'"_s);
        QVERIFY(errorOf(R"({"findings": [{"severity": "error"}]})").contains(u"member 'code' is missing"_s));
    }

    // Each code has its section in docs/findings.md, in the catalogue's order, and the section names the
    // catalogue's repair action (or says there is none).
    void findingsDocFollowsTheCatalogue()
    {
        QFile f(Test::CapturedLogs::sourceDir() + QStringLiteral("/docs/findings.md"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QString doc = QString::fromUtf8(f.readAll());
        const qsizetype codesStart = doc.indexOf(u"\n## The finding codes\n"_s);
        QVERIFY(codesStart >= 0);
        QStringList sections;
        static const QRegularExpression heading(u"^### ([A-Z0-9_]+)$"_s, QRegularExpression::MultilineOption);
        for (auto it = heading.globalMatch(doc, codesStart); it.hasNext();)
            sections << it.next().captured(1);
        QCOMPARE(sections, FindingCatalogue::codes());
        for (qsizetype i = 0; i < sections.size(); ++i) {
            const FindingCatalogue::Entry *e = FindingCatalogue::entry(sections.at(i));
            const qsizetype from = doc.indexOf(u"\n### "_s + e->code + u'\n');
            const qsizetype to = i + 1 < sections.size() ? doc.indexOf(u"\n### "_s + sections.at(i + 1) + u'\n') : doc.size();
            const QString section = doc.mid(from, to - from);
            if (e->repair.isEmpty())
                QVERIFY2(section.contains(u"**Repair:** none"_s) || section.contains(u"**No repair"_s),
                         qPrintable(e->code + u" does not say it has no repair"_s));
            else
                QVERIFY2(section.contains(u"`"_s + e->repair + u'`'), qPrintable(e->code + u" does not name its repair "_s + e->repair));
        }
    }

    void makeFinding()
    {
        const Finding f = FindingCatalogue::make(FindingCodes::streamMissing(), QStringLiteral("ACME"), QStringLiteral("$MQTT_sess"));
        QCOMPARE(f.code, QStringLiteral("STREAM_MISSING"));
        QCOMPARE(f.title, QStringLiteral("$MQTT_sess is missing in account ACME"));
        QCOMPARE(f.severity, Finding::Severity::Error);
        QCOMPARE(f.repair, QStringLiteral("create_stream"));
        QVERIFY(f.explains.contains(QStringLiteral("loading session record: stream not found (10059) for account %q, session %q")));

        const Finding r =
            FindingCatalogue::make(FindingCodes::replicasMismatch(), QStringLiteral("ACME"), QStringLiteral("$MQTT_msgs"),
                                   {{QStringLiteral("actual"), QStringLiteral("1")}, {QStringLiteral("expected"), QStringLiteral("3")}});
        QCOMPARE(r.title, QStringLiteral("$MQTT_msgs has 1 replicas, expected 3"));

        const Finding s = FindingCatalogue::make(
            FindingCodes::sessionUndecodable(), QStringLiteral("ACME"), {},
            {{QStringLiteral("subject"), QStringLiteral("$MQTT.sess.PNfq787e")}, {QStringLiteral("client_id"), QStringLiteral("client1")}});
        QCOMPARE(s.subject, QStringLiteral("$MQTT.sess.PNfq787e"));
        QCOMPARE(s.clientId, QStringLiteral("client1"));
        QCOMPARE(s.title, QStringLiteral("Session record on $MQTT.sess.PNfq787e cannot be decoded"));

        const Finding unknown = FindingCatalogue::make(QStringLiteral("NOPE"), QStringLiteral("A"));
        QCOMPARE(unknown.code, QStringLiteral("NOPE"));
        QVERIFY(unknown.title.isEmpty());

        const QJsonObject json = f.toJson();
        QCOMPARE(json.value(QLatin1String("repair")).toString(), QStringLiteral("create_stream"));
        QCOMPARE(json.value(QLatin1String("severity")).toString(), QStringLiteral("error"));
    }

    // Before and after a repair the same problem is found again with other evidence: the identity ignores the
    // evidence, severity and text, and tells apart what the finding is about.
    void identity()
    {
        const Finding before =
            FindingCatalogue::make(FindingCodes::replicasMismatch(), QStringLiteral("ACME"), QStringLiteral("$MQTT_msgs"),
                                   {{QStringLiteral("actual"), QStringLiteral("1")}, {QStringLiteral("expected"), QStringLiteral("3")}});
        Finding again = before;
        again.detail = QStringLiteral("other words");
        again.actual = QJsonValue(2);
        again.severity = Finding::Severity::Critical;
        QCOMPARE(again.identity(), before.identity());
        QCOMPARE(before.identity(), QStringLiteral("REPLICAS_MISMATCH|ACME|$MQTT_msgs|||$MQTT_msgs has 1 replicas, expected 3"));

        const auto differs = [&before](auto change) {
            Finding f = before;
            change(f);
            return f.identity() != before.identity();
        };
        QVERIFY(differs([](Finding &f) { f.code = QStringLiteral("STREAM_MISSING"); }));
        QVERIFY(differs([](Finding &f) { f.account = QStringLiteral("BETA"); }));
        QVERIFY(differs([](Finding &f) { f.stream = QStringLiteral("$MQTT_sess"); }));
        QVERIFY(differs([](Finding &f) { f.subject = QStringLiteral("$MQTT.sess.x"); }));
        QVERIFY(differs([](Finding &f) { f.clientId = QStringLiteral("c1"); }));
        QVERIFY(differs([](Finding &f) { f.title = QStringLiteral("$MQTT_msgs has 2 replicas, expected 3"); }));
    }

    void scopes()
    {
        QCOMPARE(FindingCatalogue::entry(FindingCodes::mixedServerVersions())->scope, FindingCatalogue::Scope::Cluster);
        QCOMPARE(FindingCatalogue::entry(FindingCodes::streamLimitHeadroom())->scope, FindingCatalogue::Scope::Account);
        QCOMPARE(FindingCatalogue::entry(FindingCodes::streamMissing())->scope, FindingCatalogue::Scope::Stream);
        QCOMPARE(FindingCatalogue::entry(FindingCodes::sessionStale())->scope, FindingCatalogue::Scope::Session);
        QCOMPARE(FindingCatalogue::scopeName(FindingCatalogue::Scope::Cluster), QStringLiteral("cluster"));
    }

    // Most severe first, then account, the catalogue's order of codes, stream, subject, client; the
    // findings themselves unchanged (sorted in place by following the permutation's cycles).
    // docs/findings.md renders the catalogue's severity table: each code's default severity and when it
    // differs, row for row.
    void severityTableIsDocumented()
    {
        QString expected;
        for (const FindingCatalogue::Entry &e : FindingCatalogue::entries()) {
            const QString rule = FindingCatalogue::severityRule(e.code);
            expected += QStringLiteral("| %1 | %2 | %3 |\n")
                            .arg(e.code, Finding::severityName(e.severity), rule.isEmpty() ? QStringLiteral("-") : rule);
        }
        QFile f(Test::CapturedLogs::sourceDir() + QStringLiteral("/docs/findings.md"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QString doc = QString::fromUtf8(f.readAll());
        const qsizetype header = doc.indexOf(QStringLiteral("| Code | Default | When it differs |\n|---|---|---|\n"));
        QVERIFY2(header >= 0, "docs/findings.md has no severity table");
        const qsizetype start = doc.indexOf(u'\n', doc.indexOf(u'\n', header) + 1) + 1;
        const qsizetype end = doc.indexOf(QStringLiteral("\n\n"), start);
        const QString table = doc.mid(start, end - start + 1);
        if (table != expected)
            qWarning().noquote() << "expected table:\n" << expected;
        QCOMPARE(table, expected);
    }

    void sortFindingsOrdersEveryPair()
    {
        const QList<Finding> findings = randomFindings(3000, 2463534242u);
        QList<Finding> sorted = findings;
        Checks::sortFindings(sorted);
        verifySorted(findings, sorted);
    }

    // Lists that are sorted pieces one after the other (what diagnose sorts: each account's findings sorted
    // by its check) are merged; many pieces are sorted as a whole. Same order either way, stable too.
    void sortFindingsMergesSortedPieces_data()
    {
        QTest::addColumn<int>("pieces");
        for (int pieces : {1, 2, 3, 9, 10, 40})
            QTest::addRow("%d pieces", pieces) << pieces;
    }

    void sortFindingsMergesSortedPieces()
    {
        QFETCH(int, pieces);
        QList<Finding> findings;
        for (int p = 0; p < pieces; ++p) {
            QList<Finding> piece = randomFindings(200, 88172645u + quint32(p));
            Checks::sortFindings(piece);
            findings.append(piece);
        }
        for (qsizetype i = 0; i < findings.size(); ++i)
            findings[i].title = QStringLiteral("#%1").arg(i);
        QList<Finding> sorted = findings;
        Checks::sortFindings(sorted);
        verifySorted(findings, sorted);
    }

private:
    static QList<Finding> randomFindings(int count, quint32 seed)
    {
        const QStringList codes = FindingCatalogue::codes();
        QList<Finding> findings;
        quint32 x = seed;
        auto next = [&x](quint32 n) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            return x % n;
        };
        for (int i = 0; i < count; ++i) {
            Finding f;
            f.code = codes.at(qsizetype(next(quint32(codes.size()))));
            f.severity = Finding::Severity(next(4));
            f.account = QStringLiteral("A%1").arg(next(3));
            f.stream = QStringLiteral("S%1").arg(next(2));
            f.subject = QStringLiteral("s%1").arg(next(5));
            f.clientId = QStringLiteral("c%1").arg(next(7));
            f.title = QStringLiteral("#%1").arg(i); // tells the findings apart
            findings.append(f);
        }
        return findings;
    }

    // `sorted` holds every finding of `findings` (titles "#<index>"), ordered by the documented key, equal keys
    // in their original order.
    static void verifySorted(const QList<Finding> &findings, const QList<Finding> &sorted)
    {
        const QStringList codes = FindingCatalogue::codes();
        QCOMPARE(sorted.size(), findings.size());
        auto key = [&codes](const Finding &f) {
            return std::make_tuple(-int(f.severity), f.account, codes.indexOf(f.code), f.stream, f.subject, f.clientId);
        };
        QSet<QString> titles;
        for (qsizetype i = 0; i < sorted.size(); ++i) {
            titles.insert(sorted.at(i).title);
            if (i > 0) {
                QVERIFY(!(key(sorted.at(i)) < key(sorted.at(i - 1))));
                if (key(sorted.at(i)) == key(sorted.at(i - 1))) // stable: equal keys keep their order
                    QVERIFY(sorted.at(i - 1).title.toString().mid(1).toInt() < sorted.at(i).title.toString().mid(1).toInt());
            }
        }
        QCOMPARE(titles.size(), findings.size());
    }
};

QTEST_GUILESS_MAIN(TestFindingCatalogue)
#include "tst_findingcatalogue.moc"
