// The repair wizard against a real nats-server 2.10 (tests/support fixture) with MQTT sessions made
// by mosquitto: one session's record is purged so its durables on $MQTT_msgs become ORPHAN_CONSUMER
// findings. The wizard checks the account, plans delete_consumer steps (destructive, backed up),
// keeps the Repair button disabled until the account name is typed exactly, runs the plan on the
// pool, and its re-check shows the findings fixed; the server agrees, the other session's durables
// are intact and the audit log has the steps. A read-only profile sees the same findings and plan
// but cannot repair, and ActionManager disables "Repair…" with the reason. Screenshots go to
// docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else to a temporary folder.
#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QPushButton>
#include <QTextBrowser>

#include "actions/actionmanager.h"
#include "controllers/clustercontroller.h"
#include "dialogs/repairwizard.h"
#include "mqtt/clientidhash.h"
#include "mqttclient.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"
#include "natsserverfixture.h"
#include "repair/auditlog.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using MqttDoctor::Test::WindowSteps::saveScreenshot;
using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kCheckTimeoutMs = 30000;
constexpr int kRunTimeoutMs = 90000;

int countCode(const QList<Finding> &findings, const QString &code)
{
    return int(std::count_if(findings.cbegin(), findings.cend(), [&](const Finding &f) { return f.code == code; }));
}

QString describe(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.code + u' ' + f.title;
    return out.join(u"; "_s);
}

} // namespace

class TestRepairWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void actionsFollowTheProfile();
    void readOnlyProfileCannotRepair();
    void repairsOrphanConsumersEndToEnd();
    void secondRoundAfterDeletedSessions();

private:
    Profile profile(bool allowChanges) const;
    QStringList durables(const QString &hash);
    void connectController(ClusterController &controller, bool allowChanges);
    /** forDocs: into docs/screenshots when MQTTDOCTOR_WRITE_SCREENSHOTS=1; else always the temporary folder. */

    NatsServerFixture m_server;
    std::shared_ptr<NatsConnection> m_admin;
    QString m_orphanHash;
    QString m_keeperHash;
    QTemporaryDir m_shots;
};

void TestRepairWizard::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true); // the audit log and backups go to a test location
    const QString missing = MqttClient::missingTools();
    if (!missing.isEmpty())
        QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
    QVERIFY2(m_server.start(u"2.10"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));

    // Two persistent sessions with QoS 1 subscriptions: each gets durables on $MQTT_msgs.
    MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
    mqtt.setTimeoutMs(30000);
    for (const QString &id : {u"keeper-1"_s, u"orphan-3"_s}) {
        const MqttResult r = mqtt.createPersistentSession(id, {u"site/%1/#"_s.arg(id)}, 1);
        QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
    }
    m_keeperHash = ClientIdHash::hash(u"keeper-1"_s);
    m_orphanHash = ClientIdHash::hash(u"orphan-3"_s);

    // Break one: purge its session record, so nothing references its durables any more.
    ConnectionSettings settings;
    settings.servers = {m_server.url()};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = u"acme"_s;
    settings.credentials.password = u"acmepass"_s;
    settings.role = u"test admin"_s;
    auto admin = NatsConnection::connect(settings);
    QVERIFY2(admin, qPrintable(admin ? QString() : admin.error().toString()));
    m_admin = *admin;
    QVERIFY(!durables(m_keeperHash).isEmpty());
    QVERIFY(!durables(m_orphanHash).isEmpty());
    auto purged =
        JetStreamClient(m_admin).call(u"STREAM.PURGE.$MQTT_sess"_s, QJsonObject{{u"filter"_s, QString(u"$MQTT.sess."_s + m_orphanHash)}});
    QVERIFY2(purged, qPrintable(purged ? QString() : purged.error().toString()));
}

Profile TestRepairWizard::profile(bool allowChanges) const
{
    Profile p;
    p.name = u"repair-wizard-test"_s;
    p.servers = {m_server.url()};
    p.auth.kind = Credentials::Kind::UserPassword;
    p.auth.user = u"acme"_s;
    p.auth.password = u"acmepass"_s;
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = u"sys"_s;
    p.system.password = u"syspass"_s;
    p.allowChanges = allowChanges;
    return p;
}

QStringList TestRepairWizard::durables(const QString &hash)
{
    QStringList out;
    auto list = JetStreamClient(m_admin).consumerList(u"$MQTT_msgs"_s);
    if (!list)
        return {u"<error: %1>"_s.arg(list.error().toString())};
    for (const QJsonObject &c : *list)
        if (const QString name = c.value("name"_L1).toString(); name.startsWith(hash + u'_'))
            out << name;
    out.sort();
    return out;
}

