// Loading MQTT state at scale: 100,000 session records in `$MQTT_sess` and 10,000 retained messages
// in `$MQTT_rmsgs` (2.9 JSON encoding on one subject, then the 2.11+ header encoding per subject),
// each read (1) by a minimal raw nats.c ordered consumer that only counts (the physical
// baseline) and (2) by our loader: SessionLoader::load (read, decode, join with a
// consumer index naming every durable of the records) or RetainedLoader::load, keeping the list of
// entries a model would hold. Every read runs in a fresh child process so its peak RSS (VmHWM) is its
// own. Prints figures against the targets; asserts nothing.
//
//   bench_sessionload [--records N] [--retained N] [--runs R (5)] [--server 2.9|2.10|newest]
//                     [--modes baseline,baseline-all,ours,reader]
// baseline: DeliverLastPerSubject (DeliverAll for 2.9's single-subject retained stream), timed from js_SubscribeSync to the end of natsSubscription_Unsubscribe
// (which deletes the consumer, as our loaders do before they return); baseline-all: DeliverAll on the
// last-per-subject workloads (what StreamReader uses when the stream keeps one message per subject);
// reader: StreamReader keeping the undecoded values (no decoding), to separate reading from decoding.
#include <nats/nats.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

#include "benchdata.h"
#include "processfigures.h"
#include "natsserverfixture.h"
#include "requestlatency.h"
#include "mqtt/clientidhash.h"
#include "mqtt/retainedrecord.h"
#include "mqtt/sessionrecord.h"
#include "mqtt/storedmessage.h"
#include "nats/natsconnection.h"
#include "nats/streamreader.h"
#include "records/retainedloader.h"
#include "records/sessionloader.h"

using namespace MqttDoctor;
using namespace MqttDoctor::BenchData;

namespace {

struct Workload
{
    const char *key; // child argument
    const char *title;
    const char *stream;
    const char *filter;
    bool lastPerSubject;
};

const Workload Workloads[] = {
    {"sess", "session records ($MQTT_sess, last per subject)", "$MQTT_sess", "$MQTT.sess.>", true},
    {"rjson", "retained, JSON encoding (2.9 layout: one subject, all)", "$MQTT_rmsgs", "$MQTT.rmsgs", false},
    {"rhdr", "retained, header encoding (2.11+ layout: per subject)", "$MQTT_rmsgs", "$MQTT.rmsgs.>", true},
};

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
    qint64 indexKiB = 0; // resident size of the consumer index built before the read (join input)
    double cpuSeconds = 0; // this process's user + system time during the read (every thread)
    qint64 minorFaults = 0; // page faults during the read (each first touch of a page the process had not used)
};

void printResult(const Figures &f)
{
    std::printf("RESULT {\"records\":%lld,\"decoded\":%lld,\"bytes\":%lld,\"seconds\":%.6f,\"first1000ms\":%.3f,"
                "\"rssBeforeKiB\":%lld,\"hwmKiB\":%lld,\"indexKiB\":%lld,\"cpuSeconds\":%.6f,\"minorFaults\":%lld}\n",
                f.records, f.decoded, f.bytes, f.seconds, f.first1000ms, f.rssBeforeKiB, f.hwmKiB, f.indexKiB, f.cpuSeconds, f.minorFaults);
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
    perfControl("enable");
    const double cpuStart = processCpuSeconds();
    const qint64 faultsStart = processMinorFaults();
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
    // The read ends when its consumer is gone, as StreamReader's does: nats.c deletes the ephemeral
    // consumer it created (CONSUMER.DELETE, a round trip) in Unsubscribe.
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    f.seconds = double(t.nsecsElapsed()) / 1e9;
    f.cpuSeconds = processCpuSeconds() - cpuStart;
    f.minorFaults = processMinorFaults() - faultsStart;
    perfControl("disable");
    f.hwmKiB = vmHwmKiB();
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    printResult(f);
    return 0;
}

