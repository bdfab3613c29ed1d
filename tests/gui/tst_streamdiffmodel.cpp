// StreamDiffModel: an account's MQTT streams against the layout its servers expect. Configs as
// nats-server reports them (MqttStreamSpec::expectedConfig, then changed like an operator would);
// the diff text must be the repair planner's own rendering (StreamConfigEdit::renderDiff).
#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QTest>

#include "models/streamdiffmodel.h"
#include "mqtt/layouts.h"
#include "repair/actions/streamconfigedit.h"

using namespace MqttDoctor;
using namespace Qt::Literals::StringLiterals;

namespace {

StreamInfo streamOf(const MqttStreamSpec &spec)
{
    StreamInfo s;
    s.name = spec.name;
    s.config = spec.expectedConfig();
    return s;
}

QModelIndex fieldIndex(const StreamDiffModel &model, const QString &stream, const QString &field, int column)
{
    const QModelIndex parent = model.index(model.streamRow(stream), 0);
    for (int r = 0; r < model.rowCount(parent); ++r)
        if (model.index(r, 0, parent).data(StreamDiffModel::FieldRole).toString() == field)
            return model.index(r, column, parent);
    return {};
}

} // namespace

class TestStreamDiffModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchingLayoutHasNoDifference_data();
    void matchingLayoutHasNoDifference();
    void changedMissingAndExtraStreams();
    void layoutFollowsServerVersions();
};

void TestStreamDiffModel::matchingLayoutHasNoDifference_data()
{
    QTest::addColumn<int>("kind");
    QTest::newRow("2.9") << int(MqttLayout::Kind::V2_9);
    QTest::newRow("2.10+") << int(MqttLayout::Kind::V2_10);
    QTest::newRow("mixed") << int(MqttLayout::Kind::Mixed);
}

void TestStreamDiffModel::matchingLayoutHasNoDifference()
{
    QFETCH(int, kind);
    StreamDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    LayoutChoice choice;
    choice.layout = MqttLayout(MqttLayout::Kind(kind));
    QList<StreamInfo> streams;
    for (const MqttStreamSpec &spec : choice.layout.streams())
        streams << streamOf(spec);
    model.setComparison(choice, streams);
    QCOMPARE(model.rowCount(), int(choice.layout.streams().size()));
    QCOMPARE(model.problemStreams(), 0);
    QVERIFY(model.allDiffText().isEmpty());
    for (int row = 0; row < model.rowCount(); ++row) {
        const QModelIndex stream = model.index(row, 0);
        QCOMPARE(model.status(row), StreamDiffModel::Status::Matches);
        QCOMPARE(model.rowCount(stream), int(MqttStreamSpec::comparedFields().size()));
        for (int f = 0; f < model.rowCount(stream); ++f) {
            const QModelIndex field = model.index(f, StreamDiffModel::ExpectedColumn, stream);
            QVERIFY(!field.data(StreamDiffModel::DiffersRole).toBool());
            QCOMPARE(field.data().toString(), field.siblingAtColumn(StreamDiffModel::ActualColumn).data().toString());
        }
    }
}

