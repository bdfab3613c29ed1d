// Loading MQTT state at scale: 100,000 session records in a `$MQTT_sess`-shaped stream and 10,000
// retained messages (2.9 JSON encoding on one subject, and the 2.11+ header encoding per subject),
// each read (1) by a minimal raw nats.c ordered consumer that only counts (the physical baseline,
// verified-environment.md §C) and (2) by our loader: StreamReader + record decoding + the value list
// a model would hold. Every read runs in a fresh child process so its peak RSS (VmHWM) is its own.
// Prints figures against the targets; asserts nothing.
//
//   bench_sessionload [--records N] [--retained N] [--runs R] [--server 2.9|2.10|newest]
//                     [--modes baseline,baseline-all,ours,reader] [--decode-threads N (0: inline, default 1)]
// baseline: DeliverLastPerSubject (DeliverAll for 2.9's single-subject retained stream), as
// verified-environment.md §C; baseline-all: DeliverAll on the last-per-subject workloads (what
// StreamReader uses when the stream keeps one message per subject); reader: StreamReader keeping
// the undecoded values (no decoding), to separate reading from decoding.
#include <nats/nats.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <cstdio>
#include <cstring>

#include <QCoreApplication>
#include <QFuture>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

#include "natsserverfixture.h"
#include "mqtt/clientidhash.h"
#include "mqtt/retainedrecord.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/storedmessage.h"
#include "nats/natsconnection.h"
#include "nats/streamreader.h"

using namespace MqttDoctor;