// Our loader, as the CLI and a model use it: every entry kept.
int runLoader(const QString &url, const Workload &w, int records)
{
    Figures f;
    auto nc = ourConnection(url);
    if (!nc)
        return 1;
    const bool sessions = std::strcmp(w.key, "sess") == 0;
    const qint64 rssStart = statusKiB("VmRSS");
    std::optional<SessionLoader::ConsumerIndex> index;
    if (sessions)
        index = consumerIndex(records);
    f.rssBeforeKiB = vmHwmKiB();
    f.indexKiB = statusKiB("VmRSS") - rssStart;
    QList<SessionEntry> sessionList; // what a sessions model would hold
    QList<RetainedEntry> retainedList;
    qint64 problems = 0;
    QElapsedTimer t;
    perfControl("enable");
    const double cpuStart = processCpuSeconds();
    const qint64 faultsStart = processMinorFaults();
    t.start();
    auto firstThousand = [&f, &t](qsizetype have) {
        if (f.first1000ms < 0 && have >= 1000)
            f.first1000ms = double(t.nsecsElapsed()) / 1e6;
    };
    Result<ReadSummary> r = ReadSummary{};
    if (sessions) {
        SessionLoadOptions options;
        r = SessionLoader::load(nc, options, index, std::nullopt, [&](QList<SessionEntry> &&batch, const ReadProgress &progress) {
            if (sessionList.isEmpty())
                sessionList.reserve(qsizetype(progress.total)); // the total is known from the first batch
            for (const SessionEntry &e : batch)
                problems += e.hasProblems() ? 1 : 0;
            sessionList.append(std::move(batch));
            firstThousand(sessionList.size());
            return true;
        });
    } else {
        RetainedLoadOptions options;
        r = RetainedLoader::load(nc, options, [&](QList<RetainedEntry> &&batch, const ReadProgress &progress) {
            if (retainedList.isEmpty())
                retainedList.reserve(qsizetype(progress.total));
            for (const RetainedEntry &e : batch)
                problems += e.record ? 0 : 1;
            retainedList.append(std::move(batch));
            firstThousand(retainedList.size());
            return true;
        });
    }
    if (!r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        return 1;
    }
    f.seconds = double(t.nsecsElapsed()) / 1e9;
    f.cpuSeconds = processCpuSeconds() - cpuStart;
    f.minorFaults = processMinorFaults() - faultsStart;
    perfControl("disable");
    f.records = qint64(r->delivered);
    f.decoded = sessions ? sessionList.size() : retainedList.size();
    f.bytes = problems; // for the loader: entries with a problem (expected: none)
    f.hwmKiB = vmHwmKiB();
    printResult(f);
    return 0;
}

// StreamReader alone, keeping the undecoded values.
int runReader(const QString &url, const Workload &w)
{
    Figures f;
    auto nc = ourConnection(url);
    if (!nc)
        return 1;
    QList<StreamMessage> messageList;
    StreamReader reader(nc);
    const QString stream = QString::fromLatin1(w.stream);
    f.rssBeforeKiB = vmHwmKiB();
    QElapsedTimer t;
    perfControl("enable");
    const double cpuStart = processCpuSeconds();
    const qint64 faultsStart = processMinorFaults();
    t.start();
    auto onBatch = [&](QList<StreamMessage> &&batch, const ReadProgress &progress) {
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
    };
    const QString filter = QString::fromLatin1(w.filter);
    auto r = w.lastPerSubject ? reader.readLastPerSubject(stream, filter, {}, onBatch) : reader.readAll(stream, filter, {}, onBatch);
    if (!r) {
        std::fprintf(stderr, "%s\n", qPrintable(r.error().toString()));
        return 1;
    }
    f.seconds = double(t.nsecsElapsed()) / 1e9;
    f.cpuSeconds = processCpuSeconds() - cpuStart;
    f.minorFaults = processMinorFaults() - faultsStart;
    perfControl("disable");
    f.hwmKiB = vmHwmKiB();
    printResult(f);
    return 0;
}

