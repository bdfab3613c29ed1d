// bench_deletesessions' baseline: a plain nats.c program that makes the requests `delete-sessions` makes
// on the same data, and nothing else: it lists `$MQTT_sess` (an ordered consumer, last message per
// subject: the stream holds one record per subject), keeps the records whose client ID matches GLOB,
// and then, BATCH sessions at a time:
//   backup  STREAM.MSG.GET $MQTT_sess {"last_by_subj": <subject>} and CONSUMER.INFO of every durable the
//           record names (`$MQTT_msgs`; the PUBREL durable on `$MQTT_out` when the record has `pubrel`),
//           each reply written as one line to BACKUP_DIR/deletesessions_raw.backup
//   delete  STREAM.MSG.DELETE $MQTT_sess {"seq": N, "no_erase": true} and CONSUMER.DELETE of each durable
//   verify  STREAM.MSG.GET $MQTT_sess {"seq": N} (expects 10037, no message found) and CONSUMER.INFO of
//           each durable (expects 10014, consumer not found)
// with WINDOW requests in flight over one wildcard reply subscription, the replies parsed only as far
// as needed (the error code, "success"). The backup file is fsynced at the end. Prints the counts and
// each phase's time; exits 1 when any reply is not the one expected. Its whole-process time is what
// the CLI's delete-sessions is measured against. Not a test, and not named bench_*:
// scripts/run-benchmarks.sh runs every bench_*.
//
//   deletesessions_raw URL USER PASSWORD BACKUP_DIR [WINDOW (256)] [BATCH (500)] [GLOB (*)]
#include <nats/nats.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <fnmatch.h>
#include <unistd.h>

