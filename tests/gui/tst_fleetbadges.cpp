// The fleet at a glance (the tree's badges): on the demo's accounts, with a profile that holds every
// account's credentials, the badges of GARBAGE (an undecodable session record: critical) and ORPHAN
// (durables without a record: warning) end as what their records say, without selecting them: the
// record checks run in the background. Until then an account's badge is a ring ("streams only"); an
// account whose credentials the profile lacks ends crossed out ("could not check"), never as a
// healthy dot. The cluster overview lists both, and charts the accounts' session records and retained
// messages as the system view's stream infos count them (a bar opens its account); findings selected in
// its list are repaired across accounts. Real nats-server, real MQTT clients (the demo's scenario).
#include <QAbstractButton>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include "controllers/clustercontroller.h"
#include "controllers/recordsweep.h"
#include "dialogs/repairwizard.h"
#include "demoscenario.h"
#include "mainwindow.h"
#include "models/clusterfindingsmodel.h"
#include "panels/clusteroverviewpanel.h"
#include "panels/clustertreepanel.h"
#include "panels/detailpanel.h"
#include "widgets/accountrecordschart.h"
#include "widgets/severitybars.h"
#include "models/clustertreemodel.h"
#include "natsserverfixture.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Demo;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::StringLiterals;

using Health = HealthBadge::Health;
using Coverage = HealthBadge::Coverage;
using RecordCounts = AccountRecordRanking::Entry;

