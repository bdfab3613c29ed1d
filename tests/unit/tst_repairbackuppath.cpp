// RepairExecutor::backupPath and freshBackupPath: the names of a repair's backup files (sorted by time, never one that exists).
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "repair/backupfile.h"
#include "repair/repairexecutor.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

RepairStep step(const QString &account, const QString &id, const QString &action)
{
    RepairStep s;
    s.account = account;
    s.id = id;
    s.action = action;
    return s;
}

RepairBackupSpec spec(const QString &stream, const QString &subject = {})
{
    RepairBackupSpec b;
    b.stream = stream;
    b.subject = subject;
    return b;
}

bool touch(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write("x") == 1;
}

} // namespace

class TestRepairBackupPath : public QObject
{
    Q_OBJECT

private slots:
    void shape_data()
    {
        QTest::addColumn<QString>("account");
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QString>("subject");
        QTest::addColumn<int>("index");
        QTest::addColumn<QString>("tail");
        QTest::newRow("stream") << u"ACME"_s << u"CATCHALL"_s << QString() << 0 << u"-ACME-step1-resolve_overlap-CATCHALL.jsonl"_s;
        QTest::newRow("$ dropped") << u"$G"_s << u"$MQTT_sess"_s << QString() << 0 << u"-G-step1-resolve_overlap-MQTT_sess.jsonl"_s;
        QTest::newRow("subject, index") << u"ACME"_s << u"$MQTT_sess"_s << u"$MQTT.sess.ab*"_s << 2
                                        << u"-ACME-step1-resolve_overlap-MQTT_sess-MQTT.sess.ab_-2.jsonl"_s;
    }

    // "<UTC stamp to the millisecond>-<account>-step<id>-<action>-<stream>[-<subject>][-<index>].jsonl" in the folder.
    void shape()
    {
        QFETCH(QString, account);
        QFETCH(QString, stream);
        QFETCH(QString, subject);
        QFETCH(int, index);
        QFETCH(QString, tail);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path =
            RepairExecutor::backupPath(dir.path(), step(account, u"1"_s, u"resolve_overlap"_s), spec(stream, subject), index);
        const QFileInfo info(path);
        QCOMPARE(info.absolutePath(), QDir(dir.path()).absolutePath());
        const QRegularExpression re(u"^(\\d{8}T\\d{9})Z(.*)$"_s);
        const auto m = re.match(info.fileName());
        QVERIFY2(m.hasMatch(), qPrintable(info.fileName()));
        QCOMPARE(m.captured(2), tail);
        const QDateTime stamp = QDateTime::fromString(m.captured(1), u"yyyyMMdd'T'HHmmsszzz"_s);
        QVERIFY(stamp.isValid());
    }

    // A plan rerun at once (its first run failed right behind its backup) gets new names, in time order.
    void quickRetriesDoNotCollide()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const RepairStep s = step(u"ACME"_s, u"1"_s, u"resolve_overlap"_s);
        QStringList names;
        for (int i = 0; i < 20; ++i) {
            const QString path = RepairExecutor::backupPath(dir.path(), s, spec(u"CATCHALL"_s), 0);
            QVERIFY2(!QFileInfo::exists(path), qPrintable(path));
            QVERIFY(touch(path));
            names << QFileInfo(path).fileName();
        }
        QStringList sorted = names;
        sorted.sort();
        QCOMPARE(sorted, names); // each later than the one before
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 20);
    }

    // The stream-recreate step's working backup is named through the same helper: five quick calls, five files.
    void freshPathForOtherNames()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto name = [](const QString &stamp) -> QString { return u"ACME-CATCHALL-recreate-"_s + stamp + u".jsonl"_s; };
        for (int i = 0; i < 5; ++i) {
            const QString path = freshBackupPath(dir.path(), name);
            QVERIFY2(!QFileInfo::exists(path), qPrintable(path));
            QVERIFY2(QFileInfo(path).fileName().startsWith(u"ACME-CATCHALL-recreate-2"_s), qPrintable(path));
            QVERIFY(touch(path));
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 5);
    }

    // A name that exists whatever the time: after trying, that path comes back (the writer then refuses
    // to overwrite it), and the file is untouched.
    void everyNameTaken()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString taken = QDir(dir.path()).filePath(u"fixed.jsonl"_s);
        QVERIFY(touch(taken));
        const QString path = freshBackupPath(dir.path(), [](const QString &) -> QString { return u"fixed.jsonl"_s; });
        QCOMPARE(path, taken);
        QCOMPARE(QFileInfo(taken).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestRepairBackupPath)
#include "tst_repairbackuppath.moc"
