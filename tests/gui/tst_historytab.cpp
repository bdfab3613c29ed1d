// The local history in the main window, against a real nats-server (newest) with persistent MQTT sessions made by
// mosquitto: every refresh of an account is written into the history (MQTTDOCTOR_HISTORY_DIR, on the history's
// worker); after a break between two refreshes (one session's durable consumer of $MQTT_msgs deleted) the History
// tab lists the finding with its first and last seen, "What changed" says when it opened and its charts have one
// point per recorded check (the finding's severity rising after the break, zoom and reset); a history folder that
// cannot be created leaves the refresh working and says "History not recorded: …" in the status bar.
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "controllers/accountdatacontroller.h"
#include "controllers/clustercontroller.h"
#include "controllers/historycontroller.h"
#include "mainwindow.h"
#include "operatortestserver.h"
#include "panels/accountworkspace.h"
#include "panels/findingspanel.h"
#include "panels/historypanel.h"
#include "widgets/historycharts.h"
#include "widgets/errorbanner.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

class TestHistoryTab : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void refreshesAreRecordedAndShown();
    void unwritableFolderLeavesTheRefreshWorking();

private:
    /** Refreshes the open account and waits until its check was written (`recorded` more than before). */
    static bool refreshRecorded(MainWindow &window, int recordedBefore);

    OperatorTestServer m_server;
};

void TestHistoryTab::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_server.start(u"history1"_s), qPrintable(m_server.errorString()));
    QCOMPARE(m_server.makeSessions({u"hist-1"_s, u"hist-2"_s}), QString());
}

void TestHistoryTab::cleanup()
{
    qunsetenv("MQTTDOCTOR_HISTORY_DIR");
}

bool TestHistoryTab::refreshRecorded(MainWindow &window, int recordedBefore)
{
    if (!QTest::qWaitFor([&] { return !window.isRefreshing(); }, kLoadTimeoutMs))
        return false;
    window.refreshAll();
    return QTest::qWaitFor([&] { return window.history()->recordedCount() > recordedBefore && !window.isRefreshing(); }, kLoadTimeoutMs);
}

