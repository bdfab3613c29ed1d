// Export Report and the Findings tab's First seen, in the main window against a real nats-server (newest) with
// persistent MQTT sessions made by mosquitto, the history in a temporary folder (MQTTDOCTOR_HISTORY_DIR): after a
// break (hist-1's durable consumers of $MQTT_msgs deleted) and two recorded refreshes, the finding that stayed open
// shows when the history first saw it (the first refresh after the break, not the last); Export Report writes the
// HTML and the PDF of ACME next to each other (the PDF a PDF, the HTML with the finding's code), with hashing on no
// client ID is left in the HTML; without any history the column stays empty.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include "actions/reportexport.h"
#include "controllers/clustercontroller.h"
#include "controllers/historycontroller.h"
#include "mainwindow.h"
#include "models/findinglistmodel.h"
#include "operatortestserver.h"
#include "panels/accountworkspace.h"
#include "panels/findingspanel.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace MqttDoctor::Test::WindowSteps;
using namespace Qt::Literals::StringLiterals;

class TestHistoryExport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void firstSeenAndExport();
    void withoutHistoryTheColumnStaysEmpty();

private:
    static bool refreshRecorded(MainWindow &window, int recordedBefore);
    /** The Findings tab's row of `clientId`'s finding; -1 when none. */
    static int rowOf(const FindingListModel &model, const QString &clientId);
    static QByteArray readAll(const QString &path);

    OperatorTestServer m_server;
};

void TestHistoryExport::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY2(m_server.start(u"histexport"_s), qPrintable(m_server.errorString()));
    QCOMPARE(m_server.makeSessions({u"hist-1"_s, u"hist-2"_s}), QString());
}

void TestHistoryExport::cleanup()
{
    qunsetenv("MQTTDOCTOR_HISTORY_DIR");
}

bool TestHistoryExport::refreshRecorded(MainWindow &window, int recordedBefore)
{
    if (!QTest::qWaitFor([&] { return !window.isRefreshing(); }, kLoadTimeoutMs))
        return false;
    window.refreshAll();
    return QTest::qWaitFor([&] { return window.history()->recordedCount() > recordedBefore && !window.isRefreshing(); }, kLoadTimeoutMs);
}

int TestHistoryExport::rowOf(const FindingListModel &model, const QString &clientId)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (const auto f = model.findingAt(row); f && f->clientId == clientId)
            return row;
    return -1;
}