void TestRepairWizard::connectController(ClusterController &controller, bool allowChanges)
{
    controller.connectTo(profile(allowChanges));
    QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), kCheckTimeoutMs);
    QCOMPARE(controller.connectionState(), ClusterController::ConnectionState::Connected);
}

void TestRepairWizard::actionsFollowTheProfile()
{
    ClusterController controller;
    ActionManager actions(controller);
    QVERIFY(!actions.repairAction()->isEnabled());
    QVERIFY(actions.explainAction()->isEnabled());
    QVERIFY(!actions.repairAction()->shortcut().isEmpty());
    QVERIFY(!actions.explainAction()->shortcut().isEmpty());

    connectController(controller, false);
    QVERIFY(!actions.repairAction()->isEnabled());
    QVERIFY2(actions.repairAction()->toolTip().contains(u"Read-only"_s), qPrintable(actions.repairAction()->toolTip()));

    connectController(controller, true);
    QTRY_VERIFY(actions.repairAction()->isEnabled());
    QVERIFY(!actions.repairAction()->toolTip().contains(u"Read-only"_s));

    controller.disconnectFromCluster();
    QVERIFY(!actions.repairAction()->isEnabled());
}

void TestRepairWizard::readOnlyProfileCannotRepair()
{
    ClusterController controller;
    connectController(controller, false);
    const QStringList before = durables(m_orphanHash);

    RepairWizard wizard(controller, u"ACME"_s);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard.isChecking(), kCheckTimeoutMs);
    QVERIFY2(!wizard.checkError(), qPrintable(wizard.checkError() ? wizard.checkError()->toString() : QString()));
    QVERIFY2(countCode(wizard.findings(), u"ORPHAN_CONSUMER"_s) >= 1, qPrintable(describe(wizard.findings())));

    // The reason is shown on the findings page and again on the confirm page.
    // It says that changes are off and how to turn them on, in the GUI's terms and the CLI's.
    QVERIFY2(wizard.blockedReason().contains(u"read-only"_s) && wizard.blockedReason().contains(u"\"Allow changes\""_s)
                 && wizard.blockedReason().contains(u"--allow-changes"_s),
             qPrintable(wizard.blockedReason()));
    auto *notice = wizard.findChild<QLabel *>(u"readOnlyNotice"_s);
    QVERIFY(notice && notice->isVisible());

    wizard.selectCodes({u"ORPHAN_CONSUMER"_s});
    QVERIFY(wizard.button(QWizard::NextButton)->isEnabled()); // looking at the plan is harmless
    wizard.next();
    QCOMPARE(wizard.currentId(), int(RepairWizard::PlanPageId));
    QVERIFY(!wizard.plan().steps.isEmpty());
    wizard.next();
    QCOMPARE(wizard.currentId(), int(RepairWizard::ConfirmPageId));
    wizard.findChild<QLineEdit *>(u"confirmEdit"_s)->setText(u"ACME"_s);
    QVERIFY(!wizard.button(QWizard::CommitButton)->isEnabled());
    QVERIFY(wizard.findChild<QLabel *>(u"blockedNotice"_s)->isVisible());
    wizard.next(); // the page refuses to commit
    QCOMPARE(wizard.currentId(), int(RepairWizard::ConfirmPageId));
    QVERIFY(!wizard.isRunning() && !wizard.hasRun());
    QCOMPARE(durables(m_orphanHash), before);
}