void TestHistoryTab::refreshesAreRecordedAndShown()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath(u"history"_s);
    qputenv("MQTTDOCTOR_HISTORY_DIR", folder.toUtf8());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(false)));
    // Opening the account read it: the baseline check.
    QTRY_VERIFY_WITH_TIMEOUT(window.history()->recordedCount() >= 1, kLoadTimeoutMs);
    QVERIFY(window.historyStatusLabel()->isHidden());
    QVERIFY2(QDir(folder).entryList({u"*.sqlite"_s}, QDir::Files).size() == 1, qPrintable(QDir(folder).entryList().join(u' ')));

    // The break: hist-1's durables of $MQTT_msgs are deleted while its session record stays.
    const QStringList durables = m_server.durablesOf(u"hist-1"_s);
    QVERIFY2(!durables.isEmpty() && !durables.first().startsWith(u'<'), qPrintable(durables.join(u' ')));
    const QDateTime beforeBreak = QDateTime::currentDateTimeUtc();
    for (const QString &d : durables)
        QVERIFY(bool(m_server.acme().call(u"CONSUMER.DELETE.$MQTT_msgs."_s + d)));
    QTest::qWait(1100); // first and last seen a second apart at least
    QVERIFY(refreshRecorded(window, window.history()->recordedCount()));
    QTest::qWait(1100);
    QVERIFY(refreshRecorded(window, window.history()->recordedCount()));
    QVERIFY(window.history()->recordedCount() >= 3);

    // The History tab of ACME: the window's checks, the finding with its first seen, what changed.
    AccountWorkspace &workspace = *window.workspace();
    HistoryPanel &panel = *window.historyPanel();
    QVERIFY(workspace.isTabVisible(window.historyTabIndex()));
    workspace.setCurrentIndex(window.historyTabIndex());
    QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
    QCOMPARE(panel.account(), u"ACME"_s);
    QVERIFY2(panel.summaryText().contains(u"%1 checks of ACME recorded"_s.arg(window.history()->recordedCount())),
             qPrintable(panel.summaryText()));

    QTableWidget &findings = *panel.findingsTable();
    int hist1 = -1;
    for (int row = 0; row < findings.rowCount(); ++row)
        if (findings.item(row, HistoryPanel::ClientColumn)->text() == u"hist-1"_s)
            hist1 = row;
    QVERIFY2(hist1 >= 0, "hist-1's finding is in the History tab");
    QCOMPARE(findings.item(hist1, HistoryPanel::StateColumn)->text(), u"open"_s);
    QVERIFY(!findings.item(hist1, HistoryPanel::CodeColumn)->text().isEmpty());
    const QString firstSeen = findings.item(hist1, HistoryPanel::FirstSeenColumn)->text();
    const QDateTime first = QDateTime::fromString(firstSeen, u"yyyy-MM-dd HH:mm:ss"_s);
    QVERIFY2(first.isValid() && first.toUTC() >= beforeBreak.addSecs(-2), qPrintable(firstSeen));
    QVERIFY2(findings.item(hist1, HistoryPanel::LastSeenColumn)->text() > firstSeen,
             qPrintable(findings.item(hist1, HistoryPanel::LastSeenColumn)->text()));
    // hist-2 was never broken.
    for (int row = 0; row < findings.rowCount(); ++row)
        QVERIFY(findings.item(row, HistoryPanel::ClientColumn)->text() != u"hist-2"_s);

    QTreeWidget &changes = *panel.changesList();
    bool opened = false;
    QStringList texts;
    for (int i = 0; i < changes.topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = changes.topLevelItem(i);
        texts << item->text(0) + u' ' + item->text(1);
        if (item->data(0, Qt::UserRole).toString() == u"finding_opened"_s && item->text(1).contains(u"hist-1"_s)
            && !item->text(0).isEmpty())
            opened = true;
    }
    QVERIFY2(opened, qPrintable(texts.join(u'\n')));

    // The charts: one point per recorded check of the window in each severity line; the sessions line holds 2 (both
    // sessions' records stayed) from the first check to the last one (the history writes counts when they change
    // and holds the last one to the last check); the severity of hist-1's finding has one more open finding at the
    // last check than at the baseline, which was before the break.
    HistoryCharts &charts = *panel.charts();
    const int recorded = window.history()->recordedCount();
    const Finding::Severity severities[] = {Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning,
                                            Finding::Severity::Info};
    for (Finding::Severity s : severities)
        QCOMPARE(charts.severitySeries(s)->count(), recorded);
    const QList<QPointF> sessions = charts.countSeries(HistoryCharts::Count::Sessions)->points();
    QVERIFY2(sessions.size() >= 2, qPrintable(QString::number(sessions.size())));
    for (const QPointF &p : sessions)
        QCOMPARE(p.y(), 2.0);
    QCOMPARE(sessions.first().x(), charts.severitySeries(Finding::Severity::Info)->at(0).x());
    QCOMPARE(sessions.last().x(), charts.severitySeries(Finding::Severity::Info)->at(recorded - 1).x());
    QVERIFY(!charts.countSeries(HistoryCharts::Count::Retained)->points().isEmpty());
    const QString severityText = findings.item(hist1, HistoryPanel::SeverityColumn)->text();
    const QLineSeries *brokenSeverity = nullptr;
    for (Finding::Severity s : severities)
        if (Finding::severityName(s) == severityText)
            brokenSeverity = charts.severitySeries(s);
    QVERIFY2(brokenSeverity, qPrintable(severityText));
    QCOMPARE(brokenSeverity->name(), severityText);
    const QList<QPointF> points = brokenSeverity->points();
    QVERIFY2(points.last().y() >= points.first().y() + 1, qPrintable(u"%1 then %2"_s.arg(points.first().y()).arg(points.last().y())));
    QVERIFY(points.first().x() < qreal(beforeBreak.toMSecsSinceEpoch()));
    QVERIFY(points.last().x() >= qreal(beforeBreak.toMSecsSinceEpoch()));
    // The x axis spans the 24 hours chosen, in local time, and every point lies in it.
    const QDateTimeAxis &time = *charts.severityTimeAxis();
    QVERIFY(time.min().secsTo(time.max()) >= 24 * 3600 - 60);
    QVERIFY(time.min().toMSecsSinceEpoch() <= points.first().x() && points.last().x() <= time.max().toMSecsSinceEpoch());
    // Zoomed in (what dragging across a chart does), the reset button goes back to the whole window.
    const QDateTime min = time.min(), max = time.max();
    charts.zoomTo(beforeBreak.addSecs(-30), beforeBreak);
    QVERIFY2(time.min() > min && time.max() < max, qPrintable(time.min().toString() + u' ' + time.max().toString()));
    QCOMPARE(time.format(), u"HH:mm:ss"_s);
    charts.resetZoomButton()->click();
    QCOMPARE(time.min(), min);
    QCOMPARE(time.max(), max);
    // A double-click on a chart does the same.
    charts.zoomTo(beforeBreak.addSecs(-30), beforeBreak);
    QVERIFY(time.min() > min);
    QWidget *viewport = charts.countsView()->viewport();
    QTest::mouseDClick(viewport, Qt::LeftButton, {}, viewport->rect().center());
    QCOMPARE(time.min(), min);
    QCOMPARE(time.max(), max);
    QCOMPARE(charts.severityView()->rubberBand(), QChartView::HorizontalRubberBand);

    // Another window is read again (the checks are all within the last hour).
    panel.windowChooser()->setCurrentIndex(0);
    QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
    QVERIFY2(panel.summaryText().contains(u"Last hour"_s), qPrintable(panel.summaryText()));
    panel.windowChooser()->setCurrentIndex(2);
    QTRY_VERIFY_WITH_TIMEOUT(panel.isLoaded(), kLoadTimeoutMs);
    // The screenshot shows the checks' few seconds, zoomed in.
    panel.charts()->zoomTo(beforeBreak.addSecs(-20), QDateTime::currentDateTimeUtc().addSecs(10));
    QVERIFY(!saveScreenshot(workspace, dir.path(), u"history-tab.png"_s).isEmpty());
    QCOMPARE(panel.charts()->severitySeries(Finding::Severity::Info)->count(), recorded);
}

