// JsAckReply (StreamReader's parser of a delivered message's `$JS.ACK...` reply subject) against what
// nats.c's natsMsg_GetMetaData() makes of the same subjects: the real ones of every server version
// (with and without a JetStream domain), and hand-written malformed ones.
#include <nats/nats.h>

#include <QSet>
#include <QTest>

#include "natsserverfixture.h"
#include "nats/jsackreply.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;

namespace {

struct Raw
{
    natsConnection *nc = nullptr;
    jsCtx *js = nullptr;
    ~Raw()
    {
        jsCtx_Destroy(js);
        natsConnection_Destroy(nc);
    }
};

bool connectRaw(const NatsServerFixture &server, const char *domain, Raw &raw)
{
    natsOptions *opts = nullptr;
    if (natsOptions_Create(&opts) != NATS_OK)
        return false;
    natsOptions_SetURL(opts, server.url().toUtf8().constData());
    natsOptions_SetUserInfo(opts, "acme", "acmepass");
    const natsStatus s = natsConnection_Connect(&raw.nc, opts);
    natsOptions_Destroy(opts);
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.Domain = domain;
    return s == NATS_OK && natsConnection_JetStream(&raw.js, raw.nc, &jo) == NATS_OK;
}

} // namespace

class TestJsAckReply : public QObject
{
    Q_OBJECT

private slots:
    void realReplies_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("domain");
        for (const QString &label : NatsServerBinary::testVersionLabels())
            QTest::newRow(qPrintable(label)) << label << QString();
        QTest::newRow("newest, domain hub") << QStringLiteral("newest") << QStringLiteral("hub");
    }

    // Every message an ordered consumer delivers: the same stream sequence, time and pending count as nats.c reads.
    void realReplies()
    {
        QFETCH(QString, version);
        QFETCH(QString, domain);
        ServerConfig config = ServerConfig::standard();
        if (!domain.isEmpty())
            config.setJetStreamDomain(domain);
        NatsServerFixture server;
        QVERIFY2(server.start(version, config), qPrintable(server.errorString()));
        const QByteArray domainUtf8 = domain.toUtf8();
        Raw raw;
        QVERIFY(connectRaw(server, domain.isEmpty() ? nullptr : domainUtf8.constData(), raw));

        jsStreamConfig cfg;
        jsStreamConfig_Init(&cfg);
        cfg.Name = "ACKS";
        const char *subjects[] = {"acks.>"};
        cfg.Subjects = subjects;
        cfg.SubjectsLen = 1;
        cfg.Storage = js_FileStorage;
        QCOMPARE(js_AddStream(nullptr, raw.js, &cfg, nullptr, nullptr), NATS_OK);
        const int count = 40;
        for (int i = 0; i < count; ++i) {
            const QByteArray subject = "acks." + QByteArray::number(i % 7);
            QCOMPARE(js_Publish(nullptr, raw.js, subject.constData(), "x", 1, nullptr, nullptr), NATS_OK);
        }

        jsSubOptions so;
        jsSubOptions_Init(&so);
        so.Stream = "ACKS";
        so.Ordered = true;
        natsSubscription *sub = nullptr;
        QCOMPARE(js_SubscribeSync(&sub, raw.js, "acks.>", nullptr, &so, nullptr), NATS_OK);
        int seen = 0;
        QSet<int> forms; // token counts of the replies met
        for (; seen < count; ++seen) {
            natsMsg *m = nullptr;
            QCOMPARE(natsSubscription_NextMsg(&m, sub, 10000), NATS_OK);
            const char *reply = natsMsg_GetReply(m);
            QVERIFY(reply);
            forms.insert(int(QByteArray(reply).count('.')) + 1);
            jsMsgMetaData *md = nullptr;
            QCOMPARE(natsMsg_GetMetaData(&md, m), NATS_OK);
            JsAckReply ours;
            const bool parsed = JsAckReply::parse(reply, ours);
            const quint64 sequence = md->Sequence.Stream;
            const quint64 consumerSequence = md->Sequence.Consumer;
            const qint64 time = md->Timestamp;
            const quint64 pending = md->NumPending;
            jsMsgMetaData_Destroy(md);
            natsMsg_Destroy(m);
            QVERIFY2(parsed, reply);
            QCOMPARE(ours.streamSequence, sequence);
            QCOMPARE(ours.consumerSequence, consumerSequence);
            QCOMPARE(ours.consumerSequence, quint64(seen + 1));
            QCOMPARE(ours.timeNs, time);
            QCOMPARE(ours.pending, pending);
            QCOMPARE(ours.streamSequence, quint64(seen + 1));
            QCOMPARE(ours.pending, quint64(count - seen - 1));
            QVERIFY(ours.timeNs > 0);
        }
        natsSubscription_Unsubscribe(sub);
        natsSubscription_Destroy(sub);
        QCOMPARE(seen, count);
        // The servers of the matrix send the 9-token form (also with a domain); the 12-token form
        // is covered by the hand-written rows below.
        for (const int tokens : std::as_const(forms))
            QVERIFY2(tokens == 9 || tokens >= 12, qPrintable(QString::number(tokens)));
    }

    void handWritten_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<quint64>("sequence");
        QTest::addColumn<qint64>("time");
        QTest::addColumn<quint64>("pending");
        QTest::newRow("v1") << QByteArray("$JS.ACK.S.C.1.42.7.1700000000000000000.5") << true << quint64(42) << qint64(1700000000000000000)
                            << quint64(5);
        QTest::newRow("v2, no domain") << QByteArray("$JS.ACK._.ACCHASH.S.C.1.42.7.1700000000000000000.5.RND") << true << quint64(42)
                                       << qint64(1700000000000000000) << quint64(5);
        QTest::newRow("v2, domain, no random token")
            << QByteArray("$JS.ACK.hub.ACC.S.C.2.9.3.17.0") << true << quint64(9) << qint64(17) << quint64(0);
        QTest::newRow("v2, more tokens after") << QByteArray("$JS.ACK.hub.ACC.S.C.2.9.3.17.0.r.x.y") << true << quint64(9) << qint64(17)
                                               << quint64(0);
        QTest::newRow("largest int64") << QByteArray("$JS.ACK.S.C.1.9223372036854775807.7.1.0") << true << quint64(9223372036854775807ULL)
                                       << qint64(1) << quint64(0);
        QTest::newRow("int64 overflow") << QByteArray("$JS.ACK.S.C.1.9223372036854775808.7.1.0") << false << quint64(0) << qint64(0)
                                        << quint64(0);
        QTest::newRow("20 digits") << QByteArray("$JS.ACK.S.C.1.10000000000000000000.7.1.0") << false << quint64(0) << qint64(0)
                                   << quint64(0);
        QTest::newRow("8 tokens") << QByteArray("$JS.ACK.x.S.C.1.42.7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("6 tokens") << QByteArray("$JS.ACK.S.C.1.42.7.17") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("negative") << QByteArray("$JS.ACK.S.C.1.-42.7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("empty number") << QByteArray("$JS.ACK.S.C.1..7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("letter in number") << QByteArray("$JS.ACK.S.C.1.4a.7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("empty stream name") << QByteArray("$JS.ACK..C.1.42.7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("no prefix") << QByteArray("_INBOX.abc.S.C.1.42.7.17.5") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("prefix only") << QByteArray("$JS.ACK.") << false << quint64(0) << qint64(0) << quint64(0);
        QTest::newRow("empty") << QByteArray("") << false << quint64(0) << qint64(0) << quint64(0);
    }

    void handWritten()
    {
        QFETCH(QByteArray, reply);
        QFETCH(bool, ok);
        QFETCH(quint64, sequence);
        QFETCH(qint64, time);
        QFETCH(quint64, pending);
        JsAckReply r;
        r.streamSequence = 99; // unchanged on failure
        QCOMPARE(JsAckReply::parse(reply.constData(), r), ok);
        QCOMPARE(r.streamSequence, ok ? sequence : quint64(99));
        if (ok) {
            QCOMPARE(r.consumerSequence, sequence == 9 ? quint64(3) : quint64(7)); // the accepted rows have consumer sequence 3 or 7
            QCOMPARE(r.timeNs, time);
            QCOMPARE(r.pending, pending);
        }
        QVERIFY(!JsAckReply::parse(nullptr, r));
    }
};

QTEST_GUILESS_MAIN(TestJsAckReply)
#include "tst_jsackreply.moc"
