// The history against real servers: a break made between two recorded checks shows in `changes` with its time and
// as one finding over the checks that saw it (first and last seen) until a check no longer finds it; a session's
// rewrite and removal show in its client's story, a takeover fight with the addresses of both connections; two
// recorders at once both write; a recorder killed mid-write leaves a database that passes its integrity check; a
// folder that cannot be written leaves the check's result as it is, with a clear warning.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "clirunner.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "livecheck.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "persistentsessionfixture.h"
#include "schemavalidator.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::StringLiterals;

namespace {

QString str(const QJsonObject &o, const char *key)
{
    return o.value(QLatin1String(key)).toString();
}

/** The consumers of `$MQTT_msgs` whose filter is under `prefix` (a session's durables). */
QStringList durablesUnder(const QString &url, const QString &prefix)
{
    ConnectionSet set(LiveCheck::acmeProfile(url, true));
    auto conn = set.primary();
    QStringList out;
    if (!conn)
        return out;
    if (auto list = JetStreamClient(*conn).consumerList(u"$MQTT_msgs"_s))
        for (const QJsonObject &c : *list)
            if (c.value(u"config"_s).toObject().value(u"filter_subject"_s).toString().startsWith(prefix))
                out << c.value(u"name"_s).toString();
    return out;
}

bool deleteConsumer(const QString &url, const QString &name)
{
    ConnectionSet set(LiveCheck::acmeProfile(url, true));
    auto conn = set.primary();
    return conn && bool(JetStreamClient(*conn).call(u"CONSUMER.DELETE.$MQTT_msgs."_s + name));
}

} // namespace

class TestHistory : public QObject
{
    Q_OBJECT

    QTemporaryDir m_outputs; // JSON outputs for the schema check

    CliRunner::Run recordCheck(const PersistentSessionFixture &lab, const QString &dir)
    {
        const CliRunner::Run run =
            CliRunner::run(lab.cliArgs() + QStringList{u"check"_s, u"--json"_s, u"--record"_s, u"--history-dir"_s, dir});
        if (run.err().contains(u"not recorded"_s))
            qWarning("%s", qPrintable(run.describe()));
        return run;
    }

    CliRunner::Run history(const PersistentSessionFixture &lab, const QString &dir, const QStringList &args, const QString &saveAs)
    {
        const CliRunner::Run run = CliRunner::run(lab.cliArgs() + args + QStringList{u"--json"_s, u"--history-dir"_s, dir});
        QFile f(m_outputs.filePath(saveAs));
        if (f.open(QIODevice::WriteOnly))
            f.write(run.process.standardOutput);
        return run;
    }

private slots:
    void breakBetweenChecks_data() { addServerVersionRows(); }

    void breakBetweenChecks()
    {
        QFETCH(QString, version);
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(version), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(u"dev-1"_s, {u"site/1/#"_s}).subscribed());
        QVERIFY(lab.addSession(u"dev-2"_s, {u"site/2/#"_s}).subscribed());
        QTemporaryDir dir;

        const CliRunner::Run first = recordCheck(lab, dir.path());
        QVERIFY2(first.jsonValid && !first.err().contains(u"not recorded"_s), qPrintable(first.describe()));
        const QDateTime beforeBreak = QDateTime::currentDateTimeUtc();

        // The break: dev-1's durables are deleted; dev-2 subscribes to one more filter (its record is rewritten).
        const QStringList durables = durablesUnder(lab.url(), u"$MQTT.msgs.site.1"_s);
        QVERIFY2(!durables.isEmpty(), "dev-1 has durables");
        for (const QString &d : durables)
            QVERIFY(deleteConsumer(lab.url(), d));
        QVERIFY(lab.addSession(u"dev-2"_s, {u"site/2/#"_s, u"site/2b/#"_s}).subscribed());

        const CliRunner::Run again = recordCheck(lab, dir.path());
        QVERIFY2(again.jsonValid && again.exitCode() == 2 && !again.err().contains(u"not recorded"_s), qPrintable(again.describe()));
        // The text report of a recorded check says since when each finding is open.
        const CliRunner::Run text3 = CliRunner::run(lab.cliArgs() + QStringList{u"check"_s, u"--record"_s, u"--history-dir"_s, dir.path()});
        QVERIFY2(text3.exitCode() == 2 && text3.out().contains(u"first seen by a recorded check"_s)
                     && text3.out().contains(u"since:    this check"_s) == false,
                 qPrintable(text3.describe()));