void TestStreamDiffModel::changedMissingAndExtraStreams()
{
    StreamDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    LayoutChoice choice;
    choice.layout = MqttLayout(MqttLayout::Kind::V2_10);
    QList<StreamInfo> streams;
    for (const MqttStreamSpec &spec : choice.layout.streams()) {
        if (spec.name == MqttLayout::outStream())
            continue; // deleted by someone
        StreamInfo s = streamOf(spec);
        if (spec.name == MqttLayout::sessionsStream())
            s.config[u"max_msgs_per_subject"_s] = 5; // changed through the JetStream API
        streams << s;
    }
    StreamInfo legacy;
    legacy.name = u"$MQTT_sess_abc"_s;
    legacy.config = QJsonObject{{u"name"_s, legacy.name}, {u"subjects"_s, QJsonArray{u"$MQTT.sess.abc"_s}}};
    streams << legacy;
    StreamInfo unrelated;
    unrelated.name = u"ORDERS"_s;
    streams << unrelated;
    model.setComparison(choice, streams);

    // The layout's five streams in creation order, then the legacy one; ORDERS is not an MQTT stream.
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.streamRow(u"ORDERS"_s), -1);
    const int sess = model.streamRow(MqttLayout::sessionsStream());
    const int out = model.streamRow(MqttLayout::outStream());
    QCOMPARE(model.status(sess), StreamDiffModel::Status::Differs);
    QCOMPARE(model.status(out), StreamDiffModel::Status::Missing);
    QCOMPARE(model.status(model.streamRow(legacy.name)), StreamDiffModel::Status::NotInLayout);
    QCOMPARE(model.status(model.streamRow(MqttLayout::messagesStream())), StreamDiffModel::Status::Matches);
    QCOMPARE(model.problemStreams(), 2);

    const QModelIndex expected =
        fieldIndex(model, MqttLayout::sessionsStream(), u"max_msgs_per_subject"_s, StreamDiffModel::ExpectedColumn);
    QVERIFY(expected.isValid());
    QCOMPARE(expected.data().toString(), u"1"_s);
    QCOMPARE(expected.siblingAtColumn(StreamDiffModel::ActualColumn).data().toString(), u"5"_s);
    QVERIFY(expected.data(StreamDiffModel::DiffersRole).toBool());
    QVERIFY(expected.data(Qt::BackgroundRole).isValid());
    QVERIFY(!fieldIndex(model, MqttLayout::sessionsStream(), u"retention"_s, 1).data(StreamDiffModel::DiffersRole).toBool());
    QVERIFY(model.index(sess, 0).data(StreamDiffModel::DiffersRole).toBool());
    QCOMPARE(model.index(sess, StreamDiffModel::ActualColumn).data().toString(), u"1 field differs"_s);

    // The repair planner's rendering, old = actual, new = expected.
    QCOMPARE(model.diffText(sess), u"-max_msgs_per_subject: 5\n+max_msgs_per_subject: 1"_s);
    const MqttStreamSpec outSpec = *choice.layout.stream(MqttLayout::outStream());
    QCOMPARE(model.diffText(out), StreamConfigEdit::renderCreateDiff(outSpec.createConfig()));
    QVERIFY(model.diffText(out).startsWith(u'+'));
    QVERIFY(model.allDiffText().contains(u"--- $MQTT_sess (differs)"_s));
    QVERIFY(model.allDiffText().contains(u"--- $MQTT_out (missing)"_s));
    QVERIFY(fieldIndex(model, MqttLayout::outStream(), u"subjects"_s, StreamDiffModel::ActualColumn)
                .data(StreamDiffModel::DiffersRole)
                .toBool());

    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestStreamDiffModel::layoutFollowsServerVersions()
{
    // A 2.9 server: $MQTT_rmsgs on one subject is as expected; on a 2.10 server it differs.
    ServerInfo server;
    server.name = u"n1"_s;
    server.version = u"2.9.10"_s;
    server.jetstream = true;
    const LayoutChoice old = Layouts::choose({server});
    QCOMPARE(old.layout.kind(), MqttLayout::Kind::V2_9);
    QList<StreamInfo> streams;
    for (const MqttStreamSpec &spec : old.layout.streams())
        streams << streamOf(spec);
    StreamDiffModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setComparison(old, streams);
    QCOMPARE(model.problemStreams(), 0);

    server.version = u"2.10.22"_s;
    model.setComparison(Layouts::choose({server}), streams);
    QCOMPARE(model.choice().layout.kind(), MqttLayout::Kind::V2_10);
    const int rmsgs = model.streamRow(MqttLayout::retainedStream());
    QCOMPARE(model.status(rmsgs), StreamDiffModel::Status::Differs);
    QVERIFY(model.diffText(rmsgs).contains(u"+subjects: [$MQTT.rmsgs.>]"_s));
    QCOMPARE(model.status(model.streamRow(MqttLayout::qos2InStream())), StreamDiffModel::Status::Missing);
}

QTEST_MAIN(TestStreamDiffModel)
#include "tst_streamdiffmodel.moc"
