// JetStreamClient::parseReply (the body of every JetStream API reply) and MessageGetter::parseMessageGetReply (raw
// STREAM.MSG.GET by sequence), from real captures of nats-server 2.9.10, 2.10.27 and 2.15.1
// (tests/unit/data/jetstream/capture.py) and from broken or hostile bodies.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "nats/jetstreamclient.h"
#include "nats/messagegetter.h"

using namespace MqttDoctor;

namespace {

const QString kOp = QStringLiteral("STREAM.INFO.$MQTT_sess");
const QString kSubject = QStringLiteral("$JS.API.STREAM.INFO.$MQTT_sess");
const QStringList kVersions = {QStringLiteral("2.9.10"), QStringLiteral("2.10.27"), QStringLiteral("2.15.1")};

QString captureDir(const QString &version)
{
    return qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/jetstream/") + version;
}

QByteArray capture(const QString &version, const QString &name)
{
    QFile f(captureDir(version) + QLatin1Char('/') + name + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read captured reply: %s", qPrintable(f.fileName()));
    return f.readAll();
}

Result<QJsonObject> parse(const QByteArray &body)
{
    return JetStreamClient::parseReply(body, kOp, kSubject);
}

} // namespace

class TestJetStreamReply : public QObject
{
    Q_OBJECT

private slots:
    // Every successful reply the servers sent parses to the same object, and the callers' shape checks accept it.
    void realReplies_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("name");
        for (const QString &v : kVersions) {
            const QStringList files = QDir(captureDir(v)).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
            if (files.size() < 10)
                qFatal("captured replies missing in %s", qPrintable(captureDir(v)));
            for (const QString &file : files)
                if (!file.startsWith(QLatin1String("error-")))
                    QTest::addRow("%s %s", qPrintable(v), qPrintable(file)) << v << file.chopped(5);
        }
    }
    void realReplies()
    {
        QFETCH(QString, version);
        QFETCH(QString, name);
        const auto r = parse(capture(version, name));
        QVERIFY2(r, r ? "" : qPrintable(r.error().message()));
        QVERIFY(r->value(QLatin1String("type")).toString().startsWith(QLatin1String("io.nats.jetstream.api.v1.")));
        if (name.startsWith(QLatin1String("stream-info-")))
            QVERIFY(JetStreamClient::checkStreamInfo(*r, kOp));
        if (name == QLatin1String("stream-list")) {
            const QJsonArray streams = r->value(QLatin1String("streams")).toArray();
            QCOMPARE(streams.size(), r->value(QLatin1String("total")).toInt());
            QVERIFY(streams.size() >= 3);
            for (const QJsonValue &s : streams)
                QVERIFY(JetStreamClient::checkStreamInfo(s.toObject(), QStringLiteral("STREAM.LIST")));
        }
        if (name == QLatin1String("consumer-info"))
            QVERIFY(JetStreamClient::checkConsumerInfo(*r, QStringLiteral("CONSUMER.INFO")));
        if (name == QLatin1String("consumer-list-msgs")) {
            const QJsonArray consumers = r->value(QLatin1String("consumers")).toArray();
            QCOMPARE(consumers.size(), 1);
            QVERIFY(JetStreamClient::checkConsumerInfo(consumers.first().toObject(), QStringLiteral("CONSUMER.LIST")));
        }
    }

