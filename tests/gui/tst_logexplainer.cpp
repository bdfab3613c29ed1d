// The log explainer dialog on a line captured from a real nats-server (tests/unit/data/logs): the
// match shows the template, account, client ID, JetStream error code and finding codes; an unknown
// line is listed as not recognised; typing re-explains; "Go to Account" emits the account of the
// selected line and is disabled for lines without one. Saves docs/screenshots/log-explainer.png
// with MQTTDOCTOR_WRITE_SCREENSHOTS=1 (else a temporary folder).
#include <QDir>
#include <QFile>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include "dialogs/logexplainerdialog.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

class TestLogExplainer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void explainsCapturedLine();
    void typingExplainsAgain();
    void screenshot();

private:
    /** The first line of a captured log that contains `needle`. */
    static QString capturedLine(const QString &file, const QString &needle);

    QString m_line;
    QTemporaryDir m_shots;
};

QString TestLogExplainer::capturedLine(const QString &file, const QString &needle)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/tests/unit/data/logs/"_s + file);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &raw : f.readAll().split('\n'))
        if (const QString line = QString::fromUtf8(raw); line.contains(needle))
            return line;
    return {};
}

void TestLogExplainer::initTestCase()
{
    QLocale::setDefault(QLocale::c());
    QVERIFY2(qEnvironmentVariableIsSet("MQTTDOCTOR_SOURCE_DIR"), "run through ctest (MQTTDOCTOR_SOURCE_DIR)");
    m_line = capturedLine(u"2.10.27/basic.log"_s, u"create messages stream for account \"LIMITED\""_s);
    QVERIFY2(!m_line.isEmpty(), "the captured line is missing from tests/unit/data/logs/2.10.27/basic.log");
}

void TestLogExplainer::explainsCapturedLine()
{
    LogExplainerDialog dialog;
    QSignalSpy goTo(&dialog, &LogExplainerDialog::accountRequested);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString unknown = u"[1] 2026/12/02 17:26:46.000000 [INF] Starting nats-server"_s;
    dialog.setLogText(unknown + u"\n\n"_s + m_line + u'\n');

    // Blank lines are skipped; each other line gets a row, the recognised one is selected.
    const QList<LogLineMatch> matches = dialog.matches();
    QCOMPARE(matches.size(), 2);
    QVERIFY(!matches.at(0).matched);
    const LogLineMatch &m = matches.at(1);
    QVERIFY(m.matched);
    QCOMPARE(m.templateId, u"asm.create_messages_stream"_s);
    QCOMPARE(m.account, u"LIMITED"_s);
    QCOMPARE(m.clientId, u"limited-client"_s);
    QCOMPARE(m.errorCode, 10027);
    QVERIFY(m.codes.contains(u"STREAM_LIMIT_HEADROOM"_s));

    auto *list = dialog.findChild<QTreeWidget *>(u"matchList"_s);
    QCOMPARE(list->topLevelItemCount(), 2);
    const QTreeWidgetItem *row = list->topLevelItem(1);
    QCOMPARE(row->text(LogExplainerDialog::LineColumn), u"3"_s); // the line number in the pasted text
    QCOMPARE(row->text(LogExplainerDialog::TemplateColumn), u"asm.create_messages_stream"_s);
    QCOMPARE(row->text(LogExplainerDialog::AccountColumn), u"LIMITED"_s);
    QCOMPARE(row->text(LogExplainerDialog::ClientIdColumn), u"limited-client"_s);
    QCOMPARE(row->text(LogExplainerDialog::ErrorCodeColumn), u"10027"_s);
    QVERIFY(row->text(LogExplainerDialog::FindingsColumn).contains(u"STREAM_LIMIT_HEADROOM"_s));
    QCOMPARE(list->topLevelItem(0)->text(LogExplainerDialog::TemplateColumn), u"not recognised"_s);

    QCOMPARE(list->currentItem(), row);
    const QString details = dialog.findChild<QTextBrowser *>(u"matchDetails"_s)->toPlainText();
    QVERIFY2(details.contains(u"create messages stream for account %q"_s), qPrintable(details));
    QVERIFY2(details.contains(u"JetStream error 10027"_s), qPrintable(details));
    QVERIFY2(details.contains(m.advice.left(40)), qPrintable(details));
    // "Go to Account": the selected line's account and finding codes.
    auto *button = dialog.findChild<QPushButton *>(u"goToAccountButton"_s);
    QVERIFY(button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(goTo.size(), 1);
    QCOMPARE(goTo.at(0).at(0).toString(), u"LIMITED"_s);
    QVERIFY(goTo.at(0).at(1).toStringList().contains(u"STREAM_LIMIT_HEADROOM"_s));

    // The unrecognised line names no account: nothing to go to.
    dialog.selectMatch(0);
    QVERIFY(!button->isEnabled());
    QVERIFY(dialog.findChild<QTextBrowser *>(u"matchDetails"_s)->toPlainText().contains(u"No template"_s));
}

void TestLogExplainer::typingExplainsAgain()
{
    LogExplainerDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.matches().isEmpty());
    auto *input = dialog.findChild<QPlainTextEdit *>(u"logInput"_s);
    input->setFocus();
    input->insertPlainText(m_line);
    QTRY_COMPARE(dialog.matches().size(), 1);
    QCOMPARE(dialog.matches().first().account, u"LIMITED"_s);
    input->clear();
    QTRY_VERIFY(dialog.matches().isEmpty());
    QVERIFY(!dialog.findChild<QPushButton *>(u"goToAccountButton"_s)->isEnabled());
}

void TestLogExplainer::screenshot()
{
    // A few real lines of different kinds, the account-limit one selected.
    QStringList lines;
    for (const auto &[file, needle] : {std::pair{u"2.10.27/basic.log"_s, u"JetStream not enabled for account"_s},
                                       std::pair{u"2.10.27/basic.log"_s, u"subjects overlap with an existing stream"_s},
                                       std::pair{u"2.10.27/break.log"_s, u"stream not found (10059)"_s}}) {
        const QString line = capturedLine(file, needle);
        QVERIFY2(!line.isEmpty(), qPrintable(needle));
        lines << line;
    }
    lines.insert(2, m_line);
    LogExplainerDialog dialog;
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.setLogText(lines.join(u'\n'));
    QCOMPARE(dialog.matches().size(), 4);
    for (const LogLineMatch &m : dialog.matches())
        QVERIFY2(m.matched, qPrintable(m.line));
    dialog.selectMatch(2);
    QCOMPARE(dialog.selectedMatch()->account, u"LIMITED"_s);

    QString path = QDir(m_shots.path()).filePath(u"log-explainer.png"_s);
    if (qEnvironmentVariable("MQTTDOCTOR_WRITE_SCREENSHOTS") == "1"_L1) {
        const QDir dir(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/docs/screenshots"_s);
        QDir().mkpath(dir.path());
        path = dir.filePath(u"log-explainer.png"_s);
    }
    QVERIFY2(dialog.grab().save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
}

QTEST_MAIN(TestLogExplainer)
#include "tst_logexplainer.moc"