// ---- parent ----

QJsonObject runChild(const QString &mode, const QString &url, const Workload &w, int records, qint64 serverPid)
{
    const double serverStart = otherProcessCpuSeconds(serverPid);
    QProcess p;
    p.start(QCoreApplication::applicationFilePath(),
            {QStringLiteral("--child"), mode, QStringLiteral("--url"), url, QStringLiteral("--workload"), QString::fromLatin1(w.key),
             QStringLiteral("--records"), QString::number(records)});
    if (!p.waitForFinished(300000) || p.exitCode() != 0) {
        std::fprintf(stderr, "child %s %s failed: %s\n", qPrintable(mode), w.key, p.readAllStandardError().constData());
        return {};
    }
    for (const QByteArray &line : p.readAllStandardOutput().split('\n'))
        if (line.startsWith("RESULT ")) {
            QJsonObject o = QJsonDocument::fromJson(line.mid(7)).object();
            o.insert(QStringLiteral("serverCpuSeconds"), otherProcessCpuSeconds(serverPid) - serverStart);
            return o;
        }
    return {};
}

QString percentages(const QList<double> &ratios)
{
    QStringList s;
    for (double r : ratios)
        s << QString::number(qRound(100 * r)) + QLatin1Char('%');
    return s.join(QStringLiteral(", "));
}

struct Series
{
    QList<double> rate, first, hwmMiB, deltaMiB, indexMiB, clientUs, serverUs, faults;
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
        indexMiB << o.value(QLatin1String("indexKiB")).toDouble() / 1024;
        clientUs << o.value(QLatin1String("cpuSeconds")).toDouble() * 1e6 / std::max(1.0, records);
        serverUs << o.value(QLatin1String("serverCpuSeconds")).toDouble() * 1e6 / std::max(1.0, records);
        faults << o.value(QLatin1String("minorFaults")).toDouble() / std::max(1.0, records);
    }
    // Where the CPU went, per record: this process (every thread) and the server (the whole child's life).
    QString cpu() const
    {
        return QStringLiteral("CPU per record: client %1 us + server %2 us; client page faults per record %3")
            .arg(median(clientUs), 0, 'f', 2)
            .arg(median(serverUs), 0, 'f', 2)
            .arg(median(faults), 0, 'f', 3);
    }
    QString runs() const
    {
        QStringList s;
        for (double r : rate)
            s << QString::number(qRound64(r));
        return s.join(QStringLiteral(", "));
    }
};

// CPU time of the calling thread (what one decode costs, whatever else runs on the machine).
class ThreadCpuTimer
{
public:
    void start() { m_start = now(); }
    void restart() { start(); }
    qint64 nsecsElapsed() const { return now() - m_start; }

private:
    static qint64 now()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
    qint64 m_start = 0;
};