namespace {

constexpr const char *User = "acme";
constexpr const char *Password = "acmepass";

struct Workload
{
    const char *key;         // child argument
    const char *title;
    const char *stream;
    const char *filter;
    bool lastPerSubject;
};

const Workload Workloads[] = {
    {"sess", "session records ($MQTT_sess, last per subject)", "$MQTT_sess", "$MQTT.sess.>", true},
    {"rjson", "retained, JSON encoding (2.9 layout: one subject, all)", "$MQTT_rmsgs", "$MQTT.rmsgs", false},
    {"rhdr", "retained, header encoding (2.11+ layout: per subject)", "RMSGS_HDR", "$MQTT.rmsgs.>", true},
};

qint64 vmHwmKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

// ~300 bytes, like a real record with one QoS1 subscription (verified-environment.md A.2).
QByteArray sessionRecord(const QByteArray &clientId, const QByteArray &hash, int i)
{
    const QByteArray n = QByteArray::number(i);
    return "{\"origin\":\"DiAi4bSi\",\"id\":\"" + clientId + "\",\"subs\":{\"sensors.*.temp\":1},"
           "\"cons\":{\"sensors.*.temp\":{\"durable_name\":\"" + hash + "_VLQy5y60qFRsGvLlBv" + n.rightJustified(6, '0')
           + "\",\"deliver_policy\":\"new\",\"ack_policy\":\"explicit\",\"ack_wait\":30000000000,"
             "\"filter_subject\":\"$MQTT.msgs.sensors.*.temp\",\"replay_policy\":\"instant\",\"max_ack_pending\":1024,"
             "\"deliver_subject\":\"$MQTT.sub.VLQy5y60qFRsGvLlBvebjS\",\"num_replicas\":0}}}";
}

bool check(natsStatus s, const char *what)
{
    if (s == NATS_OK)
        return true;
    std::fprintf(stderr, "%s: %s\n", what, natsStatus_GetText(s));
    return false;
}

natsConnection *rawConnect(const QByteArray &url)
{
    natsOptions *opts = nullptr;
    natsConnection *nc = nullptr;
    if (!check(natsOptions_Create(&opts), "options"))
        return nullptr;
    natsOptions_SetURL(opts, url.constData());
    natsOptions_SetUserInfo(opts, User, Password);
    natsOptions_SetTimeout(opts, 10000);
    const natsStatus s = natsConnection_Connect(&nc, opts);
    natsOptions_Destroy(opts);
    return check(s, "connect") ? nc : nullptr;
}

// ---- fill (parent) ----

bool addStream(jsCtx *js, const char *name, const char *subject, int64_t maxPerSubject)
{
    jsStreamConfig cfg;
    jsStreamConfig_Init(&cfg);
    cfg.Name = name;
    const char *subjects[] = {subject};
    cfg.Subjects = subjects;
    cfg.SubjectsLen = 1;
    cfg.Storage = js_FileStorage;
    cfg.Retention = js_LimitsPolicy;
    cfg.MaxMsgsPerSubject = maxPerSubject;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    return check(js_AddStream(nullptr, js, &cfg, nullptr, &jerr), name);
}

bool fill(const QByteArray &url, int records, int retained)
{
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return false;
    jsOptions jo;
    jsOptions_Init(&jo);
    jo.PublishAsync.MaxPending = 4096;
    jsCtx *js = nullptr;
    if (!check(natsConnection_JetStream(&js, nc, &jo), "jetstream"))
        return false;
    bool ok = addStream(js, "$MQTT_sess", "$MQTT.sess.>", 1) && addStream(js, "$MQTT_rmsgs", "$MQTT.rmsgs", -1)
              && addStream(js, "RMSGS_HDR", "$MQTT.rmsgs.>", 1);
    QElapsedTimer t;
    t.start();
    for (int i = 0; ok && i < records; ++i) {
        const QByteArray id = "client-" + QByteArray::number(i).rightJustified(8, '0');
        const QByteArray hash = ClientIdHash::hash(QString::fromLatin1(id)).toLatin1();
        const QByteArray subject = "$MQTT.sess." + hash;
        const QByteArray body = sessionRecord(id, hash, i);
        natsMsg *m = nullptr;
        ok = check(natsMsg_Create(&m, subject.constData(), nullptr, body.constData(), int(body.size())), "msg");
        // Saves after the first carry the optimistic lock header; 0 = "no message on the subject yet".
        natsMsgHeader_Set(m, "Nats-Expected-Last-Subject-Sequence", "0");
        ok = ok && check(js_PublishMsgAsync(js, &m, nullptr), "publish session");
        if (m)
            natsMsg_Destroy(m);
    }
    for (int i = 0; ok && i < retained; ++i) {
        const QByteArray topic = "sensors/room" + QByteArray::number(i) + "/temp";
        QByteArray natsSubject = topic;
        natsSubject.replace('/', '.');
        const QByteArray payload = "{\"celsius\":" + QByteArray::number(15 + i % 20) + ".5,\"sensor\":" + QByteArray::number(i) + "}";
        const QByteArray json = "{\"origin\":\"DiAi4bSi\",\"subject\":\"" + natsSubject + "\",\"topic\":\"" + topic
                                + "\",\"msg\":\"" + payload.toBase64() + "\",\"flags\":3,\"source\":\"acme\"}";
        ok = check(js_PublishAsync(js, "$MQTT.rmsgs", json.constData(), int(json.size()), nullptr), "publish retained json");
        const QByteArray hdrSubject = "$MQTT.rmsgs." + natsSubject;
        natsMsg *m = nullptr;
        ok = ok && check(natsMsg_Create(&m, hdrSubject.constData(), nullptr, payload.constData(), int(payload.size())), "msg");
        natsMsgHeader_Set(m, "Nmqtt-RTopic", topic.constData());
        natsMsgHeader_Set(m, "Nmqtt-RFlags", "3");
        natsMsgHeader_Set(m, "Nmqtt-ROrigin", "DiAi4bSi");
        natsMsgHeader_Set(m, "Nmqtt-RSource", "acme");
        ok = ok && check(js_PublishMsgAsync(js, &m, nullptr), "publish retained headers");
        if (m)
            natsMsg_Destroy(m);
    }
    jsPubOptions po;
    jsPubOptions_Init(&po);
    po.MaxWait = 120000;
    ok = ok && check(js_PublishAsyncComplete(js, &po), "publish complete");
    const double s = double(t.nsecsElapsed()) / 1e9;
    std::printf("fill: %d session records + 2 x %d retained in %.2f s (%.0f msgs/s, js_PublishAsync, 4096 pending)\n",
                records, retained, s, double(records + 2 * retained) / s);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    return ok;
}

// ---- children: one read each, one RESULT line ----

struct Figures
{
    qint64 records = 0;
    qint64 decoded = 0;
    qint64 bytes = 0;
    double seconds = 0;
    double first1000ms = -1;
    qint64 rssBeforeKiB = 0;
    qint64 hwmKiB = 0;
};

void printResult(const Figures &f)
{
    std::printf("RESULT {\"records\":%lld,\"decoded\":%lld,\"bytes\":%lld,\"seconds\":%.6f,\"first1000ms\":%.3f,"
                "\"rssBeforeKiB\":%lld,\"hwmKiB\":%lld}\n",
                f.records, f.decoded, f.bytes, f.seconds, f.first1000ms, f.rssBeforeKiB, f.hwmKiB);
    std::fflush(stdout);
}

int runBaseline(const QByteArray &url, const Workload &w, bool deliverAll)
{
    Figures f;
    natsConnection *nc = rawConnect(url);
    if (!nc)
        return 1;
    jsCtx *js = nullptr;
    natsConnection_JetStream(&js, nc, nullptr);
    f.rssBeforeKiB = vmHwmKiB();
    QElapsedTimer t;
    t.start();
    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Stream = w.stream;
    so.Ordered = true;
    so.Config.DeliverPolicy = w.lastPerSubject && !deliverAll ? js_DeliverLastPerSubject : js_DeliverAll;
    natsSubscription *sub = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    if (!check(js_SubscribeSync(&sub, js, w.filter, nullptr, &so, &jerr), "subscribe"))
        return 1;
    natsSubscription_SetPendingLimits(sub, -1, -1);
    for (;;) {
        natsMsg *m = nullptr;
        if (!check(natsSubscription_NextMsg(&m, sub, 10000), "next"))
            return 1;
        jsMsgMetaData *md = nullptr;
        natsMsg_GetMetaData(&md, m);
        const uint64_t pending = md ? md->NumPending : 0;
        jsMsgMetaData_Destroy(md);
        f.bytes += natsMsg_GetDataLength(m);
        natsMsg_Destroy(m);
        if (++f.records == 1000)
            f.first1000ms = double(t.nsecsElapsed()) / 1e6;
        if (pending == 0)
            break;
    }
    f.seconds = double(t.nsecsElapsed()) / 1e9;
    f.hwmKiB = vmHwmKiB();
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    printResult(f);
    return 0;
}

int runOurs(const QString &url, const Workload &w, bool decode, int decodeThreads)
{
    Figures f;
    ConnectionSettings settings;
    settings.servers = {url};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = QString::fromLatin1(User);
    settings.credentials.password = QString::fromLatin1(Password);
    settings.timeoutMs = 10000;
    auto nc = NatsConnection::connect(settings);
    if (!nc) {
        std::fprintf(stderr, "%s\n", qPrintable(nc.error().toString()));
        return 1;
    }
    const bool sessions = std::strcmp(w.key, "sess") == 0;
    QList<SessionRecord> sessionList;  // what a sessions model would hold
    QList<RetainedRecord> retainedList;
    QList<StreamMessage> messageList;  // reader only: the undecoded values
    struct Decoded
    {
        QList<SessionRecord> sessions;
        QList<RetainedRecord> retained;
        int failures = 0;
    };
    QThreadPool pool;
    std::deque<QFuture<Decoded>> pending;
    int batchIndex = 0;
    std::atomic<qint64> firstDecodedNs{0};
    int failures = 0;
    auto collect = [&](bool wait) {
        while (!pending.empty() && (wait || pending.front().isFinished())) {
            Decoded d = pending.front().result();
            pending.pop_front();
            sessionList.append(std::move(d.sessions));
            retainedList.append(std::move(d.retained));
            failures += d.failures;
        }
    };
    StreamReader reader(*nc);
    const QString stream = QString::fromLatin1(w.stream);
    f.rssBeforeKiB = vmHwmKiB();
    QElapsedTimer t;
    t.start();
    auto decodeBatch = [&t, &firstDecodedNs, stream, sessions](QList<StreamMessage> in, bool firstBatch) {
            Decoded out;
            for (StreamMessage &m : in) {
                StoredMessage stored;
                stored.stream = stream;
                stored.subject = std::move(m.subject);
                stored.seq = m.sequence;
                stored.headers = std::move(m.headers);
                stored.data = std::move(m.data);
                if (sessions) {
                    auto r = SessionRecord::decode(stored);
                    if (r)
                        out.sessions.append(std::move(r).value());
                    else
                        ++out.failures;
                } else {
                    auto r = RetainedRecord::decode(stored);
                    if (r)
                        out.retained.append(std::move(r).value());
                    else
                        ++out.failures;
                }
            }
            if (firstBatch)
                firstDecodedNs = t.nsecsElapsed();
            return out;
    };
    if (decodeThreads > 0)
        pool.setMaxThreadCount(decodeThreads);
    auto onBatch = [&](QList<StreamMessage> &&batch, const ReadProgress &progress) {
        if (!decode) {
            if (messageList.isEmpty())
                messageList.reserve(qsizetype(progress.total));
            for (const StreamMessage &m : batch)
                f.bytes += m.data.size();
            f.records += batch.size();
            messageList.append(std::move(batch));
            f.decoded = messageList.size();
            if (f.first1000ms < 0 && f.decoded >= 1000)
                f.first1000ms = double(t.nsecsElapsed()) / 1e6;
            return true;
        }
        // Decoding runs on a pool while the reader keeps reading, as a loader does; the value lists
        // are appended in stream order as batches finish.
        if (batchIndex == 0) {
            sessionList.reserve(sessions ? qsizetype(progress.total) : 0);  // the total is known from the first batch
            retainedList.reserve(sessions ? 0 : qsizetype(progress.total));
        }
        f.records += batch.size();
        for (const StreamMessage &m : batch)
            f.bytes += m.data.size();
        const bool firstBatch = batchIndex++ == 0;
        if (decodeThreads == 0) {
            pending.push_back(QtFuture::makeReadyFuture(decodeBatch(std::move(batch), firstBatch)));
        } else {
            pending.push_back(QtConcurrent::run(&pool, decodeBatch, std::move(batch), firstBatch));
        }
        collect(false);
        return true;
    };
    const QString filter = QString::fromLatin1(w.filter);
    auto r = w.lastPerSubject ? reader.readLastPerSubject(stream, filter, {}, onBatch)
                              : reader.readAll(stream, filter, {}, onBatch);
    if (!r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        return 1;
    }
    collect(true);
    f.seconds = double(t.nsecsElapsed()) / 1e9;
    if (decode) {
        f.decoded = sessions ? sessionList.size() : retainedList.size();
        if (f.decoded >= 1000)
            f.first1000ms = double(firstDecodedNs.load()) / 1e6;
    }
    f.hwmKiB = vmHwmKiB();
    printResult(f);
    return 0;
}

// ---- parent ----

int g_decodeThreads = 1;

QJsonObject runChild(const QString &mode, const QString &url, const Workload &w)
{
    QProcess p;
    p.start(QCoreApplication::applicationFilePath(),
            {QStringLiteral("--child"), mode, QStringLiteral("--url"), url, QStringLiteral("--workload"),
             QString::fromLatin1(w.key), QStringLiteral("--decode-threads"), QString::number(g_decodeThreads)});
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        std::fprintf(stderr, "child %s %s failed: %s\n", qPrintable(mode), w.key, p.readAllStandardError().constData());
        return {};
    }
    for (const QByteArray &line : p.readAllStandardOutput().split('\n'))
        if (line.startsWith("RESULT "))
            return QJsonDocument::fromJson(line.mid(7)).object();
    return {};
}