namespace {

using Clock = std::chrono::steady_clock;

bool ok(natsStatus s, const char *what)
{
    if (s == NATS_OK)
        return true;
    std::fprintf(stderr, "deletesessions_raw: %s: %s\n", what, natsStatus_GetText(s));
    return false;
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Durable
{
    std::string stream;
    std::string name;
};

struct Session
{
    uint64_t seq = 0;
    std::string subject;
    std::vector<Durable> durables;
};

// The string value after `key` (`"key":"`) from `from` on; npos when there is none.
size_t stringValue(const std::string &json, const char *key, size_t from, std::string &value)
{
    const size_t at = json.find(key, from);
    if (at == std::string::npos)
        return at;
    const size_t start = at + std::strlen(key);
    const size_t end = json.find('"', start);
    if (end == std::string::npos)
        return end;
    value.assign(json, start, end - start);
    return end;
}

// The JetStream error code of a reply (`"err_code":N`), 0 when it has none.
long errCode(const char *data, int len)
{
    static const char key[] = "\"err_code\":";
    const std::string body(data, size_t(len));
    const size_t at = body.find(key);
    return at == std::string::npos ? 0 : std::strtol(body.c_str() + at + sizeof(key) - 1, nullptr, 10);
}

bool succeeded(const char *data, int len)
{
    return std::string(data, size_t(len)).find("\"success\":true") != std::string::npos;
}

// Requests pipelined over one wildcard reply subscription: at most `window` outstanding, each reply
// subject `<inbox>.<number>` naming its request.
class Pipeline
{
public:
    struct Request
    {
        std::string subject;
        std::string payload;
    };
    using ReplyHandler = std::function<void(size_t index, const char *data, int len)>;

    bool open(natsConnection *nc, int window)
    {
        m_nc = nc;
        m_window = window < 1 ? 1 : window;
        natsInbox *inbox = nullptr;
        if (!ok(natsInbox_Create(&inbox), "inbox"))
            return false;
        m_prefix = std::string(inbox) + ".";
        natsInbox_Destroy(inbox);
        if (!ok(natsConnection_SubscribeSync(&m_sub, nc, (m_prefix + "*").c_str()), "reply subscription"))
            return false;
        natsSubscription_SetPendingLimits(m_sub, -1, -1);
        return true;
    }

    ~Pipeline()
    {
        if (m_sub)
            natsSubscription_Destroy(m_sub);
    }

    bool run(const std::vector<Request> &requests, const ReplyHandler &onReply)
    {
        const uint64_t base = m_next;
        const size_t n = requests.size();
        m_next += n;
        size_t sent = 0;
        size_t received = 0;
        std::string reply;
        while (received < n) {
            while (sent < n && sent - received < size_t(m_window)) {
                reply = m_prefix + std::to_string(base + sent);
                const Request &r = requests[sent];
                if (!ok(natsConnection_PublishRequest(m_nc, r.subject.c_str(), reply.c_str(), r.payload.data(), int(r.payload.size())),
                        "request"))
                    return false;
                ++sent;
            }
            natsMsg *m = nullptr;
            if (!ok(natsSubscription_NextMsg(&m, m_sub, 30000), "reply"))
                return false;
            const char *subject = natsMsg_GetSubject(m);
            const uint64_t token = std::strtoull(subject + m_prefix.size(), nullptr, 10);
            if (token >= base && token < base + n) {
                onReply(size_t(token - base), natsMsg_GetData(m), natsMsg_GetDataLength(m));
                ++received;
            }
            natsMsg_Destroy(m);
        }
        return true;
    }

private:
    natsConnection *m_nc = nullptr;
    natsSubscription *m_sub = nullptr;
    std::string m_prefix;
    uint64_t m_next = 0;
    int m_window = 256;
};

// Every record of `$MQTT_sess` whose client ID matches `glob`, with its sequence and durables.
bool listSessions(jsCtx *js, const char *glob, std::vector<Session> &sessions, long long &listed)
{
    jsStreamInfo *si = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    if (!ok(js_GetStreamInfo(&si, js, "$MQTT_sess", nullptr, &jerr), "stream info $MQTT_sess"))
        return false;
    const uint64_t messages = si->State.Msgs;
    jsStreamInfo_Destroy(si);
    if (messages == 0)
        return true;
    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Stream = "$MQTT_sess";
    so.Ordered = true;
    so.Config.DeliverPolicy = js_DeliverLastPerSubject;
    natsSubscription *sub = nullptr;
    if (!ok(js_SubscribeSync(&sub, js, "$MQTT.sess.>", nullptr, &so, &jerr), "subscribe $MQTT_sess"))
        return false;
    natsSubscription_SetPendingLimits(sub, -1, -1);
    std::string body;
    std::string value;
    for (;;) {
        natsMsg *m = nullptr;
        if (!ok(natsSubscription_NextMsg(&m, sub, 10000), "next record"))
            return false;
        jsMsgMetaData *md = nullptr;
        natsMsg_GetMetaData(&md, m);
        const uint64_t pending = md ? md->NumPending : 0;
        const uint64_t seq = md ? md->Sequence.Stream : 0;
        jsMsgMetaData_Destroy(md);
        ++listed;
        body.assign(natsMsg_GetData(m), size_t(natsMsg_GetDataLength(m)));
        if (stringValue(body, "\"id\":\"", 0, value) != std::string::npos && fnmatch(glob, value.c_str(), 0) == 0) {
            Session s;
            s.seq = seq;
            s.subject = natsMsg_GetSubject(m);
            for (size_t at = stringValue(body, "\"durable_name\":\"", 0, value); at != std::string::npos;
                 at = stringValue(body, "\"durable_name\":\"", at, value))
                s.durables.push_back({"$MQTT_msgs", value});
            if (body.find("\"pubrel\":") != std::string::npos)
                s.durables.push_back({"$MQTT_out", "$MQTT_PUBREL_" + s.subject.substr(s.subject.rfind('.') + 1)});
            sessions.push_back(std::move(s));
        }
        natsMsg_Destroy(m);
        if (pending == 0)
            break;
    }
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    return true;
}

struct Figures
{
    double listMs = 0, backupMs = 0, deleteMs = 0, verifyMs = 0;
    long long listed = 0, sessions = 0, durables = 0, backupBytes = 0;
    long long unexpected = 0;

    void fail(const char *what, const Session &s, const char *data, int len)
    {
        if (++unexpected <= 5)
            std::fprintf(stderr, "deletesessions_raw: %s of %s (seq %llu): %.*s\n", what, s.subject.c_str(),
                         static_cast<unsigned long long>(s.seq), len > 300 ? 300 : len, data);
    }
};

// The requests of one batch's phase: one per record (`recordRequest`) and one per durable (`durableRequest`).
struct PhaseRequests
{
    std::vector<Pipeline::Request> requests;
    std::vector<std::pair<size_t, int>> owner; // (session, -1 for the record or the durable's index)
};

PhaseRequests phase(const std::vector<Session> &sessions, size_t from, size_t to,
                    const std::function<Pipeline::Request(const Session &)> &recordRequest,
                    const std::function<Pipeline::Request(const Durable &)> &durableRequest)
{
    PhaseRequests p;
    for (size_t i = from; i < to; ++i) {
        p.requests.push_back(recordRequest(sessions[i]));
        p.owner.emplace_back(i, -1);
        for (size_t d = 0; d < sessions[i].durables.size(); ++d) {
            p.requests.push_back(durableRequest(sessions[i].durables[d]));
            p.owner.emplace_back(i, int(d));
        }
    }
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 5 || argc > 8) {
        std::fprintf(stderr, "usage: %s URL USER PASSWORD BACKUP_DIR [WINDOW (256)] [BATCH (500)] [GLOB (*)]\n", argv[0]);
        return 64;
    }
    const int window = argc > 5 ? std::atoi(argv[5]) : 256;
    const int batchArg = argc > 6 ? std::atoi(argv[6]) : 500;
    const size_t batch = batchArg < 1 ? 1 : size_t(batchArg);
    const char *glob = argc > 7 ? argv[7] : "*";
    const Clock::time_point start = Clock::now();

    natsOptions *opts = nullptr;
    if (!ok(natsOptions_Create(&opts), "options"))
        return 1;
    natsOptions_SetURL(opts, argv[1]);
    natsOptions_SetUserInfo(opts, argv[2], argv[3]);
    natsOptions_SetTimeout(opts, 10000);
    natsConnection *nc = nullptr;
    if (!ok(natsConnection_Connect(&nc, opts), "connect"))
        return 1;
    jsCtx *js = nullptr;
    if (!ok(natsConnection_JetStream(&js, nc, nullptr), "jetstream"))
        return 1;

    Figures f;
    std::vector<Session> sessions;
    Clock::time_point t = Clock::now();
    if (!listSessions(js, glob, sessions, f.listed))
        return 1;
    f.listMs = msSince(t);

    const std::string backupPath = std::string(argv[4]) + "/deletesessions_raw.backup";
    FILE *backup = std::fopen(backupPath.c_str(), "w");
    if (!backup) {
        std::perror(backupPath.c_str());
        return 1;
    }
    static char buffer[1 << 20];
    std::setvbuf(backup, buffer, _IOFBF, sizeof buffer);

    Pipeline pipe;
    if (!pipe.open(nc, window))
        return 1;
    const std::string api = "$JS.API.";
    const auto consumerRequest = [&api](const char *verb) {
        return [&api, verb](const Durable &d) { return Pipeline::Request{api + "CONSUMER." + verb + "." + d.stream + "." + d.name, {}}; };
    };
    std::vector<std::string> lines;
    for (size_t from = 0; from < sessions.size(); from += batch) {
        const size_t to = from + batch < sessions.size() ? from + batch : sessions.size();

        // Backup: the record as it is now and each durable's info, a line each.
        t = Clock::now();
        PhaseRequests p = phase(
            sessions, from, to,
            [&api](const Session &s) {
                return Pipeline::Request{api + "STREAM.MSG.GET.$MQTT_sess", "{\"last_by_subj\":\"" + s.subject + "\"}"};
            },
            consumerRequest("INFO"));
        lines.assign(p.requests.size(), {});
        if (!pipe.run(p.requests, [&](size_t i, const char *data, int len) {
                const Session &s = sessions[p.owner[i].first];
                if (errCode(data, len) != 0)
                    f.fail(p.owner[i].second < 0 ? "backup read" : "consumer info", s, data, len);
                lines[i].assign(p.owner[i].second < 0 ? "record " : "consumer ");
                lines[i].append(data, size_t(len));
                lines[i].push_back('\n');
            }))
            return 1;
        for (const std::string &line : lines) {
            std::fwrite(line.data(), 1, line.size(), backup);
            f.backupBytes += static_cast<long long>(line.size());
        }
        f.backupMs += msSince(t);

        // Delete: the record by its sequence, each durable.
        t = Clock::now();
        p = phase(
            sessions, from, to,
            [&api](const Session &s) {
                return Pipeline::Request{api + "STREAM.MSG.DELETE.$MQTT_sess", "{\"seq\":" + std::to_string(s.seq) + ",\"no_erase\":true}"};
            },
            consumerRequest("DELETE"));
        if (!pipe.run(p.requests, [&](size_t i, const char *data, int len) {
                const Session &s = sessions[p.owner[i].first];
                if (!succeeded(data, len))
                    f.fail(p.owner[i].second < 0 ? "record delete" : "durable delete", s, data, len);
                else if (p.owner[i].second < 0)
                    ++f.sessions;
                else
                    ++f.durables;
            }))
            return 1;
        f.deleteMs += msSince(t);

        // Verify: the sequence is gone (10037), each durable is gone (10014).
        t = Clock::now();
        p = phase(
            sessions, from, to,
            [&api](const Session &s) {
                return Pipeline::Request{api + "STREAM.MSG.GET.$MQTT_sess", "{\"seq\":" + std::to_string(s.seq) + "}"};
            },
            consumerRequest("INFO"));
        if (!pipe.run(p.requests, [&](size_t i, const char *data, int len) {
                const bool record = p.owner[i].second < 0;
                if (errCode(data, len) != (record ? 10037 : 10014))
                    f.fail(record ? "verify record" : "verify durable", sessions[p.owner[i].first], data, len);
            }))
            return 1;
        f.verifyMs += msSince(t);
    }
    t = Clock::now();
    const bool written = std::fflush(backup) == 0 && fsync(fileno(backup)) == 0;
    std::fclose(backup);
    f.backupMs += msSince(t);
    if (!written) {
        std::perror(backupPath.c_str());
        return 1;
    }

    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    natsOptions_Destroy(opts);
    nats_Close();
    std::printf("%lld records listed, %zu selected: %lld records and %lld durables deleted and verified, %lld backup bytes, "
                "%lld unexpected replies; %.0f ms (list %.0f, backup %.0f, delete %.0f, verify %.0f; window %d, batch %zu)\n",
                f.listed, sessions.size(), f.sessions, f.durables, f.backupBytes, f.unexpected, msSince(start), f.listMs, f.backupMs,
                f.deleteMs, f.verifyMs, window, batch);
    return f.unexpected == 0 ? 0 : 1;
}