// Decoding alone, one thread, no network: what the codec costs per record (fast path and reference).
void decodeAlone(int records)
{
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
    for (const bool reference : {false, true}) {
        ThreadCpuTimer t;
        t.start();
        qsizetype ok = 0;
        for (const StoredMessage &m : std::as_const(input))
            ok += (reference ? SessionRecord::decodeReference(m) : SessionRecord::decode(m)).ok() ? 1 : 0;
        const double s = double(t.nsecsElapsed()) / 1e9;
        std::printf(
            "SessionRecord::%s alone (one thread, in memory, thread CPU time): %lld records in %.2f s = %.0f records/s (%.2f us each)\n",
            reference ? "decodeReference" : "decode", static_cast<long long>(ok), s, double(records) / s, s * 1e6 / records);
    }
    const SessionLoader::ConsumerIndex index = consumerIndex(records);
    const qint64 beforeMessages = heapBytes();
    QList<StreamMessage> messages;
    messages.reserve(records);
    for (const StoredMessage &in : std::as_const(input))
        messages.append(StreamMessage{in.subject, in.seq, 0, in.headers, in.data, false});
    const qint64 messageHeap = heapBytes() - beforeMessages;
    ThreadCpuTimer t;
    t.start();
    const qint64 heapStart = heapBytes();
    QList<SessionEntry> entries;
    entries.reserve(records);
    const qint64 heapList = heapBytes();
    for (const StreamMessage &m : std::as_const(messages))
        entries.append(SessionLoader::fromMessage(m, TopicMapping::Dialect::V2_10));
    const double decodeSecs = double(t.nsecsElapsed()) / 1e9;
    const qint64 heapDecoded = heapBytes();
    t.restart();
    for (qsizetype from = 0; from < entries.size(); from += 1024) // per batch, as the loader joins
        SessionLoader::joinConsumers(
            std::span<SessionEntry>(entries.data() + from, size_t(std::min<qsizetype>(1024, entries.size() - from))), index, true);
    const double joinSecs = double(t.nsecsElapsed()) / 1e9;
    const qint64 heapJoined = heapBytes();
    std::printf(
        "heap per entry (in memory, messages kept aside): list slot %lld B (sizeof SessionEntry %zu), decoded %lld B, joined %lld B; "
        "message %lld B\n",
        static_cast<long long>((heapList - heapStart) / records), sizeof(SessionEntry),
        static_cast<long long>((heapDecoded - heapList) / records), static_cast<long long>((heapJoined - heapDecoded) / records),
        static_cast<long long>(messageHeap / records));
    const double s = decodeSecs + joinSecs;
    std::printf("SessionLoader::fromMessage alone %.2f us, joinConsumers alone %.2f us (one thread, in memory, thread CPU time)\n",
                decodeSecs * 1e6 / records, joinSecs * 1e6 / records);
    std::printf("SessionLoader::fromMessage + joinConsumers alone (one thread, in memory, thread CPU time): %.2f us each\n",
                s * 1e6 / records);
}

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
    decodeAlone(records);
    requestLatency(server.url(), QStringLiteral("$MQTT_sess"), 51);
    std::printf("this machine: a first touch of a 4 KiB page costs %.2f us (page fault; kept entries pay it, the baseline keeps nothing)\n",
                pageFaultMicros());

    for (const Workload &w : Workloads) {
        if (std::strcmp(w.key, "rhdr") == 0 && !fillRetainedHeaders(server.url().toUtf8(), retained))
            return 1;
        Series base, baseAll, ours, readerOnly;
        // The ratio is taken run by run: the reads of one run follow each other (in turn first and last),
        // and the machine's speed drifts over seconds (a shared 2-core VM: ±20% between runs).
        QList<double> pairedRatios;
        for (int i = 0; i < runs; ++i) {
            QStringList order = modes;
            if (i % 2 == 1)
                std::reverse(order.begin(), order.end());
            for (const QString &mode : std::as_const(order)) {
                if (mode == QLatin1String("baseline-all") && !w.lastPerSubject)
                    continue;
                const QJsonObject o = runChild(mode, server.url(), w, records, server.processId());
                if (o.isEmpty())
                    return 1;
                (mode == QLatin1String("baseline")           ? base
                     : mode == QLatin1String("baseline-all") ? baseAll
                     : mode == QLatin1String("ours")         ? ours
                                                             : readerOnly)
                    .add(o);
            }
            if (ours.rate.size() == i + 1 && base.rate.size() == i + 1)
                pairedRatios << ours.rate.last() / base.rate.last();
        }
        const double ratio = median(pairedRatios);
        const double rawMiB = base.bytes / (1024.0 * 1024.0);
        const double memTarget = 2 * rawMiB + 80;
        // The consumer index is the join's input, loaded before the read (CONSUMER.LIST); the target
        // is for the loader, so it is judged on the peak without the index.
        const double peakLoader = median(ours.hwmMiB) - median(ours.indexMiB);
        std::printf("\n== %s: %.0f records, %.1f MiB raw record bytes\n", w.title, base.records, rawMiB);
        std::printf(
            "  raw nats.c ordered consumer (count only): %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB (+%.1f while reading); %s\n",
            median(base.rate), qPrintable(base.runs()), median(base.first), median(base.hwmMiB), median(base.deltaMiB),
            qPrintable(base.cpu()));
        if (!baseAll.rate.isEmpty())
            std::printf("  raw nats.c ordered consumer, DeliverAll:  %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  "
                        "(the policy StreamReader picks for a max_msgs_per_subject=1 stream: same records); %s\n",
                        median(baseAll.rate), qPrintable(baseAll.runs()), median(baseAll.first), qPrintable(baseAll.cpu()));
        if (!ours.rate.isEmpty())
            std::printf("  ours (%s, entries kept): %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB "
                        "(+%.1f while reading; consumer index %.1f MiB); %s\n",
                        std::strcmp(w.key, "sess") == 0 ? "SessionLoader::load: read, decode, join" : "RetainedLoader::load: read, decode",
                        median(ours.rate), qPrintable(ours.runs()), median(ours.first), median(ours.hwmMiB), median(ours.deltaMiB),
                        median(ours.indexMiB), qPrintable(ours.cpu()));
        if (!readerOnly.rate.isEmpty())
            std::printf(
                "  (StreamReader alone, values kept):   %8.0f records/s  [runs: %s]  first 1000: %6.1f ms  peak RSS %6.1f MiB (+%.1f while reading); reader / raw: %.0f%%; %s\n",
                median(readerOnly.rate), qPrintable(readerOnly.runs()), median(readerOnly.first), median(readerOnly.hwmMiB),
                median(readerOnly.deltaMiB), 100 * median(readerOnly.rate) / median(base.rate), qPrintable(readerOnly.cpu()));
        if (!ours.rate.isEmpty())
            std::printf("  entries %.0f of %.0f records (%.0f with a problem); ratio ours/raw: %.0f%% (median of the runs' own ratios"
                        " [%s]; ratio of the medians %.0f%%; target >= 80%%: %s); "
                        "first 1000 entries %.1f ms (target < 300 ms: %s); peak RSS without the index %.1f MiB "
                        "(target < 2 x %.1f + 80 = %.1f MiB: %s)\n",
                        ours.decoded, ours.records, ours.bytes, ratio * 100, qPrintable(percentages(pairedRatios)),
                        100 * median(ours.rate) / median(base.rate), ratio >= 0.8 ? "met" : "NOT met", median(ours.first),
                        median(ours.first) < 300 ? "met" : "NOT met", peakLoader, rawMiB, memTarget,
                        peakLoader < memTarget ? "met" : "NOT met");
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
    const int records = option("--records", QStringLiteral("100000")).toInt();
    if (!child.isEmpty()) {
        const QString key = option("--workload", {});
        const QString url = option("--url", {});
        const Workload *w = nullptr;
        for (const Workload &candidate : Workloads)
            if (key == QLatin1String(candidate.key))
                w = &candidate;
        if (!w)
            return 2;
        rc = child.startsWith(QLatin1String("baseline")) ? runBaseline(url.toUtf8(), *w, child == QLatin1String("baseline-all"))
            : child == QLatin1String("ours")             ? runLoader(url, *w, records)
                                                         : runReader(url, *w);
    } else {
        rc = runParent(records, option("--retained", QStringLiteral("10000")).toInt(),
                       std::max(1, option("--runs", QStringLiteral("5")).toInt()), option("--server", QStringLiteral("2.9")),
                       option("--modes", QStringLiteral("baseline,baseline-all,ours,reader")).split(QLatin1Char(',')));
    }
    NatsConnection::shutdownLibrary();
    nats_Close();
    return rc;
}
