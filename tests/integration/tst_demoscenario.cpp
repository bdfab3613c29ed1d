// `make demo`'s server (tools/demo, DemoScenario) against real servers of every version: its config,
// filled by real mosquitto clients and broken through real JetStream requests. `check` through the demo's
// own profile must report exactly the seeded problems (and nothing on the healthy accounts), `repair
// --yes` must fix each broken account so that a fresh check is clean and MQTT clients work again.
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "demoscenario.h"
#include "livecheck.h"
#include "mqttclient.h"
#include "mqtt/clientidhash.h"
#include "versionrows.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Demo;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::LiveCheck;

namespace {

const QString kOverlap = QStringLiteral("OVERLAP");
const QString kNoSess = QStringLiteral("NOSESS");
const QString kGarbage = QStringLiteral("GARBAGE");
const QString kOrphan = QStringLiteral("ORPHAN");

// What each account must report after populate(): the seeded problems' codes, nothing on the healthy ones.
QMap<QString, QStringList> expectedCodes()
{
    return {{QStringLiteral("ACME"), {}},
            {QStringLiteral("BETA"), {}},
            {QStringLiteral("NOJS"), {QStringLiteral("JETSTREAM_DISABLED")}},
            {kOverlap, {QStringLiteral("SUBJECTS_OVERLAP")}},
            {kNoSess, {QStringLiteral("STREAM_MISSING")}},
            {kGarbage, {QStringLiteral("SESSION_UNDECODABLE")}},
            {kOrphan, {QStringLiteral("ORPHAN_CONSUMER")}}};
}

// account -> sorted distinct finding codes (every account checked is present, possibly with none).
QMap<QString, QStringList> codesByAccount(const CliRunner::Run &run)
{
    QMap<QString, QStringList> out;
    for (const QJsonValue &a : run.json.value(QLatin1String("accounts")).toArray())
        out.insert(a.toString(), {});
    for (const QJsonObject &f : stateFindings(run)) {
        QStringList &codes = out[str(f, "account")];
        if (!codes.contains(str(f, "code")))
            codes << str(f, "code");
    }
    for (QStringList &codes : out)
        codes.sort();
    return out;
}

QList<QJsonObject> findingsOf(const CliRunner::Run &run, const QString &account)
{
    QList<QJsonObject> out;
    for (const QJsonObject &f : stateFindings(run))
        if (str(f, "account") == account)
            out << f;
    return out;
}

DemoAccount demoAccount(const QString &name)
{
    return DemoScenario::accountNamed(name);
}

MqttClient mqttOf(const NatsServerFixture &server, const QString &account)
{
    const DemoAccount a = demoAccount(account);
    MqttClient client(server.mqttPort(), a.user, a.password);
    client.setTimeoutMs(30000);
    return client;
}

QStringList durablesOf(JetStreamAdmin &admin, const QString &clientId)
{
    QStringList out;
    const QString prefix = ClientIdHash::hash(clientId) + QLatin1Char('_');
    for (const QString &name : admin.consumerNames(QStringLiteral("$MQTT_msgs")))
        if (name.startsWith(prefix))
            out << name;
    return out;
}

} // namespace