void TestRepairWizard::repairsOrphanConsumersEndToEnd()
{
    ClusterController controller;
    connectController(controller, true);
    const QStringList keeper = durables(m_keeperHash);
    const QStringList orphans = durables(m_orphanHash);
    QVERIFY(!orphans.isEmpty());
    QFile audit(AuditLog::defaultPath());
    const qint64 auditBefore = audit.exists() ? audit.size() : 0;
    QTemporaryDir backups;

    RepairWizard wizard(controller, u"ACME"_s);
    QSignalSpy finished(&wizard, &RepairWizard::repairFinished);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard.isChecking(), kCheckTimeoutMs);
    QVERIFY2(!wizard.checkError(), qPrintable(wizard.checkError() ? wizard.checkError()->toString() : QString()));
    QVERIFY2(wizard.blockedReason().isEmpty(), qPrintable(wizard.blockedReason()));
    QCOMPARE(countCode(wizard.findings(), u"ORPHAN_CONSUMER"_s), int(orphans.size()));

    // Nothing ticked: no plan to see.
    wizard.selectCodes({});
    QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
    wizard.selectCodes({u"ORPHAN_CONSUMER"_s});
    QCOMPARE(wizard.selectedFindings().size(), orphans.size());
    QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());

    // The plan: one backed-up delete_consumer per orphan durable, with its exact request.
    wizard.next();
    QCOMPARE(wizard.currentId(), int(RepairWizard::PlanPageId));
    const RepairPlan &plan = wizard.plan();
    QCOMPARE(plan.steps.size(), orphans.size());
    for (const RepairStep &s : plan.steps) {
        QCOMPARE(s.action, u"delete_consumer"_s);
        QVERIFY(s.destructive);
        QVERIFY(orphans.contains(s.consumer));
        QVERIFY(!s.backups.isEmpty());
        QVERIFY(!s.requests.isEmpty());
    }
    const QString planText = wizard.findChild<QTextBrowser *>(u"planView"_s)->toPlainText();
    QVERIFY2(planText.contains(u"$JS.API.CONSUMER.DELETE.$MQTT_msgs."_s + orphans.first()), qPrintable(planText));
    QVERIFY(planText.contains(u"destructive"_s));
    QVERIFY(!saveScreenshot(wizard, m_shots.path(), u"repair-wizard.png"_s).isEmpty());

    // Typed confirmation: only the exact account name enables Repair.
    wizard.next();
    QCOMPARE(wizard.currentId(), int(RepairWizard::ConfirmPageId));
    wizard.setBackupDir(backups.path());
    auto *confirm = wizard.findChild<QLineEdit *>(u"confirmEdit"_s);
    QVERIFY(confirm && confirm->isVisible());
    QAbstractButton *repair = wizard.button(QWizard::CommitButton);
    QVERIFY(!repair->isEnabled());
    for (const QString &wrong : {u"acme"_s, u"ACM"_s, u"ACME "_s}) {
        confirm->setText(wrong);
        QVERIFY2(!repair->isEnabled(), qPrintable(wrong));
    }
    confirm->clear();
    QTest::keyClicks(confirm, u"ACME"_s);
    QVERIFY(repair->isEnabled());
    QTest::mouseClick(repair, Qt::LeftButton);

    QCOMPARE(wizard.currentId(), int(RepairWizard::RunPageId));
    QTRY_VERIFY_WITH_TIMEOUT(wizard.hasRun() && !wizard.isRunning(), kRunTimeoutMs);
    QCOMPARE(finished.size(), 1);
    const RepairExecutor::Report &report = *wizard.report();
    QVERIFY2(report.complete, qPrintable(report.stoppedBecause));
    for (const StepOutcome &o : report.outcomes)
        QCOMPARE(o.state, StepOutcome::State::Applied);
    QCOMPARE(report.backups.size(), orphans.size());
    for (const QString &file : report.backups) {
        QVERIFY2(file.startsWith(backups.path()), qPrintable(file));
        QVERIFY2(QFile::exists(file), qPrintable(file));
    }

    // Verification: the wizard's re-check has them fixed, and the server agrees.
    QCOMPARE(countCode(wizard.fixedFindings(), u"ORPHAN_CONSUMER"_s), int(orphans.size()));
    QVERIFY2(countCode(wizard.remainingFindings(), u"ORPHAN_CONSUMER"_s) == 0, qPrintable(describe(wizard.remainingFindings())));
    const QString result = wizard.findChild<QTextBrowser *>(u"resultView"_s)->toPlainText();
    QVERIFY2(result.contains(u"Repair complete."_s) && result.contains(u"Fixed:"_s), qPrintable(result));
    QVERIFY(wizard.button(QWizard::FinishButton)->isEnabled());
    QVERIFY(!saveScreenshot(wizard, m_shots.path(), u"repair-wizard-result.png"_s, false).isEmpty());
    QCOMPARE(durables(m_orphanHash), QStringList());
    QCOMPARE(durables(m_keeperHash), keeper);

    // Every step is in the audit log (the executor writes it).
    QVERIFY(audit.open(QIODevice::ReadOnly));
    audit.seek(auditBefore);
    const QByteArray entries = audit.readAll();
    for (const QString &name : orphans)
        QVERIFY2(entries.contains(name.toUtf8()), qPrintable(name));
    QVERIFY(!entries.contains("acmepass") && !entries.contains("syspass"));
}