        // changes: the finding opened after the break, with its time, and dev-2's new subscription.
        const CliRunner::Run changes = history(lab, dir.path(), {u"changes"_s, u"--since"_s, u"1h"_s}, u"changes-%1.json"_s.arg(version));
        QVERIFY2(changes.exitCode() == 0 && changes.jsonValid, qPrintable(changes.describe()));
        QCOMPARE(changes.json.value(u"checks"_s).toObject().value(u"count"_s).toInt(), 3);
        bool opened = false, rewritten = false;
        for (const QJsonValue &v : changes.json.value(u"entries"_s).toArray()) {
            const QJsonObject e = v.toObject();
            const QDateTime at = QDateTime::fromString(str(e, "at"), Qt::ISODateWithMs);
            if (str(e, "kind") == u"finding_opened"_s && str(e, "client_id") == u"dev-1"_s) {
                opened = true;
                QVERIFY2(at >= beforeBreak.addSecs(-1), qPrintable(str(e, "at")));
            }
            if (str(e, "kind") == u"session_rewritten"_s && str(e, "client_id") == u"dev-2"_s)
                rewritten = e.value(u"detail"_s).toObject().value(u"subscriptions_added"_s).toArray().contains(u"site/2b/# 1"_s);
        }
        QVERIFY2(opened && rewritten, qPrintable(changes.describe()));

        // history: the break is one finding per problem over the two checks that saw it, still open.
        const CliRunner::Run open = history(lab, dir.path(), {u"history"_s}, u"history-%1.json"_s.arg(version));
        QVERIFY2(open.exitCode() == 0 && open.jsonValid, qPrintable(open.describe()));
        QSet<QString> seen;
        int dev1 = 0;
        for (const QJsonValue &v : open.json.value(u"findings"_s).toArray()) {
            const QJsonObject f = v.toObject();
            const QString key = str(f, "code") + u'|' + str(f, "client_id") + u'|' + str(f, "title");
            QVERIFY2(!seen.contains(key), qPrintable(key)); // one row per problem
            seen.insert(key);
            if (str(f, "client_id") == u"dev-1"_s) {
                ++dev1;
                QVERIFY(f.value(u"open"_s).toBool());
                QVERIFY2(str(f, "first_seen") < str(f, "last_seen"), qPrintable(str(f, "first_seen") + u' ' + str(f, "last_seen")));
            }
        }
        QVERIFY(dev1 > 0);

        // The session goes; the next check closes dev-1's findings, and its story tells all of it.
        const CliRunner::Run removed = CliRunner::run(lab.cliArgs()
                                                      + QStringList{u"--allow-changes"_s, u"delete-sessions"_s, u"dev-1"_s, u"--yes"_s,
                                                                    u"--backup-dir"_s, dir.filePath(u"backups"_s)});
        QVERIFY2(removed.exitCode() == 0, qPrintable(removed.describe()));
        QVERIFY(recordCheck(lab, dir.path()).jsonValid);
        const CliRunner::Run story =
            history(lab, dir.path(), {u"history"_s, u"--client"_s, u"dev-1"_s}, u"client-history-%1.json"_s.arg(version));
        QVERIFY2(story.exitCode() == 0 && story.jsonValid, qPrintable(story.describe()));
        QStringList kinds;
        for (const QJsonValue &v : story.json.value(u"entries"_s).toArray())
            kinds << str(v.toObject(), "kind");
        QVERIFY2(kinds.contains(u"finding_opened"_s) && kinds.contains(u"finding_closed"_s) && kinds.contains(u"session_vanished"_s),
                 qPrintable(kinds.join(u' ')));
        const CliRunner::Run text =
            CliRunner::run(lab.cliArgs() + QStringList{u"history"_s, u"--client"_s, u"dev-1"_s, u"--history-dir"_s, dir.path()});
        QVERIFY2(text.out().contains(u"session record of client \"dev-1\" vanished"_s), qPrintable(text.describe()));