class TestDemoScenario : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_data.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_data.path())); // the repairs' audit log
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(missing));
    }

    void seededAndRepaired_data() { addServerVersionRows(); }

    void seededAndRepaired()
    {
        QFETCH(QString, version);
        NatsServerFixture server;
        QVERIFY2(server.start(version, DemoScenario::serverConfig()), qPrintable(server.errorString()));
        DemoScenario scenario;
        QVERIFY2(scenario.populate(server, [] { return false; }), qPrintable(scenario.errorString()));

        // The summary names each seeded problem, its codes and (where the server logs one) the server's error.
        const QMap<QString, QStringList> expected = expectedCodes();
        QStringList seeded;
        for (const SeededProblem &p : scenario.problems()) {
            seeded << p.account;
            QCOMPARE(p.codes, expected.value(p.account));
            QVERIFY2(p.summary.startsWith(p.account + QStringLiteral(": ")), qPrintable(p.summary));
        }
        QCOMPARE(seeded, (QStringList{kOverlap, kNoSess, kGarbage, kOrphan}));
        const auto logOf = [&scenario](const QString &account) {
            for (const SeededProblem &p : scenario.problems())
                if (p.account == account)
                    return p.serverLog;
            return QString();
        };
        QVERIFY2(logOf(kOverlap).contains(QStringLiteral("subjects overlap with an existing stream (10065)")), qPrintable(logOf(kOverlap)));
        QVERIFY2(logOf(kNoSess).contains(QStringLiteral("stream not found (10059)")), qPrintable(logOf(kNoSess)));
        QVERIFY2(logOf(kGarbage).contains(QStringLiteral("unmarshal of session record")), qPrintable(logOf(kGarbage)));
        QVERIFY(logOf(kOrphan).isEmpty()); // the server says nothing about orphans

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString profilePath = dir.filePath(QStringLiteral("demo-profile.json"));
        QString writeError;
        QVERIFY2(DemoScenario::writeProfile(profilePath, server.url(), &writeError), qPrintable(writeError)); // as the demo writes it
        const QStringList connection{QStringLiteral("--profile"), profilePath};

        // Every account, through the demo's profile: exactly the intended codes.
        const CliRunner::Run all = check(connection, {QStringLiteral("--all-accounts")});
        QVERIFY2(all.jsonValid, qPrintable(describe(all)));
        QCOMPARE(all.exitCode(), 2);
        const QMap<QString, QStringList> codes = codesByAccount(all);
        for (auto it = expected.constBegin(); it != expected.constEnd(); ++it)
            QVERIFY2(codes.contains(it.key()) && codes.value(it.key()) == it.value(),
                     qPrintable(QStringLiteral("%1: %2\n%3").arg(it.key(), codes.value(it.key()).join(u','), describe(all))));
        QVERIFY2(findingsOf(all, QString()).isEmpty(), qPrintable(describe(all))); // nothing cluster-wide

        // One severity per problem, whichever way an account is checked: alone (`check --account A`, the
        // path of the GUI's account view and of `repair`), or with every account. Same findings, same
        // severities, same exit code.
        const auto keysOf = [](const QList<QJsonObject> &list) {
            QStringList keys;
            for (const QJsonObject &f : list)
                keys << QStringList{str(f, "code"), str(f, "severity"), str(f, "stream"), str(f, "subject"), str(f, "title")}.join(u'|');
            keys.sort();
            return keys;
        };
        for (auto it = expected.constBegin(); it != expected.constEnd(); ++it) {
            const CliRunner::Run alone = check(connection, {QStringLiteral("--account"), it.key()});
            QVERIFY2(alone.jsonValid, qPrintable(describe(alone)));
            QCOMPARE(keysOf(findingsOf(alone, it.key())), keysOf(findingsOf(all, it.key())));
            const auto worst = [](const QList<QJsonObject> &list) {
                int rc = 0;
                for (const QJsonObject &f : list)
                    rc = qMax(rc, str(f, "severity") == QLatin1String("warning") ? 1 : str(f, "severity") == QLatin1String("info") ? 0 : 2);
                return rc;
            };
            QCOMPARE(alone.exitCode(), worst(findingsOf(all, it.key())));
        }
        const QJsonArray recordsChecked = all.json.value(QLatin1String("records_checked")).toArray();
        for (const QString &account : {kGarbage, kOrphan})
            QVERIFY2(recordsChecked.contains(account), qPrintable(describe(all)));

        // What the findings point at.
        // OVERLAP: MQTT_ARCHIVE blocks every MQTT stream of the layout (3 on 2.9, 5 on 2.10+), none exists: one
        // critical finding names them all (on 2.9 a second one, a warning, the two streams an upgrade adds).
        const QStringList layout = version == QLatin1String("2.9")
            ? QStringList{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess")}
            : QStringList{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT_out"), QStringLiteral("$MQTT_qos2in"),
                          QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT_sess")};
        QStringList blocked;
        for (const QJsonObject &o : findingsWith(all, QStringLiteral("SUBJECTS_OVERLAP"))) {
            QCOMPARE(str(o, "account"), kOverlap);
            QCOMPARE(actualOf(o).toObject().value(QLatin1String("stream")).toString(), QStringLiteral("MQTT_ARCHIVE"));
            QCOMPARE(str(o, "repair"), QStringLiteral("resolve_overlap"));
            if (str(o, "severity") == QLatin1String("critical"))
                for (const QJsonValue &v : expectedOf(o).toObject().value(QLatin1String("mqtt_streams")).toArray())
                    blocked << v.toObject().value(QLatin1String("stream")).toString();
        }
        blocked.sort();
        QCOMPARE(blocked, layout);
        QCOMPARE(findingsWith(all, QStringLiteral("SUBJECTS_OVERLAP")).size(), version == QLatin1String("2.9") ? 2 : 1);
        const QList<QJsonObject> missing = findingsOf(all, kNoSess);
        QCOMPARE(missing.size(), 1);
        QCOMPARE(str(missing.first(), "stream"), QStringLiteral("$MQTT_sess"));
        QCOMPARE(str(missing.first(), "repair"), QStringLiteral("create_stream"));
        const QList<QJsonObject> garbage = findingsOf(all, kGarbage);
        QCOMPARE(garbage.size(), 1);
        QCOMPARE(str(garbage.first(), "subject"), QStringLiteral("$MQTT.sess.") + ClientIdHash::hash(QStringLiteral("meter-2")));
        QCOMPARE(str(garbage.first(), "repair"), QStringLiteral("purge_session"));

        JetStreamAdmin orphanAdmin;
        QVERIFY2(orphanAdmin.connect({server.url()}, demoAccount(kOrphan).user, demoAccount(kOrphan).password),
                 qPrintable(orphanAdmin.error()));
        const QStringList orphanDurables = durablesOf(orphanAdmin, QStringLiteral("tracker-2"));
        const QStringList keptDurables = durablesOf(orphanAdmin, QStringLiteral("tracker-1"));
        QCOMPARE(orphanDurables.size(), 2);
        QCOMPARE(keptDurables.size(), 1);
        const QList<QJsonObject> orphans = findingsOf(all, kOrphan);
        QCOMPARE(orphans.size(), orphanDurables.size());
        for (const QJsonObject &o : orphans) {
            QCOMPARE(str(o, "stream"), QStringLiteral("$MQTT_msgs"));
            QCOMPARE(str(o, "repair"), QStringLiteral("delete_consumer"));
        }

        // The text of every account ends with the fleet summary: by code, the accounts with problems (most severe
        // first), and which accounts were checked at which level.
        const CliRunner::Run allText = CliRunner::run(connection + QStringList{QStringLiteral("check"), QStringLiteral("--all-accounts")});
        QCOMPARE(allText.exitCode(), 2);
        const QString fleet = allText.out().mid(allText.out().indexOf(QStringLiteral("Findings by code:")));
        QVERIFY2(fleet.contains(QRegularExpression(QStringLiteral("CRITICAL SESSION_UNDECODABLE\\s+1  in GARBAGE"))), qPrintable(fleet));
        const qsizetype garbageAt = fleet.indexOf(QStringLiteral("\n  GARBAGE "));
        const qsizetype orphanAt = fleet.indexOf(QStringLiteral("\n  ORPHAN "));
        QVERIFY2(garbageAt > 0 && orphanAt > garbageAt && fleet.contains(QStringLiteral("2 warnings")), qPrintable(fleet));
        QVERIFY2(fleet.contains(QStringLiteral("streams and session records: ACME, BETA, GARBAGE, ORPHAN")), qPrintable(fleet));

        // Missing is not empty: the record commands name what explains an absent stream and exit as check does.
        const auto run = [&connection](const QStringList &args) { return CliRunner::run(connection + args); };
        const auto missingCode = [](const CliRunner::Run &r) {
            return r.json.value(QLatin1String("stream_missing"))
                .toObject()
                .value(QLatin1String("finding"))
                .toObject()
                .value(QLatin1String("code"))
                .toString();
        };
        const CliRunner::Run noSessText = run({QStringLiteral("sessions"), QStringLiteral("--account"), kNoSess});
        QVERIFY2(noSessText.exitCode() == 2 && noSessText.out().contains(QStringLiteral("STREAM_MISSING"))
                     && !noSessText.out().contains(QStringLiteral("No MQTT sessions")),
                 qPrintable(noSessText.describe()));
        const CliRunner::Run noSessJson = run({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), kNoSess});
        QVERIFY2(noSessJson.exitCode() == 2 && noSessJson.jsonValid, qPrintable(noSessJson.describe()));
        QCOMPARE(missingCode(noSessJson), QStringLiteral("STREAM_MISSING"));
        QCOMPARE(noSessJson.json.value(QLatin1String("sessions")).toArray().size(), 0);
        for (const QString &command : {QStringLiteral("sessions"), QStringLiteral("retained")}) {
            const CliRunner::Run blockedRun = run({QStringLiteral("--json"), command, QStringLiteral("--account"), kOverlap});
            QVERIFY2(blockedRun.exitCode() == 2 && blockedRun.jsonValid, qPrintable(blockedRun.describe()));
            QCOMPARE(missingCode(blockedRun), QStringLiteral("SUBJECTS_OVERLAP"));
        }
        const CliRunner::Run blockedSession =
            run({QStringLiteral("session"), QStringLiteral("overlap-device"), QStringLiteral("--account"), kOverlap});
        QVERIFY2(blockedSession.exitCode() == 2 && blockedSession.out().contains(QStringLiteral("SUBJECTS_OVERLAP")),
                 qPrintable(blockedSession.describe()));
        const CliRunner::Run overlapStreams = run({QStringLiteral("streams"), QStringLiteral("--account"), kOverlap});
        QVERIFY2(overlapStreams.exitCode() == 2 && overlapStreams.out().contains(QStringLiteral("SUBJECTS_OVERLAP"))
                     && !overlapStreams.out().contains(QStringLiteral("creates them on the first")),
                 qPrintable(overlapStreams.describe()));
        const CliRunner::Run noJs =
            run({QStringLiteral("--json"), QStringLiteral("sessions"), QStringLiteral("--account"), QStringLiteral("NOJS")});
        QVERIFY2(noJs.exitCode() == 0 && noJs.jsonValid, qPrintable(noJs.describe())); // JETSTREAM_DISABLED is info here, as in check
        QCOMPARE(missingCode(noJs), QStringLiteral("JETSTREAM_DISABLED"));

        // meter-2's own record is corrupted: shown as SESSION_UNDECODABLE (exit 2), not as another client's record.
        const CliRunner::Run meter = run({QStringLiteral("session"), QStringLiteral("meter-2"), QStringLiteral("--account"), kGarbage});
        QVERIFY2(meter.exitCode() == 2 && meter.out().contains(QStringLiteral("SESSION_UNDECODABLE"))
                     && !meter.out().contains(QStringLiteral("another client")) && meter.out().contains(QStringLiteral("Clean:      ?")),
                 qPrintable(meter.describe()));
        const CliRunner::Run meterJson =
            run({QStringLiteral("--json"), QStringLiteral("session"), QStringLiteral("meter-2"), QStringLiteral("--account"), kGarbage});
        QVERIFY2(meterJson.exitCode() == 2 && meterJson.jsonValid, qPrintable(meterJson.describe()));
        QCOMPARE(meterJson.json.value(QLatin1String("undecodable")).toBool(), true);
        QCOMPARE(meterJson.json.value(QLatin1String("session")).toObject().value(QLatin1String("clean")), QJsonValue(QJsonValue::Null));
        const CliRunner::Run garbageList = run({QStringLiteral("sessions"), QStringLiteral("--account"), kGarbage});
        QVERIFY2(garbageList.out().contains(QRegularExpression(QStringLiteral("\\(undecodable\\)\\s+\\S+\\s+\\?\\s"))),
                 qPrintable(garbageList.describe()));

        // An invalid MQTT filter is refused, not matched against nothing.
        const CliRunner::Run badFilter = run({QStringLiteral("retained"), QStringLiteral("--account"), QStringLiteral("ACME"),
                                              QStringLiteral("--filter"), QStringLiteral("sensors/#/x")});
        QVERIFY2(badFilter.exitCode() != 0 && badFilter.err().contains(QStringLiteral("not a valid MQTT topic filter")),
                 qPrintable(badFilter.describe()));

        // Repair each broken account; afterwards its check is clean.
        for (const QString &account : {kOverlap, kNoSess, kGarbage, kOrphan}) {
            const QStringList repairArgs = connection + QStringList{QStringLiteral("--allow-changes"), QStringLiteral("repair"),
                                                                    QStringLiteral("--account"),       account,
                                                                    QStringLiteral("--yes"),           QStringLiteral("--json"),
                                                                    QStringLiteral("--backup-dir"),    dir.filePath(account)};
            const CliRunner::Run repair = CliRunner::run(repairArgs, 120000);
            QVERIFY2(repair.jsonValid, qPrintable(repair.describe()));
            QVERIFY2(repair.exitCode() == 0, qPrintable(repair.describe()));
            const QJsonObject applied = repair.json.value(QLatin1String("applied")).toObject();
            QVERIFY2(applied.value(QLatin1String("complete")).toBool(), qPrintable(repair.describe()));
            QVERIFY2(repair.json.value(QLatin1String("remaining")).toArray().isEmpty(), qPrintable(repair.describe()));

            const CliRunner::Run after = check(connection, {QStringLiteral("--account"), account});
            QVERIFY2(after.jsonValid, qPrintable(describe(after)));
            QVERIFY2(stateFindings(after).isEmpty(), qPrintable(account + QLatin1Char('\n') + describe(after)));
            QCOMPARE(after.exitCode(), 0);
        }

        // The orphan that held a pending message was backed up with the message ("backed up first" is true): the
        // backups of ORPHAN hold one message in all (the durable with nothing pending: its config only).
        qint64 orphanMessages = 0;
        const QDir orphanBackups(dir.filePath(kOrphan));
        for (const QFileInfo &file : orphanBackups.entryInfoList(QDir::Files)) {
            QFile f(file.filePath());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
            const QJsonObject trailer = QJsonDocument::fromJson(lines.last()).object();
            QVERIFY2(trailer.value(QLatin1String("end")).toBool(), qPrintable(file.filePath()));
            orphanMessages += trailer.value(QLatin1String("messages")).toInteger();
        }
        QVERIFY2(orphanMessages >= 1, qPrintable(orphanBackups.entryList().join(u' ')));

        // The server agrees: the clients it refused connect again, the orphans are gone and tracker-1 kept its durable.
        const MqttResult overlapDevice = mqttOf(server, kOverlap).connectOnce(QStringLiteral("overlap-device"));
        QVERIFY2(overlapDevice.connected(), qPrintable(overlapDevice.describe()));
        const MqttResult nosessDevice = mqttOf(server, kNoSess).connectOnce(QStringLiteral("nosess-device"));
        QVERIFY2(nosessDevice.connected(), qPrintable(nosessDevice.describe()));
        const MqttResult meter2 = mqttOf(server, kGarbage).connectOnce(QStringLiteral("meter-2"), false);
        QVERIFY2(meter2.connected(), qPrintable(meter2.describe()));
        QVERIFY(durablesOf(orphanAdmin, QStringLiteral("tracker-2")).isEmpty());
        QCOMPARE(durablesOf(orphanAdmin, QStringLiteral("tracker-1")), keptDurables);

        // Only what the demo does not seed as repairable is left: NOJS has no JetStream.
        const CliRunner::Run end = check(connection, {QStringLiteral("--all-accounts")});
        QVERIFY2(end.jsonValid, qPrintable(describe(end)));
        QStringList left;
        for (const QJsonObject &f : stateFindings(end))
            left << str(f, "account") + QLatin1Char(' ') + str(f, "code");
        QCOMPARE(left, QStringList{QStringLiteral("NOJS JETSTREAM_DISABLED")});
    }

private:
    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestDemoScenario)
#include "tst_demoscenario.moc"