    // The error replies the servers sent: kind, err_code, the server's description and code in the message.
    void realErrors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<Error::Kind>("kind");
        QTest::addColumn<int>("errCode");
        QTest::addColumn<QString>("description");
        QTest::newRow("stream not found") << u"error-stream-not-found"_qs << Error::Kind::NotFound << 10059 << u"stream not found"_qs;
        QTest::newRow("consumer not found") << u"error-consumer-not-found"_qs << Error::Kind::NotFound << 10014 << u"consumer not found"_qs;
        QTest::newRow("no message") << u"error-no-message"_qs << Error::Kind::NotFound << 10037 << u"no message found"_qs;
        QTest::newRow("overlap") << u"error-overlap"_qs << Error::Kind::JetStream << 10065
                                 << u"subjects overlap with an existing stream"_qs;
        QTest::newRow("bad request") << u"error-bad-request"_qs << Error::Kind::JetStream << 10025 << u"invalid JSON"_qs;
        QTest::newRow("name mismatch") << u"error-name-mismatch"_qs << Error::Kind::JetStream << 10056
                                       << u"stream name in subject does not match request"_qs;
        QTest::newRow("not enabled") << u"error-jetstream-not-enabled"_qs << Error::Kind::JetStream << 10039
                                     << u"JetStream not enabled for account"_qs;
    }
    void realErrors()
    {
        QFETCH(QString, name);
        QFETCH(Error::Kind, kind);
        QFETCH(int, errCode);
        QFETCH(QString, description);
        for (const QString &v : kVersions) {
            const auto r = parse(capture(v, name));
            QVERIFY2(!r, qPrintable(v));
            QCOMPARE(r.error().kind(), kind);
            QCOMPARE(r.error().jsErrCode(), errCode);
            QVERIFY2(r.error().message().startsWith(QStringLiteral("JetStream %1 failed: %2").arg(kOp, description)),
                     qPrintable(r.error().message()));
            QVERIFY2(r.error().message().endsWith(QStringLiteral(" (%1)").arg(errCode)), qPrintable(r.error().message()));
            QCOMPARE(r.error().hint().isEmpty(), errCode != 10039);
        }
    }

    // Bodies no nats-server sends: each is a clear error naming the request, never a crash or a success.
    void brokenReplies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<Error::Kind>("kind");
        QTest::addColumn<int>("errCode");
        QTest::addColumn<QString>("message");
        const Error::Kind protocol = Error::Kind::Protocol;
        const Error::Kind js = Error::Kind::JetStream;
        const QString malformed = QStringLiteral("JetStream STREAM.INFO.$MQTT_sess: malformed reply: ");
        const QString failed = QStringLiteral("JetStream STREAM.INFO.$MQTT_sess failed: ");
        QTest::newRow("empty") << QByteArray() << protocol << 0 << malformed + u"the reply on $JS.API.STREAM.INFO.$MQTT_sess is empty"_qs;
        QTest::newRow("blank") << QByteArray(" \r\n\t") << protocol << 0
                               << malformed + u"the reply on $JS.API.STREAM.INFO.$MQTT_sess is empty"_qs;
        QTest::newRow("not JSON") << QByteArray("<html>502</html>") << protocol << 0
                                  << malformed + u"the reply is not JSON (illegal value at offset 1): <html>502</html>"_qs;
        QTest::newRow("truncated") << QByteArray("{\"type\":\"io.nats") << protocol << 0
                                   << malformed + u"the reply is not JSON (unterminated string at offset 17): {\"type\":\"io.nats"_qs;
        // Qt's parser takes only an object or an array at the top level: a bare null is not JSON to it.
        QTest::newRow("null") << QByteArray("null") << protocol << 0
                              << malformed + u"the reply is not JSON (illegal value at offset 1): null"_qs;
        QTest::newRow("number") << QByteArray("42") << protocol << 0
                                << malformed + u"the reply is not JSON (illegal value at offset 1): 42"_qs;
        QTest::newRow("array") << QByteArray("[{\"error\":{\"code\":404}}]") << protocol << 0
                               << malformed + u"the reply is an array, not a JSON object: [{\"error\":{\"code\":404}}]"_qs;
        QTest::newRow("error null") << QByteArray("{\"error\":null}") << protocol << 0
                                    << malformed + u"\"error\" is null, not an object: {\"error\":null}"_qs;
        QTest::newRow("error string") << QByteArray("{\"error\":\"stream not found\"}") << protocol << 0
                                      << malformed + u"\"error\" is a string, not an object: {\"error\":\"stream not found\"}"_qs;
        QTest::newRow("error array") << QByteArray("{\"error\":[10059]}") << protocol << 0
                                     << malformed + u"\"error\" is an array, not an object: {\"error\":[10059]}"_qs;
        QTest::newRow("unknown code") << QByteArray("{\"error\":{\"code\":599,\"err_code\":19999,\"description\":\"something new\"}}") << js
                                      << 19999 << failed + u"something new (19999)"_qs;
        QTest::newRow("no description") << QByteArray("{\"error\":{\"code\":500,\"err_code\":10077}}") << js << 10077
                                        << failed + u"the server gave no description (10077)"_qs;
        QTest::newRow("only code") << QByteArray("{\"error\":{\"code\":503,\"description\":\"busy\"}}") << js << 0
                                   << failed + u"busy (503)"_qs;
        QTest::newRow("empty error") << QByteArray("{\"error\":{}}") << js << 0
                                     << failed + u"the server gave no description (no error code)"_qs;
        QTest::newRow("codes as strings") << QByteArray("{\"error\":{\"code\":\"404\",\"err_code\":\"10059\",\"description\":7}}") << js
                                          << 0 << failed + u"the server gave no description (no error code)"_qs;
        // Codes outside int range are garbage: they never reach the int fields, nor the kind (10059 would be NotFound).
        QTest::newRow("huge codes") << QByteArray("{\"error\":{\"code\":1e300,\"err_code\":4294977355,\"description\":\"x\"}}") << js << 0
                                    << failed + u"x (no error code)"_qs;
        QTest::newRow("negative codes") << QByteArray("{\"error\":{\"code\":-404,\"err_code\":-10059,\"description\":\"x\"}}") << js << 0
                                        << failed + u"x (no error code)"_qs;
        QTest::newRow("fractional code") << QByteArray("{\"error\":{\"err_code\":10059.5,\"description\":\"x\"}}") << js << 0
                                         << failed + u"x (no error code)"_qs;
        // Qt refuses a number beyond double range: the whole reply is malformed.
        QTest::newRow("code beyond double") << QByteArray("{\"error\":{\"err_code\":1e999,\"description\":\"x\"}}") << protocol << 0
                                            << malformed
                + u"the reply is not JSON (illegal number at offset 26): {\"error\":{\"err_code\":1e999,\"description\":\"x\"}}"_qs;
    }
    void brokenReplies()
    {
        QFETCH(QByteArray, body);
        QFETCH(Error::Kind, kind);
        QFETCH(int, errCode);
        QFETCH(QString, message);
        const auto r = parse(body);
        QVERIFY(!r);
        QCOMPARE(r.error().message(), message);
        QCOMPARE(r.error().kind(), kind);
        QCOMPARE(r.error().jsErrCode(), errCode);
        if (kind == Error::Kind::Protocol)
            QVERIFY(r.error().hint().contains(QLatin1String("$JS.API")));
    }

    // A long reply is quoted only in part; a long description is cut: messages stay one readable line.
    void longRepliesAreCut()
    {
        const QByteArray garbage = QByteArray("not json ") + QByteArray(100000, 'x');
        auto r = parse(garbage);
        QVERIFY(!r);
        QVERIFY2(r.error().message().endsWith(QStringLiteral("... (%1 bytes)").arg(garbage.size())), qPrintable(r.error().message()));
        QVERIFY(r.error().message().size() < 300);

        const QByteArray longDescription = "{\"error\":{\"err_code\":10065,\"description\":\"" + QByteArray(5000, 'd') + "\"}}";
        r = parse(longDescription);
        QVERIFY(!r);
        QCOMPARE(r.error().jsErrCode(), 10065);
        QCOMPARE(r.error().message(), QStringLiteral("JetStream %1 failed: %2 (10065)").arg(kOp, QString(500, QLatin1Char('d'))));
    }

    // A success keeps every field, also the ones this tool does not know (read-modify-write keeps them).
    void successKeepsUnknownFields()
    {
        const auto r = parse("{\"config\":{\"name\":\"$MQTT_sess\",\"future_field\":{\"a\":[1,2]}},\"state\":{},\"huge\":1e300}");
        QVERIFY(r);
        QCOMPARE(r->value(QLatin1String("config"))
                     .toObject()
                     .value(QLatin1String("future_field"))
                     .toObject()
                     .value(QLatin1String("a"))
                     .toArray()
                     .size(),
                 2);
        QCOMPARE(r->value(QLatin1String("huge")).toDouble(), 1e300);
    }

    // The real MSG.GET replies: a session record with its header block, and "no message found" as a deleted sequence.
    void messageGetReplies()
    {
        for (const QString &v : kVersions) {
            const QByteArray body = capture(v, QStringLiteral("msg-get-sess"));
            const QJsonObject message = QJsonDocument::fromJson(body).object().value(QLatin1String("message")).toObject();
            const quint64 seq = quint64(message.value(QLatin1String("seq")).toInteger());
            const auto m = MessageGetter::parseMessageGetReply(body, QStringLiteral("$MQTT_sess"), seq);
            QVERIFY2(m, m ? "" : qPrintable(m.error().message()));
            QCOMPARE(m->sequence, seq);
            QVERIFY(!m->deleted);
            QVERIFY(m->subject.startsWith(QLatin1String("$MQTT.sess.")));
            QVERIFY(m->headers.startsWith("NATS/1.0\r\n"));
            QVERIFY(m->data.startsWith("{\"origin\":"));
            QCOMPARE(m->timeNs, MessageGetter::parseTimeNs(message.value(QLatin1String("time")).toString()));
            QVERIFY(m->timeNs > 1'700'000'000LL * 1'000'000'000LL);

            const auto gone =
                MessageGetter::parseMessageGetReply(capture(v, QStringLiteral("error-no-message")), QStringLiteral("$MQTT_sess"), 999999);
            QVERIFY(gone);
            QVERIFY(gone->deleted);
            QCOMPARE(gone->sequence, quint64(999999));
            QVERIFY(gone->subject.isEmpty() && gone->data.isEmpty());
        }
    }

    void brokenMessageGetReplies_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<Error::Kind>("kind");
        QTest::addColumn<QString>("message");
        const QString malformed = QStringLiteral("JetStream STREAM.MSG.GET.$MQTT_sess: malformed reply: ");
        QTest::newRow("not JSON") << QByteArray("<html>502</html>") << Error::Kind::Protocol
                                  << malformed + u"the reply for sequence 7 is not a JSON object: <html>502</html>"_qs;
        QTest::newRow("array") << QByteArray("[]") << Error::Kind::Protocol
                               << malformed + u"the reply for sequence 7 is not a JSON object: []"_qs;
        QTest::newRow("neither") << QByteArray("{\"type\":\"x\"}") << Error::Kind::Protocol
                                 << malformed
                + u"the reply for sequence 7 holds neither a message object nor an error: {\"type\":\"x\"}"_qs;
        QTest::newRow("error string") << QByteArray("{\"error\":\"gone\"}") << Error::Kind::Protocol
                                      << malformed + u"\"error\" is not an object"_qs;
        QTest::newRow("other sequence") << QByteArray("{\"message\":{\"subject\":\"a\",\"seq\":8}}") << Error::Kind::Protocol
                                        << malformed + u"asked for sequence 7, the reply holds sequence 8"_qs;
        QTest::newRow("huge sequence") << QByteArray("{\"message\":{\"subject\":\"a\",\"seq\":1e300}}") << Error::Kind::Protocol
                                       << malformed + u"asked for sequence 7, the reply holds sequence 1e+300"_qs;
        QTest::newRow("no subject") << QByteArray("{\"message\":{\"seq\":7}}") << Error::Kind::Protocol
                                    << malformed + u"asked for sequence 7, the reply holds a message without a subject"_qs;
        QTest::newRow("stream gone") << QByteArray("{\"error\":{\"code\":404,\"err_code\":10059,\"description\":\"stream not found\"}}")
                                     << Error::Kind::NotFound << u"JetStream STREAM.MSG.GET.$MQTT_sess failed: stream not found (10059)"_qs;
    }
    void brokenMessageGetReplies()
    {
        QFETCH(QByteArray, body);
        QFETCH(Error::Kind, kind);
        QFETCH(QString, message);
        const auto m = MessageGetter::parseMessageGetReply(body, QStringLiteral("$MQTT_sess"), 7);
        QVERIFY(!m);
        QCOMPARE(m.error().message(), message);
        QCOMPARE(m.error().kind(), kind);
    }
};

QTEST_GUILESS_MAIN(TestJetStreamReply)
#include "tst_jetstreamreply.moc"
