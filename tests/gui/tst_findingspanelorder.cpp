// The findings panel shows an account's findings in the order they come (most severe first, as
// Checks::diagnose gives them) under the severity column's descending indicator, without sorting them
// again; a column the user picks sorts them, and stays picked for the next load. The findings are
// the controller's own signal, emitted here without a server.
#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "controllers/accountdatacontroller.h"
#include "diagnosis/finding.h"
#include "models/findinglistmodel.h"
#include "panels/findingspanel.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

Finding finding(const QString &code, Finding::Severity severity, const QString &clientId)
{
    Finding f;
    f.code = code;
    f.severity = severity;
    f.account = u"ACME"_s;
    f.clientId = clientId;
    f.title = u"%1 of %2"_s.arg(code, clientId);
    return f;
}

// In diagnose()'s order: most severe first, then the catalogue's order of codes (not alphabetical).
QList<Finding> diagnosed()
{
    return {finding(u"STREAM_MISSING"_s, Finding::Severity::Critical, {}),
            finding(u"SESSION_MISSING_CONSUMER"_s, Finding::Severity::Error, u"dev-2"_s),
            finding(u"SESSION_MISSING_CONSUMER"_s, Finding::Severity::Error, u"dev-1"_s),
            finding(u"ORPHAN_CONSUMER"_s, Finding::Severity::Warning, {}),
            finding(u"CLIENT_ID_TAKEOVER"_s, Finding::Severity::Warning, u"dev-3"_s)};
}

QStringList shownTitles(const QTableView &table)
{
    QStringList out;
    for (int row = 0; row < table.model()->rowCount(); ++row)
        out << table.model()->index(row, FindingListModel::TitleColumn).data().toString();
    return out;
}

QStringList titles(const QList<Finding> &findings)
{
    QStringList out;
    for (const Finding &f : findings)
        out << f.title.toString();
    return out;
}

} // namespace

class TestFindingsPanelOrder : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void shownAsTheyComeUntilAnotherOrderIsPicked()
    {
        AccountDataController controller;
        FindingsPanel panel(controller);
        auto *table = panel.findChild<QTableView *>(u"findingsTable"_s);
        QVERIFY(table);
        QAbstractItemModelTester tester(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        panel.setAccount(u"ACME"_s);

        const QList<Finding> findings = diagnosed();
        emit controller.findingsLoaded(u"ACME"_s, findings, {});
        QVERIFY(panel.isLoaded());
        // As they came, under "Severity, descending", which the model shows without sorting.
        QCOMPARE(shownTitles(*table), titles(findings));
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), int(FindingListModel::SeverityColumn));
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        auto *model = qobject_cast<FindingListModel *>(table->model());
        QVERIFY(model);
        QCOMPARE(model->sortColumn(), int(FindingListModel::SeverityColumn));
        QCOMPARE(model->sortOrder(), Qt::DescendingOrder);
        // The first (most severe) finding is selected and described.
        QVERIFY(panel.detailsText().contains(u"STREAM_MISSING"_s));

        // The user picks the code column: sorted by code.
        table->horizontalHeader()->setSortIndicator(FindingListModel::CodeColumn, Qt::AscendingOrder);
        QStringList codes;
        for (int row = 0; row < table->model()->rowCount(); ++row)
            codes << table->model()->index(row, FindingListModel::CodeColumn).data().toString();
        QStringList expected = codes;
        std::sort(expected.begin(), expected.end());
        QCOMPARE(codes, expected);
        QCOMPARE(codes.first(), u"CLIENT_ID_TAKEOVER"_s);

        // ... and stays picked when the account's findings come again.
        emit controller.findingsLoaded(u"ACME"_s, findings, {});
        QCOMPARE(table->model()->index(0, FindingListModel::CodeColumn).data().toString(), u"CLIENT_ID_TAKEOVER"_s);
        QCOMPARE(model->sortColumn(), int(FindingListModel::CodeColumn));

        // Severity ascending, then descending again: a sort by severity keeps the order within a severity.
        table->horizontalHeader()->setSortIndicator(FindingListModel::SeverityColumn, Qt::AscendingOrder);
        QCOMPARE(table->model()->index(0, FindingListModel::SeverityColumn).data().toString(), u"warning"_s);
        table->horizontalHeader()->setSortIndicator(FindingListModel::SeverityColumn, Qt::DescendingOrder);
        QCOMPARE(table->model()->index(0, FindingListModel::SeverityColumn).data().toString(), u"critical"_s);
        QCOMPARE(shownTitles(*table), titles(findings));
    }

    void manyFindingsSortOnAWorkerAndTheSelectionFollows()
    {
        AccountDataController controller;
        FindingsPanel panel(controller);
        auto *table = panel.findChild<QTableView *>(u"findingsTable"_s);
        QVERIFY(table);
        auto *model = qobject_cast<FindingListModel *>(table->model());
        QVERIFY(model);
        panel.setAccount(u"ACME"_s);

        // More than the model sorts in place: client IDs in descending order, so a title sort reverses them.
        const qsizetype n = FindingListModel::kSortInPlaceMax + 5000;
        QList<Finding> findings;
        findings.reserve(n);
        for (qsizetype i = n - 1; i >= 0; --i)
            findings << finding(u"SESSION_MISSING_CONSUMER"_s, Finding::Severity::Error, u"dev-%1"_s.arg(i, 6, 10, QLatin1Char('0')));
        emit controller.findingsLoaded(u"ACME"_s, findings, {});
        QCOMPARE(model->rowCount(), int(n));
        table->selectRow(0); // dev-<n - 1>
        const QString selected = findings.first().title.toString();
        QVERIFY(panel.detailsText().contains(selected));

        QSignalSpy sorted(model, &FindingListModel::sorted);
        table->horizontalHeader()->setSortIndicator(FindingListModel::TitleColumn, Qt::AscendingOrder);
        QVERIFY(model->isSorting()); // on a worker: the rows keep their order meanwhile
        QCOMPARE(model->index(0, FindingListModel::TitleColumn).data().toString(), selected);
        QVERIFY(sorted.wait(20000));
        QVERIFY(!model->isSorting());
        QCOMPARE(model->index(0, FindingListModel::TitleColumn).data().toString(), findings.last().title.toString());
        QCOMPARE(model->index(int(n) - 1, FindingListModel::TitleColumn).data().toString(), selected);
        // The selected finding moved to the last row, still selected and described.
        const QModelIndexList rows = table->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().row(), int(n) - 1);
        QVERIFY(panel.detailsText().contains(selected));

        // New findings while a sort runs: the old sort's result is dropped, the new list sorted as picked.
        table->horizontalHeader()->setSortIndicator(FindingListModel::TitleColumn, Qt::DescendingOrder);
        emit controller.findingsLoaded(u"ACME"_s, findings.mid(0, 10), {});
        QCOMPARE(model->rowCount(), 10);
        QCOMPARE(model->index(0, FindingListModel::TitleColumn).data().toString(), findings.first().title.toString());
        QTest::qWait(200); // the dropped worker's result, if it arrives, changes nothing
        QCOMPARE(model->rowCount(), 10);
        QCOMPARE(model->index(0, FindingListModel::TitleColumn).data().toString(), findings.first().title.toString());
    }
};

QTEST_MAIN(TestFindingsPanelOrder)
#include "tst_findingspanelorder.moc"