void TestHistoryTab::unwritableFolderLeavesTheRefreshWorking()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile blocker(dir.filePath(u"a-file"_s));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.write("not a folder");
    blocker.close();
    qputenv("MQTTDOCTOR_HISTORY_DIR", dir.filePath(u"a-file/history"_s).toUtf8());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(false)));
    QLabel &status = *window.historyStatusLabel();
    QTRY_VERIFY_WITH_TIMEOUT(status.isVisible(), kLoadTimeoutMs);
    QVERIFY2(status.text().startsWith(u"History not recorded: "_s), qPrintable(status.text()));
    // The refresh itself went on: its findings are in, no error banner, and the next refresh works too.
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->findingsPanel()->isLoaded(), kLoadTimeoutMs);
    QVERIFY(!window.errorBanner()->isVisible());
    const int loads = window.accountData()->snapshotLoads();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRefreshing(), kLoadTimeoutMs);
    window.refreshAll();
    QTRY_VERIFY_WITH_TIMEOUT(window.accountData()->snapshotLoads() > loads && !window.isRefreshing(), kLoadTimeoutMs);
    QVERIFY(window.workspace()->findingsPanel()->isLoaded());
    QCOMPARE(window.history()->recordedCount(), 0);
    QVERIFY(!QFileInfo::exists(dir.filePath(u"a-file/history"_s)));
    // The History tab says it has nothing, without failing.
    window.workspace()->setCurrentIndex(window.historyTabIndex());
    QTRY_VERIFY_WITH_TIMEOUT(window.historyPanel()->isLoaded(), kLoadTimeoutMs);
    const QString summary = window.historyPanel()->summaryText();
    QVERIFY2(summary.contains(u"no check of ACME was recorded in this time, so the history cannot tell"_s), qPrintable(summary));
    QCOMPARE(window.historyPanel()->findingsTable()->rowCount(), 0);
    QCOMPARE(window.historyPanel()->charts()->countSeries(HistoryCharts::Count::Sessions)->count(), 0);
    QCOMPARE(window.historyPanel()->charts()->severitySeries(Finding::Severity::Error)->count(), 0);
}

QTEST_MAIN(TestHistoryTab)
#include "tst_historytab.moc"