// $MQTT_sess deleted while keeper-1's session exists: round 1 recreates it; the check after it finds
// keeper-1's durables without a record, and the run page offers round 2, which goes through the plan and
// the typed confirmation again and leaves the account clean.
void TestRepairWizard::secondRoundAfterDeletedSessions()
{
    // keeper-1's durables, and orphan-3's when this runs alone (the test before removes them): without
    // $MQTT_sess no check can tell whose they are, so all of them appear after round 1.
    const QStringList keeper = durables(m_keeperHash) + durables(m_orphanHash);
    QVERIFY(!keeper.isEmpty());
    auto deleted = JetStreamClient(m_admin).call(u"STREAM.DELETE.$MQTT_sess"_s, QJsonObject());
    QVERIFY2(deleted, qPrintable(deleted ? QString() : deleted.error().toString()));
    ClusterController controller;
    connectController(controller, true);
    QTemporaryDir backups;

    RepairWizard wizard(controller, u"ACME"_s);
    QSignalSpy finished(&wizard, &RepairWizard::repairFinished);
    wizard.show();
    QVERIFY(QTest::qWaitForWindowExposed(&wizard));
    QTRY_VERIFY_WITH_TIMEOUT(!wizard.isChecking(), kCheckTimeoutMs);
    QVERIFY2(countCode(wizard.findings(), u"STREAM_MISSING"_s) == 1, qPrintable(describe(wizard.findings())));
    wizard.selectCodes({u"STREAM_MISSING"_s});
    wizard.next();
    QCOMPARE(wizard.round(), 1);
    QCOMPARE(wizard.plan().steps.size(), 1);
    QCOMPARE(wizard.plan().steps.first().action, u"create_stream"_s);
    wizard.next();
    wizard.setBackupDir(backups.path());
    QAbstractButton *repair = wizard.button(QWizard::CommitButton);
    QVERIFY(repair->isEnabled()); // nothing destructive: no typed name
    QTest::mouseClick(repair, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(wizard.hasRun() && !wizard.isRunning(), kRunTimeoutMs);
    QCOMPARE(finished.size(), 1);

    // The run page offers the round the check after round 1 planned.
    QVERIFY2(wizard.hasNextRound(), qPrintable(wizard.stopText()));
    auto *next = wizard.findChild<QPushButton *>(u"nextRoundButton"_s);
    QVERIFY(next && next->isVisible());
    QVERIFY2(wizard.findChild<QTextBrowser *>(u"resultView"_s)->toPlainText().contains(u"Round 2 is planned"_s),
             qPrintable(wizard.findChild<QTextBrowser *>(u"resultView"_s)->toPlainText()));
    QTest::mouseClick(next, Qt::LeftButton);
    QCOMPARE(wizard.currentId(), int(RepairWizard::PlanPageId));
    QCOMPARE(wizard.round(), 2);
    QCOMPARE(int(wizard.plan().steps.size()), int(keeper.size()));
    for (const RepairStep &s : wizard.plan().steps) {
        QCOMPARE(s.action, u"delete_consumer"_s);
        QVERIFY(keeper.contains(s.consumer));
        QCOMPARE(s.id.toInt() > 1, true); // step ids run on across the rounds
    }
    QVERIFY(wizard.findChild<QLabel *>(u"planSummary"_s)->text().contains(u"Round 2"_s));
    QVERIFY(!saveScreenshot(wizard, m_shots.path(), u"repair-wizard-round2.png"_s).isEmpty());
    wizard.next();
    QCOMPARE(wizard.currentId(), int(RepairWizard::ConfirmPageId));
    QVERIFY(!repair->isEnabled()); // destructive: the account name again
    QTest::keyClicks(wizard.findChild<QLineEdit *>(u"confirmEdit"_s), u"ACME"_s);
    QVERIFY(repair->isEnabled());
    QTest::mouseClick(repair, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(wizard.hasRun() && !wizard.isRunning(), kRunTimeoutMs);
    QCOMPARE(finished.size(), 2);
    QVERIFY2(!wizard.hasNextRound(), "no third round");
    QVERIFY2(wizard.report()->complete, qPrintable(wizard.report()->stoppedBecause));
    QVERIFY2(countCode(wizard.remainingFindings(), u"ORPHAN_CONSUMER"_s) == 0
                 && countCode(wizard.remainingFindings(), u"STREAM_MISSING"_s) == 0,
             qPrintable(describe(wizard.remainingFindings())));
    QVERIFY(countCode(wizard.fixedFindings(), u"STREAM_MISSING"_s) == 1);
    QCOMPARE(durables(m_keeperHash) + durables(m_orphanHash), QStringList());
    const QString result = wizard.findChild<QTextBrowser *>(u"resultView"_s)->toPlainText();
    QVERIFY2(result.contains(u"Repair complete: 2 rounds."_s), qPrintable(result));
    QVERIFY(!next->isVisible());
}

QTEST_MAIN(TestRepairWizard)
#include "tst_repairwizard.moc"