        // The incident report: HTML and PDF, client IDs replaced by their hashes when asked.
        const QString html = dir.filePath(u"report.html"_s), pdf = dir.filePath(u"report.pdf"_s);
        const CliRunner::Run made = history(lab, dir.path(),
                                            {u"report"_s, u"--account"_s, LiveCheck::acme(), u"--since"_s, u"1h"_s, u"--out"_s, html,
                                             u"--pdf"_s, pdf, u"--hash-client-ids"_s, u"--audit-log"_s, dir.filePath(u"none.jsonl"_s)},
                                            u"report-%1.json"_s.arg(version));
        QVERIFY2(made.exitCode() == 0 && made.jsonValid && made.json.value(u"findings"_s).toInt() > 0, qPrintable(made.describe()));
        QFile page(html), printed(pdf);
        QVERIFY(page.open(QIODevice::ReadOnly) && printed.open(QIODevice::ReadOnly));
        const QString pageText = QString::fromUtf8(page.readAll());
        QVERIFY(printed.read(5) == "%PDF-" && printed.size() > 10000);
        QVERIFY2(pageText.contains(u"SESSION_"_s) && pageText.contains(u"<svg"_s)
                     && pageText.contains(u"client#"_s + ClientIdHash::hash(u"dev-1"_s)),
                 qPrintable(pageText.left(2000)));
        QVERIFY2(!pageText.contains(u"dev-1"_s) && !pageText.contains(u"dev-2"_s), "client IDs hashed everywhere");