double median(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Series
{
    QList<double> rate, first, hwmMiB, deltaMiB;
    double records = 0, decoded = 0, bytes = 0;
    void add(const QJsonObject &o)
    {
        records = o.value(QLatin1String("records")).toDouble();
        decoded = o.value(QLatin1String("decoded")).toDouble();
        bytes = o.value(QLatin1String("bytes")).toDouble();
        rate << records / o.value(QLatin1String("seconds")).toDouble();
        first << o.value(QLatin1String("first1000ms")).toDouble();
        hwmMiB << o.value(QLatin1String("hwmKiB")).toDouble() / 1024;
        deltaMiB << (o.value(QLatin1String("hwmKiB")).toDouble() - o.value(QLatin1String("rssBeforeKiB")).toDouble()) / 1024;
    }
    QString runs() const
    {
        QStringList s;
        for (double r : rate)
            s << QString::number(qRound64(r));
        return s.join(QStringLiteral(", "));
    }
};

int runParent(int records, int retained, int runs, const QString &version, const QStringList &modes)
{
    MqttDoctor::Test::NatsServerFixture server;
    if (!server.start(version)) {
        std::fprintf(stderr, "cannot start nats-server %s: %s\n", qPrintable(version), qPrintable(server.errorString()));
        return 1;
    }
    std::printf("nats-server %s at %s (file store), %d runs per figure (median), each read in a fresh process\n",
                qPrintable(server.binary().version()), qPrintable(server.url()), runs);
    if (!fill(server.url().toUtf8(), records, retained))
        return 1;
    {
        // Decoding alone, one thread, no network: what the codec costs per record.
        QList<StoredMessage> input;
        input.reserve(records);
        for (int i = 0; i < records; ++i) {
            const QByteArray id = "client-" + QByteArray::number(i).rightJustified(8, '0');
            const QByteArray hash = ClientIdHash::hash(QString::fromLatin1(id)).toLatin1();
            StoredMessage m;
            m.stream = QStringLiteral("$MQTT_sess");
            m.subject = QStringLiteral("$MQTT.sess.") + QString::fromLatin1(hash);
            m.seq = quint64(i + 1);
            m.headers = "NATS/1.0\r\nNats-Expected-Last-Subject-Sequence:0\r\n\r\n";
            m.data = sessionRecord(id, hash, i);
            input.append(m);
        }
        QElapsedTimer t;
        t.start();
        qsizetype ok = 0;
        for (const StoredMessage &m : std::as_const(input))
            ok += SessionRecord::decode(m).ok() ? 1 : 0;
        const double s = double(t.nsecsElapsed()) / 1e9;
        std::printf("SessionRecord::decode alone (one thread, in memory): %lld records in %.2f s = %.0f records/s (%.1f us each)\n",
                    static_cast<long long>(ok), s, double(records) / s, s * 1e6 / records);
    }

    for (const Workload &w : Workloads) {
        Series base, baseAll, ours, readerOnly;
        for (int i = 0; i < runs; ++i) {
            for (const QString &mode : modes) {
                if (mode == QLatin1String("baseline-all") && !w.lastPerSubject)
                    continue;
                const QJsonObject o = runChild(mode, server.url(), w);
                if (o.isEmpty())
                    return 1;
                (mode == QLatin1String("baseline")       ? base
                 : mode == QLatin1String("baseline-all") ? baseAll
                 : mode == QLatin1String("ours")         ? ours
                                                         : readerOnly)
                    .add(o);
            }
        }
        const double ratio = median(ours.rate) / median(base.rate);
        const double rawMiB = base.bytes / (1024.0 * 1024.0);
        const double memTarget = 2 * rawMiB + 80;
        std::printf("\n== %s: %.0f records, %.1f MiB raw record bytes\n", w.title, base.records, rawMiB);
        std::printf("  raw nats.c ordered consumer (count only): %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB (+%.1f while reading)\n",
                    median(base.rate), qPrintable(base.runs()), median(base.first), median(base.hwmMiB), median(base.deltaMiB));
        if (!baseAll.rate.isEmpty())
            std::printf("  raw nats.c ordered consumer, DeliverAll:  %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  "
                        "(the policy StreamReader picks for a max_msgs_per_subject=1 stream: same records)\n",
                        median(baseAll.rate), qPrintable(baseAll.runs()), median(baseAll.first));
        std::printf("  ours (StreamReader + decode + list):      %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB (+%.1f while reading)\n",
                    median(ours.rate), qPrintable(ours.runs()), median(ours.first), median(ours.hwmMiB), median(ours.deltaMiB));
        std::printf("  (StreamReader alone, values kept):   %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB (+%.1f while reading)\n",
                    median(readerOnly.rate), qPrintable(readerOnly.runs()), median(readerOnly.first), median(readerOnly.hwmMiB),
                    median(readerOnly.deltaMiB));
        std::printf("  decoded %.0f of %.0f (decode threads: %s); StreamReader alone / raw: %.0f%%%s\n",
                    ours.decoded, ours.records, g_decodeThreads == 0 ? "none, inline on the reading thread" : qPrintable(QString::number(g_decodeThreads) + QStringLiteral(" pool thread(s) while reading")), 100 * median(readerOnly.rate) / median(base.rate),
                    baseAll.rate.isEmpty() ? ""
                                           : qPrintable(QStringLiteral(" (vs raw DeliverAll: %1%)")
                                                            .arg(qRound(100 * median(readerOnly.rate) / median(baseAll.rate)))));
        std::printf("  ratio ours/raw: %.0f%% (target >= 80%%: %s); first 1000 records %.1f ms (target < 300 ms: %s); "
                    "peak RSS %.1f MiB (target < 2 x %.1f + 80 = %.1f MiB: %s)\n",
                    ratio * 100, ratio >= 0.8 ? "met" : "NOT met", median(ours.first),
                    median(ours.first) < 300 ? "met" : "NOT met", median(ours.hwmMiB), rawMiB, memTarget,
                    median(ours.hwmMiB) < memTarget ? "met" : "NOT met");
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    auto option = [&](const char *name, const QString &fallback) {
        const qsizetype i = args.indexOf(QString::fromLatin1(name));
        return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : fallback;
    };
    int rc = 0;
    const QString child = option("--child", {});
    if (!child.isEmpty()) {
        const QString key = option("--workload", {});
        const QString url = option("--url", {});
        const Workload *w = nullptr;
        for (const Workload &candidate : Workloads)
            if (key == QLatin1String(candidate.key))
                w = &candidate;
        if (!w)
            return 2;
        rc = child.startsWith(QLatin1String("baseline"))
                 ? runBaseline(url.toUtf8(), *w, child == QLatin1String("baseline-all"))
                 : runOurs(url, *w, child == QLatin1String("ours"), option("--decode-threads", QStringLiteral("1")).toInt());
    } else {
        g_decodeThreads = option("--decode-threads", QStringLiteral("1")).toInt();
        rc = runParent(option("--records", QStringLiteral("100000")).toInt(), option("--retained", QStringLiteral("10000")).toInt(),
                       std::max(1, option("--runs", QStringLiteral("3")).toInt()), option("--server", QStringLiteral("2.9")),
                       option("--modes", QStringLiteral("baseline,baseline-all,ours,reader")).split(QLatin1Char(',')));
    }
    NatsConnection::shutdownLibrary();
    nats_Close();
    return rc;
}