class TestFleetBadges : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(m_server.start(u"newest"_s, DemoScenario::serverConfig()), qPrintable(m_server.errorString()));
        QVERIFY2(m_scenario.populate(m_server, [] { return false; }), qPrintable(m_scenario.errorString()));
    }

    void badgesConvergeWithoutClicks()
    {
        auto profile = Profile::fromJson(DemoScenario::profile(m_server.url()));
        QVERIFY2(profile, qPrintable(profile ? QString() : profile.error().toString()));
        ClusterController controller;
        MainWindow window(controller);
        window.resize(1400, 860);
        window.show();
        QSignalSpy sweepDone(window.recordSweep(), &RecordSweep::finished);
        controller.connectTo(*profile);
        ClusterTreeModel &tree = *window.treeModel();
        QTRY_VERIFY_WITH_TIMEOUT(tree.accountIndex(u"GARBAGE"_s).isValid(), kLoadTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(sweepDone.count() == 1, 60000);

        const auto health = [&tree](const QString &a) { return tree.accountIndex(a).data(ClusterTreeModel::HealthRole).value<Health>(); };
        const auto coverage = [&tree](const QString &a) {
            return tree.accountIndex(a).data(ClusterTreeModel::CoverageRole).value<Coverage>();
        };
        // Nothing was selected: the records were read in the background.
        QCOMPARE(health(u"GARBAGE"_s), Health::Critical);
        QCOMPARE(coverage(u"GARBAGE"_s), Coverage::Full);
        QCOMPARE(health(u"ORPHAN"_s), Health::Warning);
        QCOMPARE(coverage(u"ORPHAN"_s), Coverage::Full);
        QCOMPARE(health(u"ACME"_s), Health::Ok);
        QCOMPARE(coverage(u"ACME"_s), Coverage::Full);
        // No records to read: the stream-level badge is the whole truth.
        QCOMPARE(health(u"NOSESS"_s), Health::Critical);
        QCOMPARE(coverage(u"NOSESS"_s), Coverage::Full);
        QVERIFY2(tree.accountIndex(u"GARBAGE"_s).data(Qt::ToolTipRole).toString().contains(u"session records"_s),
                 qPrintable(tree.accountIndex(u"GARBAGE"_s).data(Qt::ToolTipRole).toString()));
        QVERIFY(!window.findChild<QLabel *>(u"recordSweepLabel"_s)->isVisible());

        // The cluster itself: what is wrong and where, every finding in one list.
        window.treePanel()->setCurrentSourceIndex(tree.profileIndex());
        ClusterOverviewPanel &overview = *window.detailPanel()->clusterPanel();
        QTRY_COMPARE(window.detailPanel()->currentWidget(), &overview);
        // (It follows the background checks within half a second.)
        QTRY_VERIFY2(overview.summaryText().contains(u"GARBAGE"_s) && overview.summaryText().contains(u"ORPHAN"_s),
                     qPrintable(overview.summaryText()));
        QVERIFY2(overview.summaryText().indexOf(u"GARBAGE"_s) < overview.summaryText().indexOf(u"ORPHAN"_s),
                 qPrintable(overview.summaryText()));
        QVERIFY2(overview.serversText().contains(u"MQTT 127.0.0.1:%1"_s.arg(m_server.mqttPort())), qPrintable(overview.serversText()));
        QCOMPARE(overview.bars()->count(Finding::Severity::Critical), 3); // GARBAGE, NOSESS, OVERLAP
        QCOMPARE(overview.bars()->count(Finding::Severity::Warning), 2); // ORPHAN's two durables
        // Session records and retained messages per account, as the system view's stream infos count them:
        // ACME's three persistent sessions and three retained topics, BETA's two and one, GARBAGE's two
        // records (one of them the undecodable one), ORPHAN's one left after the purge, NOSESS's retained
        // message without a $MQTT_sess; BETA before GARBAGE (equal records) by its retained message.
        // OVERLAP has no MQTT streams, NOJS no JetStream.
        const AccountRecordRanking &records = overview.recordsChart()->ranking();
        QCOMPARE(
            records.top(),
            (QList<RecordCounts>{{u"ACME"_s, 3, 3}, {u"BETA"_s, 2, 1}, {u"GARBAGE"_s, 2, 0}, {u"ORPHAN"_s, 1, 0}, {u"NOSESS"_s, 0, 1}}));
        QCOMPARE(records.moreAccounts(), 0);
        QCOMPARE(records.unknownAccounts(), 0);
        QCOMPARE(records.totalSessions(), 8);
        QCOMPARE(records.totalRetained(), 5);
        QVERIFY(records.wholeCluster());
        QVERIFY2(overview.recordsChart()->accessibleDescription().contains(u"ACME: 3 session records, 3 retained messages"_s),
                 qPrintable(overview.recordsChart()->accessibleDescription()));
        QStringList codes;
        for (int row = 0; row < overview.model()->rowCount(); ++row)
            codes << overview.model()->index(row, ClusterFindingsModel::CodeColumn).data().toString();
        QVERIFY2(codes.contains(u"SESSION_UNDECODABLE"_s) && codes.contains(u"ORPHAN_CONSUMER"_s) && codes.contains(u"SUBJECTS_OVERLAP"_s),
                 qPrintable(codes.join(u' ')));
        overview.filterEdit()->setText(u"orphan"_s);
        QTRY_COMPARE(overview.proxy()->rowCount(), 2);
        QVERIFY(!saveScreenshot(window, m_shots.path(), u"cluster-overview.png"_s).isEmpty());
        // A row opens its account.
        QSignalSpy activated(&overview, &ClusterOverviewPanel::accountActivated);
        QTableView *table = overview.findChild<QTableView *>(u"clusterFindings"_s);
        QVERIFY(table);
        const QModelIndex first = overview.proxy()->index(0, 0);
        emit table->doubleClicked(first);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().first().toString(), u"ORPHAN"_s);
        QTRY_COMPARE(window.treePanel()->currentSourceIndex(), tree.accountIndex(u"ORPHAN"_s));
        overview.filterEdit()->clear();
        window.treePanel()->setCurrentSourceIndex(tree.profileIndex());
        QTRY_COMPARE(window.detailPanel()->currentWidget(), &overview);
        QVERIFY(!saveScreenshot(window, m_shots.path(), u"fleet-badges.png"_s).isEmpty());
        // A bar opens its account; the retained header ranks by retained messages.
        AccountRecordsChart &chart = *overview.recordsChart();
        QTest::mouseClick(&chart, Qt::LeftButton, {}, chart.rowRect(1).center());
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.last().first().toString(), u"BETA"_s);
        QTRY_COMPARE(window.treePanel()->currentSourceIndex(), tree.accountIndex(u"BETA"_s));
        window.treePanel()->setCurrentSourceIndex(tree.profileIndex());
        QTRY_COMPARE(window.detailPanel()->currentWidget(), &overview);
        const QRect header = chart.rowRect(-1);
        QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(header.right() - 4, header.center().y()));
        QCOMPARE(chart.ranking().key(), AccountRecordRanking::Key::Retained);
        QStringList byRetained;
        for (const RecordCounts &e : chart.ranking().top())
            byRetained << e.account;
        QCOMPARE(byRetained, (QStringList{u"ACME"_s, u"BETA"_s, u"NOSESS"_s, u"GARBAGE"_s, u"ORPHAN"_s}));
    }

    // The system user alone: every account with session records ends "could not check", not healthy.
    void withoutAccountCredentialsBadgesSaySo()
    {
        Profile profile = standardProfile(m_server.url(), false, u"system-only"_s);
        ClusterController controller;
        MainWindow window(controller);
        window.show();
        QSignalSpy sweepDone(window.recordSweep(), &RecordSweep::finished);
        controller.connectTo(profile);
        ClusterTreeModel &tree = *window.treeModel();
        QTRY_VERIFY_WITH_TIMEOUT(sweepDone.count() == 1, kLoadTimeoutMs);
        for (const QString &account : {u"GARBAGE"_s, u"ORPHAN"_s, u"ACME"_s}) {
            const QModelIndex index = tree.accountIndex(account);
            QCOMPARE(index.data(ClusterTreeModel::CoverageRole).value<Coverage>(), Coverage::CouldNotCheck);
            QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(u"no credentials"_s),
                     qPrintable(index.data(Qt::ToolTipRole).toString()));
        }
        // The overview's counts come from the system view's stream infos: no account credentials needed.
        window.treePanel()->setCurrentSourceIndex(tree.profileIndex());
        ClusterOverviewPanel &overview = *window.detailPanel()->clusterPanel();
        QTRY_COMPARE(window.detailPanel()->currentWidget(), &overview);
        const AccountRecordRanking &records = overview.recordsChart()->ranking();
        QCOMPARE(records.top().value(0), (RecordCounts{u"ACME"_s, 3, 3}));
        QCOMPARE(records.top().size(), 5);
        QCOMPARE(records.unknownAccounts(), 0);
        QVERIFY(records.wholeCluster());
        // A read-only connection: "Repair These…" stays off and says how to turn changes on.
        overview.findingsView()->selectAll();
        QVERIFY(!overview.repairButton()->isEnabled());
        QVERIFY2(overview.repairButton()->toolTip().contains(u"\"Allow changes\""_s), qPrintable(overview.repairButton()->toolTip()));
    }

    // Every finding in one list, repaired across accounts: GARBAGE's undecodable record and ORPHAN's
    // durables selected in the overview, "Repair These…" checks both accounts afresh with those findings
    // ticked, plans them together, asks for both names typed, and leaves both clean. Changes the demo's
    // state: the last test.
    void repairTheseAcrossAccounts()
    {
        auto profile = Profile::fromJson(DemoScenario::profile(m_server.url()));
        QVERIFY2(profile && profile->allowChanges, "the demo profile allows changes");
        ClusterController controller;
        MainWindow window(controller);
        window.resize(1400, 860);
        window.show();
        QSignalSpy sweepDone(window.recordSweep(), &RecordSweep::finished);
        controller.connectTo(*profile);
        ClusterTreeModel &tree = *window.treeModel();
        QTRY_VERIFY_WITH_TIMEOUT(sweepDone.count() == 1, 60000);
        window.treePanel()->setCurrentSourceIndex(tree.profileIndex());
        ClusterOverviewPanel &overview = *window.detailPanel()->clusterPanel();
        QTRY_COMPARE(window.detailPanel()->currentWidget(), &overview);
        QTRY_VERIFY(overview.summaryText().contains(u"ORPHAN"_s));

        QVERIFY(!overview.repairButton()->isEnabled()); // nothing selected yet
        QItemSelectionModel *selection = overview.findingsView()->selectionModel();
        int picked = 0;
        for (int row = 0; row < overview.proxy()->rowCount(); ++row) {
            const QString code = overview.proxy()->index(row, ClusterFindingsModel::CodeColumn).data().toString();
            if (code == u"SESSION_UNDECODABLE"_s || code == u"ORPHAN_CONSUMER"_s) {
                selection->select(overview.proxy()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
                ++picked;
            }
        }
        QCOMPARE(picked, 3);
        QVERIFY(overview.repairButton()->isEnabled());
        QVERIFY2(overview.repairButton()->toolTip().contains(u"GARBAGE, ORPHAN"_s), qPrintable(overview.repairButton()->toolTip()));
        QTest::mouseClick(overview.repairButton(), Qt::LeftButton);

        RepairWizard *wizard = window.findChild<RepairWizard *>();
        QVERIFY(wizard);
        QCOMPARE(wizard->accounts(), (QStringList{u"GARBAGE"_s, u"ORPHAN"_s}));
        QTRY_VERIFY_WITH_TIMEOUT(!wizard->isChecking(), kLoadTimeoutMs);
        QVERIFY2(!wizard->checkError() && wizard->partialCheckErrors().isEmpty(), qPrintable(wizard->partialCheckErrors().join(u'\n')));
        QStringList ticked;
        for (const Finding &f : wizard->selectedFindings())
            ticked << f.account + u' ' + f.code;
        ticked.sort();
        QCOMPARE(ticked, (QStringList{u"GARBAGE SESSION_UNDECODABLE"_s, u"ORPHAN ORPHAN_CONSUMER"_s, u"ORPHAN ORPHAN_CONSUMER"_s}));

        wizard->next();
        QCOMPARE(wizard->currentId(), int(RepairWizard::PlanPageId));
        QCOMPARE(wizard->plans().size(), 2);
        QCOMPARE(wizard->plans().at(0).account, u"GARBAGE"_s);
        QCOMPARE(wizard->plans().at(1).account, u"ORPHAN"_s);
        const QString planText = wizard->findChild<QTextBrowser *>(u"planView"_s)->toPlainText();
        QVERIFY2(planText.contains(u"Account GARBAGE"_s) && planText.contains(u"Account ORPHAN"_s), qPrintable(planText.left(400)));
        QVERIFY(!saveScreenshot(*wizard, m_shots.path(), u"repair-across-accounts.png"_s).isEmpty());
        wizard->next();
        QCOMPARE(wizard->currentId(), int(RepairWizard::ConfirmPageId));
        QCOMPARE(wizard->destructiveAccounts(), (QStringList{u"GARBAGE"_s, u"ORPHAN"_s}));
        QTemporaryDir backups;
        wizard->setBackupDir(backups.path());
        auto *confirm = wizard->findChild<QLineEdit *>(u"confirmEdit"_s);
        QAbstractButton *repair = wizard->button(QWizard::CommitButton);
        for (const QString &wrong : {u"GARBAGE"_s, u"ORPHAN"_s, u"GARBAGE ORPHAN ORPHAN"_s, u"garbage orphan"_s}) {
            confirm->setText(wrong);
            QVERIFY2(!repair->isEnabled(), qPrintable(wrong));
        }
        confirm->setText(u"ORPHAN GARBAGE"_s); // each name once, in any order
        QVERIFY(repair->isEnabled());
        QTest::mouseClick(repair, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(wizard->hasRun() && !wizard->isRunning(), 90000);
        QVERIFY2(wizard->report()->complete, qPrintable(wizard->report()->stoppedBecause));
        QStringList left;
        for (const Finding &f : wizard->remainingFindings())
            if (f.code == u"SESSION_UNDECODABLE"_s || f.code == u"ORPHAN_CONSUMER"_s)
                left << f.account + u' ' + f.code;
        QVERIFY2(left.isEmpty(), qPrintable(left.join(u", "_s)));
        QCOMPARE(wizard->fixedFindings().size(), 3);
        QVERIFY(!saveScreenshot(*wizard, m_shots.path(), u"repair-across-accounts-result.png"_s, false).isEmpty());
        wizard->accept();
    }

private:
    NatsServerFixture m_server;
    DemoScenario m_scenario;
    QTemporaryDir m_shots;
};

QTEST_MAIN(TestFleetBadges)
#include "tst_fleetbadges.moc"
