// StreamTableModel fed with ACME's MQTT streams as captured from nats-server 2.9.10: every column's
// text, the raw SortRole values, alignment, legacy marking, and updates that keep rows.
#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include "capturedcluster.h"
#include "models/streamtablemodel.h"

using namespace MqttDoctor;
using MqttDoctor::Test::CapturedCluster;

class TestStreamTableModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void headers();
    void columns_data();
    void columns();
    void legacyStream();
    void sortRoleIsNumeric();
    void sameStreamsUpdateInPlace();
    void otherStreamsReset();

private:
    QList<StreamInfo> acmeStreams() const { return CapturedCluster::account(QStringLiteral("ACME")).mqttStreams(); }

    std::unique_ptr<StreamTableModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
};

void TestStreamTableModel::initTestCase()
{
    QLocale::setDefault(QLocale::c());
}

void TestStreamTableModel::init()
{
    m_model = std::make_unique<StreamTableModel>();
    m_tester = std::make_unique<QAbstractItemModelTester>(m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_model->setStreams(acmeStreams());
}

void TestStreamTableModel::cleanup()
{
    m_tester.reset();
    m_model.reset();
}

void TestStreamTableModel::headers()
{
    QCOMPARE(m_model->columnCount(), 10);
    QStringList headers;
    for (int c = 0; c < m_model->columnCount(); ++c)
        headers << m_model->headerData(c, Qt::Horizontal).toString();
    QCOMPARE(headers,
             (QStringList{QStringLiteral("Stream"), QStringLiteral("Subjects"), QStringLiteral("Retention"), QStringLiteral("Storage"),
                          QStringLiteral("Replicas"), QStringLiteral("Per subject"), QStringLiteral("Messages"), QStringLiteral("Bytes"),
                          QStringLiteral("Consumers"), QStringLiteral("Leader")}));
    QVERIFY(m_model->headerData(StreamTableModel::MaxMsgsPerSubjectColumn, Qt::Horizontal, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("max_msgs_per_subject")));
}

void TestStreamTableModel::columns_data()
{
    QTest::addColumn<QString>("stream");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("$MQTT_sess") << QStringLiteral("$MQTT_sess") << QStringList{QStringLiteral("$MQTT_sess"), QStringLiteral("$MQTT.sess.>"),
                                                                               QStringLiteral("limits"),     QStringLiteral("file"),
                                                                               QStringLiteral("1"),          QStringLiteral("1"),
                                                                               QStringLiteral("1"),          QStringLiteral("446 bytes"),
                                                                               QStringLiteral("0"),          QStringLiteral("gui1")};
    QTest::newRow("$MQTT_msgs") << QStringLiteral("$MQTT_msgs") << QStringList{QStringLiteral("$MQTT_msgs"), QStringLiteral("$MQTT.msgs.>"),
                                                                               QStringLiteral("interest"),   QStringLiteral("file"),
                                                                               QStringLiteral("1"),          QStringLiteral("unlimited"),
                                                                               QStringLiteral("0"),          QStringLiteral("0 bytes"),
                                                                               QStringLiteral("1"),          QStringLiteral("gui1")};
    QTest::newRow("$MQTT_rmsgs") << QStringLiteral("$MQTT_rmsgs")
                                 << QStringList{QStringLiteral("$MQTT_rmsgs"), QStringLiteral("$MQTT.rmsgs"), QStringLiteral("limits"),
                                                QStringLiteral("file"),        QStringLiteral("1"),           QStringLiteral("unlimited"),
                                                QStringLiteral("0"),           QStringLiteral("0 bytes"),     QStringLiteral("1"),
                                                QStringLiteral("gui1")};
}

void TestStreamTableModel::columns()
{
    QFETCH(QString, stream);
    QFETCH(QStringList, expected);
    QCOMPARE(m_model->rowCount(), 4);
    const int row = m_model->rowOf(stream);
    QVERIFY(row >= 0);
    QStringList actual;
    for (int c = 0; c < StreamTableModel::ColumnCount; ++c)
        actual << m_model->index(row, c).data().toString();
    QCOMPARE(actual, expected);
    QCOMPARE(m_model->index(row, 0).data(StreamTableModel::StreamNameRole).toString(), stream);
    QCOMPARE(m_model->index(row, 0).data(StreamTableModel::LegacyRole).toBool(), false);
    QCOMPARE(m_model->streamAt(row)->name, stream);
}

void TestStreamTableModel::legacyStream()
{
    const int row = m_model->rowOf(QStringLiteral("$MQTT_sess_X8bU3C1q"));
    QCOMPARE(row, 3);
    const QModelIndex name = m_model->index(row, StreamTableModel::NameColumn);
    QCOMPARE(name.data().toString(), QStringLiteral("$MQTT_sess_X8bU3C1q (legacy)"));
    QCOMPARE(name.data(StreamTableModel::StreamNameRole).toString(), QStringLiteral("$MQTT_sess_X8bU3C1q"));
    QCOMPARE(name.data(StreamTableModel::LegacyRole).toBool(), true);
    QVERIFY(name.data(Qt::ToolTipRole).toString().contains(QStringLiteral("$MQTT_sess")));
    QCOMPARE(m_model->index(row, StreamTableModel::BytesColumn).data().toString(), QStringLiteral("312 bytes"));
}

void TestStreamTableModel::sortRoleIsNumeric()
{
    const int msgs = m_model->rowOf(QStringLiteral("$MQTT_msgs"));
    const int sess = m_model->rowOf(QStringLiteral("$MQTT_sess"));
    QCOMPARE(m_model->index(sess, StreamTableModel::BytesColumn).data(StreamTableModel::SortRole).toLongLong(), 446);
    QCOMPARE(m_model->index(sess, StreamTableModel::MaxMsgsPerSubjectColumn).data(StreamTableModel::SortRole).toLongLong(), 1);
    // "unlimited" sorts after any limit.
    QVERIFY(m_model->index(msgs, StreamTableModel::MaxMsgsPerSubjectColumn).data(StreamTableModel::SortRole).toLongLong() > 1'000'000'000);
    const int alignment = m_model->index(sess, StreamTableModel::MessagesColumn).data(Qt::TextAlignmentRole).toInt();
    QVERIFY(alignment & Qt::AlignRight);
    QVERIFY(m_model->index(sess, StreamTableModel::NameColumn).data(Qt::TextAlignmentRole).toInt() & Qt::AlignLeft);

    QSortFilterProxyModel proxy;
    proxy.setSourceModel(m_model.get());
    proxy.setSortRole(StreamTableModel::SortRole);
    proxy.sort(StreamTableModel::BytesColumn, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 0).data(StreamTableModel::StreamNameRole).toString(), QStringLiteral("$MQTT_sess"));
    QCOMPARE(proxy.index(1, 0).data(StreamTableModel::StreamNameRole).toString(), QStringLiteral("$MQTT_sess_X8bU3C1q"));
}

void TestStreamTableModel::sameStreamsUpdateInPlace()
{
    QList<StreamInfo> next = acmeStreams();
    next[2].state.insert(QStringLiteral("messages"), 7);
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    m_model->setStreams(next);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(m_model->index(2, StreamTableModel::MessagesColumn).data().toString(), QStringLiteral("7"));
}

void TestStreamTableModel::otherStreamsReset()
{
    QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);
    m_model->setStreams(acmeStreams().mid(0, 2));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(m_model->rowCount(), 2);
    m_model->clear();
    QCOMPARE(m_model->rowCount(), 0);
    QVERIFY(!m_model->streamAt(0));
    QCOMPARE(m_model->rowOf(QStringLiteral("$MQTT_sess")), -1);
}

QTEST_MAIN(TestStreamTableModel)
#include "tst_streamtablemodel.moc"