        const QString report = SchemaValidator::validate(QDir(m_outputs.path())
                                                             .entryList({u"*-%1.json"_s.arg(version)}, QDir::Files)
                                                             .replaceInStrings(QRegularExpression(u"^"_s), m_outputs.path() + u'/'));
        QVERIFY2(report.isEmpty(), qPrintable(report));
    }

    void takeoverFight()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        QTemporaryDir dir;
        // Two devices with one client ID: each connect closes the other's connection, and each reconnects.
        QList<QProcess *> devices;
        for (int i = 0; i < 2; ++i) {
            auto *p = new QProcess(this);
            p->start(u"mosquitto_sub"_s,
                     {u"-h"_s, u"127.0.0.1"_s, u"-p"_s, QString::number(lab.mqttPort()), u"-u"_s, u"acme"_s, u"-P"_s, u"acmepass"_s,
                      u"-i"_s, u"twin"_s, u"-t"_s, u"twin/#"_s, u"-W"_s, u"6"_s});
            devices << p;
            QTest::qWait(700);
        }
        QTest::qWait(2500);
        const CliRunner::Run run = recordCheck(lab, dir.path());
        for (QProcess *p : devices) {
            p->kill();
            p->waitForFinished(5000);
        }
        QVERIFY2(run.jsonValid && !run.err().contains(u"not recorded"_s), qPrintable(run.describe()));
        const CliRunner::Run story = history(lab, dir.path(), {u"history"_s, u"--client"_s, u"twin"_s}, u"takeover.json"_s);
        QVERIFY2(story.jsonValid, qPrintable(story.describe()));
        QSet<QString> addresses;
        int takeovers = 0;
        for (const QJsonValue &v : story.json.value(u"entries"_s).toArray()) {
            const QJsonObject e = v.toObject();
            if (str(e, "kind") == u"takeover"_s) {
                ++takeovers;
                addresses.insert(str(e.value(u"detail"_s).toObject(), "address"));
            }
        }
        QVERIFY2(takeovers >= 2 && addresses.size() >= 2, qPrintable(story.describe()));
        // Recorded again: each closed connection once.
        QVERIFY(recordCheck(lab, dir.path()).jsonValid);
        const CliRunner::Run again = history(lab, dir.path(), {u"history"_s, u"--client"_s, u"twin"_s}, u"takeover-again.json"_s);
        int takeoversAgain = 0;
        for (const QJsonValue &v : again.json.value(u"entries"_s).toArray())
            takeoversAgain += str(v.toObject(), "kind") == u"takeover"_s;
        QVERIFY2(takeoversAgain >= takeovers, qPrintable(again.describe()));
    }

    void robustWrites()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        for (int i = 0; i < 20; ++i)
            QVERIFY(lab.addSession(u"many-%1"_s.arg(i), {u"many/%1/#"_s.arg(i)}).subscribed());
        QTemporaryDir dir;
        const CliRunner::Run plain = CliRunner::run(lab.cliArgs() + QStringList{u"check"_s});

        // A folder that cannot be made: the check's result and exit code as without --record, and a warning.
        QFile file(dir.filePath(u"a-file"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const CliRunner::Run unwritable =
            CliRunner::run(lab.cliArgs() + QStringList{u"check"_s, u"--record"_s, u"--history-dir"_s, dir.filePath(u"a-file/h"_s)});
        QCOMPARE(unwritable.exitCode(), plain.exitCode());
        QVERIFY2(unwritable.out().contains(u"Checked 1 account"_s), qPrintable(unwritable.describe()));
        QVERIFY2(unwritable.err().contains(u"warning: the check was not recorded"_s), qPrintable(unwritable.describe()));

        // Two recorders at once: both write.
        const QString history = dir.filePath(u"h"_s);
        QProcess a, b;
        for (QProcess *p : {&a, &b})
            p->start(CliRunner::path(), lab.cliArgs() + QStringList{u"check"_s, u"--record"_s, u"--history-dir"_s, history});
        for (QProcess *p : {&a, &b}) {
            QVERIFY(p->waitForFinished(60000));
            QCOMPARE(p->exitCode(), plain.exitCode());
            const QByteArray err = p->readAllStandardError();
            QVERIFY2(!err.contains("not recorded"), err.constData());
        }
        const QStringList clusters = HistoryLocation::clustersIn(history);
        QCOMPARE(clusters.size(), 1);
        const QString path = HistoryLocation::databasePath(history, clusters.first());

        // Killed while writing, at several moments: the database stays whole and the next check records.
        for (const int delayMs : {30, 120, 400}) {
            QProcess victim;
            victim.start(CliRunner::path(), lab.cliArgs() + QStringList{u"check"_s, u"--record"_s, u"--history-dir"_s, history});
            QVERIFY(victim.waitForStarted());
            QTest::qWait(delayMs);
            victim.kill(); // SIGKILL, as kill -9
            victim.waitForFinished(5000);
            auto db = HistoryDatabase::open(path);
            QVERIFY2(db, qPrintable(db ? QString() : db.error().toString()));
            QVERIFY(*(*db)->integrityOk());
        }
        const CliRunner::Run after = CliRunner::run(lab.cliArgs() + QStringList{u"check"_s, u"--record"_s, u"--history-dir"_s, history});
        QVERIFY2(!after.err().contains(u"not recorded"_s), qPrintable(after.describe()));
        const CliRunner::Run checks = CliRunner::run({u"changes"_s, u"--json"_s, u"--history-dir"_s, history});
        QVERIFY2(checks.jsonValid && checks.json.value(u"checks"_s).toObject().value(u"count"_s).toInt() >= 3,
                 qPrintable(checks.describe()));
    }

    void recorder()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        QTemporaryDir dir;
        // Two rounds 10 s apart; a device connects between them: its connect is in its story from the
        // advisories, its new session record from the second check.
        QProcess rec;
        rec.start(CliRunner::path(),
                  lab.cliArgs()
                      + QStringList{u"record"_s, u"--interval"_s, u"10s"_s, u"--duration"_s, u"14s"_s, u"--history-dir"_s, dir.path()});
        QVERIFY(rec.waitForStarted());
        QTest::qWait(3000);
        QVERIFY(lab.addSession(u"late-1"_s, {u"late/#"_s}).subscribed());
        QVERIFY(rec.waitForFinished(60000));
        const QString out = QString::fromUtf8(rec.readAllStandardOutput());
        const QString err = QString::fromUtf8(rec.readAllStandardError());
        QVERIFY2(rec.exitCode() == 0 && out.count(u"recorded:"_s) == 2, qPrintable(out + err));
        QVERIFY2(err.contains(u"Recorded 2 checks."_s), qPrintable(err));
        const CliRunner::Run story = history(lab, dir.path(), {u"history"_s, u"--client"_s, u"late-1"_s}, u"recorder-story.json"_s);
        QStringList kinds;
        for (const QJsonValue &v : story.json.value(u"entries"_s).toArray())
            kinds << str(v.toObject(), "kind");
        QVERIFY2(kinds.contains(u"connect"_s) && kinds.contains(u"session_appeared"_s), qPrintable(story.describe()));

        // SIGTERM (systemd's stop) ends it cleanly after the round under way.
        QProcess service;
        service.start(CliRunner::path(),
                      lab.cliArgs() + QStringList{u"record"_s, u"--interval"_s, u"1h"_s, u"--history-dir"_s, dir.path()});
        QVERIFY(service.waitForStarted());
        QTest::qWait(3000);
        service.terminate();
        QVERIFY(service.waitForFinished(30000));
        QCOMPARE(service.exitStatus(), QProcess::NormalExit);
        QCOMPARE(service.exitCode(), 0);
        QVERIFY(QString::fromUtf8(service.readAllStandardError()).contains(u"Recorded 1 check."_s));
        // --json is refused: its records are read with history --json.
        QCOMPARE(CliRunner::run(lab.cliArgs() + QStringList{u"--json"_s, u"record"_s}).exitCode(), 64);

        // events --record: what it follows goes into the same history.
        QProcess events;
        events.start(CliRunner::path(),
                     lab.cliArgs() + QStringList{u"events"_s, u"--record"_s, u"--duration"_s, u"5s"_s, u"--history-dir"_s, dir.path()});
        QVERIFY(events.waitForStarted());
        QTest::qWait(1500);
        QVERIFY(lab.mqtt().connectOnce(u"seen-by-events"_s).connected());
        QVERIFY(events.waitForFinished(30000));
        QCOMPARE(events.exitCode(), 0);
        const CliRunner::Run followed =
            history(lab, dir.path(), {u"history"_s, u"--client"_s, u"seen-by-events"_s}, u"events-story.json"_s);
        QStringList followedKinds;
        for (const QJsonValue &v : followed.json.value(u"entries"_s).toArray())
            followedKinds << str(v.toObject(), "kind");
        QVERIFY2(followedKinds.contains(u"connect"_s) && followedKinds.contains(u"disconnect"_s), qPrintable(followed.describe()));
    }

    // The two-sample checks of a single recorded check compare with the last recorded sample: clean-session
    // connects between two recorded checks (each a session lookup that finds nothing) grow the account's API
    // errors, and the second check reports JETSTREAM_API_ERRORS, which a check without history cannot.
    void twoSampleChecksFromHistory()
    {
        PersistentSessionFixture lab;
        QVERIFY2(lab.start(u"newest"_s), qPrintable(lab.errorString()));
        QVERIFY(lab.addSession(u"dev-1"_s, {u"site/1/#"_s}).subscribed());
        QTemporaryDir dir;
        const QStringList args{u"check"_s, u"--json"_s, u"--api-errors-per-minute"_s, u"1"_s};
        const QStringList record{u"--record"_s, u"--history-dir"_s, dir.path()};
        const CliRunner::Run first = CliRunner::run(lab.cliArgs() + args + record);
        QVERIFY2(first.jsonValid, qPrintable(first.describe()));
        const auto codes = [](const CliRunner::Run &run) {
            QStringList out;
            for (const QJsonValue &a : run.json.value(u"accounts"_s).toArray())
                for (const QJsonValue &f : a.toObject().value(u"findings"_s).toArray())
                    out << str(f.toObject(), "code");
            for (const QJsonValue &f : run.json.value(u"findings"_s).toArray())
                out << str(f.toObject(), "code");
            return out;
        };
        QVERIFY2(!codes(first).contains(u"JETSTREAM_API_ERRORS"_s), qPrintable(first.describe()));
        for (int i = 0; i < 3; ++i)
            lab.mqtt().connectOnce(u"lookup-%1"_s.arg(i), true);
        QTest::qWait(2000);
        const CliRunner::Run plain = CliRunner::run(lab.cliArgs() + args);
        QVERIFY2(!codes(plain).contains(u"JETSTREAM_API_ERRORS"_s), qPrintable(plain.describe()));
        const CliRunner::Run second = CliRunner::run(lab.cliArgs() + args + record);
        QVERIFY2(codes(second).contains(u"JETSTREAM_API_ERRORS"_s), qPrintable(second.describe()));
    }

    void withoutHistory()
    {
        QTemporaryDir dir;
        const CliRunner::Run none = CliRunner::run({u"history"_s, u"--history-dir"_s, dir.path()});
        QCOMPARE(none.exitCode(), 3);
        QVERIFY2(none.err().contains(u"no history yet"_s) && none.err().contains(u"check --record"_s), qPrintable(none.describe()));
        // The profile's history_dir is the folder when --history-dir is not given.
        QFile profile(dir.filePath(u"p.json"_s));
        QVERIFY(profile.open(QIODevice::WriteOnly));
        profile.write("{\"servers\": [\"nats://127.0.0.1:4222\"], \"history_dir\": \"from-profile\"}");
        profile.close();
        const CliRunner::Run viaProfile = CliRunner::run({u"--profile"_s, profile.fileName(), u"history"_s});
        QVERIFY2(viaProfile.exitCode() == 3 && viaProfile.err().contains(QDir(dir.path()).filePath(u"from-profile"_s)),
                 qPrintable(viaProfile.describe()));
        const CliRunner::Run badSince = CliRunner::run({u"changes"_s, u"--since"_s, u"yesterday-ish"_s, u"--history-dir"_s, dir.path()});
        QCOMPARE(badSince.exitCode(), 64);
        QVERIFY(badSince.err().contains(u"--since"_s));
    }
};

QTEST_GUILESS_MAIN(TestHistory)
#include "tst_history.moc"