QByteArray TestHistoryExport::readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void TestHistoryExport::firstSeenAndExport()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    qputenv("MQTTDOCTOR_HISTORY_DIR", dir.filePath(u"history"_s).toUtf8());
    ClusterController controller;
    MainWindow window(controller);
    QVERIFY(openAccount(window, controller, m_server.profile(false)));
    QTRY_VERIFY_WITH_TIMEOUT(window.history()->recordedCount() >= 1, kLoadTimeoutMs);

    // The break, then two recorded refreshes: hist-1's finding opens at the first and stays open at the second.
    const QStringList durables = m_server.durablesOf(u"hist-1"_s);
    QVERIFY2(!durables.isEmpty() && !durables.first().startsWith(u'<'), qPrintable(durables.join(u' ')));
    const QDateTime beforeBreak = QDateTime::currentDateTimeUtc();
    for (const QString &d : durables)
        QVERIFY(bool(m_server.acme().call(u"CONSUMER.DELETE.$MQTT_msgs."_s + d)));
    QTest::qWait(1100);
    QVERIFY(refreshRecorded(window, window.history()->recordedCount()));
    QTest::qWait(2100);
    const QDateTime beforeSecond = QDateTime::currentDateTimeUtc();
    QVERIFY(refreshRecorded(window, window.history()->recordedCount()));

    // The Findings tab: hist-1's finding first seen at the first refresh after the break, open since then.
    FindingsPanel &findings = *window.workspace()->findingsPanel();
    FindingListModel &model = *findings.model();
    QTRY_VERIFY_WITH_TIMEOUT(rowOf(model, u"hist-1"_s) >= 0 && model.firstSeenAt(rowOf(model, u"hist-1"_s)).isValid(), kLoadTimeoutMs);
    const int row = rowOf(model, u"hist-1"_s);
    const QDateTime first = model.firstSeenAt(row);
    QVERIFY2(first >= beforeBreak.addSecs(-1) && first < beforeSecond, qPrintable(first.toString(Qt::ISODateWithMs)));
    QCOMPARE(model.headerData(FindingListModel::FirstSeenColumn, Qt::Horizontal).toString(), u"First seen"_s);
    const QString text = model.index(row, FindingListModel::FirstSeenColumn).data().toString();
    const QString when = QLocale().toString(first.toLocalTime(), u"yyyy-MM-dd HH:mm:ss"_s);
    QVERIFY2(text.startsWith(when) && text.contains(u" · open "_s), qPrintable(text));
    QVERIFY2(model.index(row, FindingListModel::FirstSeenColumn).data(Qt::ToolTipRole).toString().contains(u"open since then"_s),
             qPrintable(model.index(row, FindingListModel::FirstSeenColumn).data(Qt::ToolTipRole).toString()));
    const QString code = model.index(row, FindingListModel::CodeColumn).data().toString();
    QVERIFY(!code.isEmpty());
    window.workspace()->setCurrentWidget(&findings);
    findings.view()->selectRow(row);
    QVERIFY(!saveScreenshot(*window.workspace(), dir.path(), u"findings-first-seen.png"_s).isEmpty());

    // Export Report of ACME: the HTML and the PDF side by side, the status bar says where.
    QSignalSpy finished(window.reportExport(), &ReportExport::finished);
    QSignalSpy failed(window.reportExport(), &ReportExport::failed);
    QVERIFY(window.exportReportAction());
    QVERIFY(window.exportReport(dir.filePath(u"acme.pdf"_s), false));
    QVERIFY(!window.exportReport(dir.filePath(u"again.html"_s), false)); // one at a time
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 1, kLoadTimeoutMs);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().value<Error>().toString()));
    const QString html = dir.filePath(u"acme.html"_s), pdf = dir.filePath(u"acme.pdf"_s);
    QCOMPARE(finished.first().at(0).toString(), QFileInfo(html).absoluteFilePath());
    QCOMPARE(finished.first().at(1).toString(), QFileInfo(pdf).absoluteFilePath());
    QVERIFY(readAll(pdf).startsWith("%PDF-"));
    const QString page = QString::fromUtf8(readAll(html));
    QVERIFY2(page.contains(code), qPrintable(code));
    QVERIFY(page.contains(u"hist-1"_s));
    QVERIFY2(window.statusBar()->currentMessage().contains(QFileInfo(html).absoluteFilePath()),
             qPrintable(window.statusBar()->currentMessage()));
    QVERIFY(!QFileInfo::exists(dir.filePath(u"again.html"_s)));

    // With the client IDs hashed: none of them is left in the page.
    QVERIFY(window.exportReport(dir.filePath(u"hashed"_s), true));
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() + failed.size() == 2, kLoadTimeoutMs);
    QVERIFY(failed.isEmpty());
    QVERIFY(readAll(dir.filePath(u"hashed.pdf"_s)).startsWith("%PDF-"));
    const QString hashed = QString::fromUtf8(readAll(dir.filePath(u"hashed.html"_s)));
    QVERIFY(hashed.contains(code));
    QVERIFY(!hashed.contains(u"hist-1"_s));
    QVERIFY(!hashed.contains(u"hist-2"_s));

    // A file that cannot be written: the status bar says why.
    QVERIFY(window.exportReport(dir.filePath(u"no-such-folder/report"_s), false));
    QTRY_VERIFY_WITH_TIMEOUT(failed.size() == 1, kLoadTimeoutMs);
    QVERIFY2(window.statusBar()->currentMessage().startsWith(u"Report not written: "_s), qPrintable(window.statusBar()->currentMessage()));
}

void TestHistoryExport::withoutHistoryTheColumnStaysEmpty()
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
    QSignalSpy firstSeen(window.history(), &HistoryController::firstSeenLoaded);
    QTRY_VERIFY_WITH_TIMEOUT(window.historyStatusLabel()->isVisible(), kLoadTimeoutMs);
    FindingsPanel &findings = *window.workspace()->findingsPanel();
    QTRY_VERIFY_WITH_TIMEOUT(findings.isLoaded(), kLoadTimeoutMs);
    window.refreshAll();
    QTRY_VERIFY_WITH_TIMEOUT(!window.isRefreshing(), kLoadTimeoutMs);
    QTest::qWait(300);
    const FindingListModel &model = *findings.model();
    QVERIFY(model.rowCount() > 0); // hist-1's finding from the other test, at least
    for (int row = 0; row < model.rowCount(); ++row) {
        QVERIFY(!model.firstSeenAt(row).isValid());
        QVERIFY(model.index(row, FindingListModel::FirstSeenColumn).data().toString().isEmpty());
    }
    using FirstSeen = QHash<QString, QDateTime>;
    for (const QList<QVariant> &answer : firstSeen)
        QVERIFY(answer.at(1).value<FirstSeen>().isEmpty());
}

QTEST_MAIN(TestHistoryExport)
#include "tst_historyexport.moc"
