// bench_bigaccount's baseline: a plain nats.c program that reads one stream the way our loaders do
// (an ordered consumer, last message per subject or every message), counts the messages and their
// bytes, keeps nothing, and exits. Its whole-process time is what a command reading the same stream
// is measured against. Not a test, and not named bench_*: scripts/run-benchmarks.sh runs every bench_*.
//
//   bigaccount_rawread URL USER PASSWORD STREAM FILTER last|all
#include <nats/nats.h>

#include <cstdio>
#include <cstring>

namespace {

bool ok(natsStatus s, const char *what)
{
    if (s == NATS_OK)
        return true;
    std::fprintf(stderr, "bigaccount_rawread: %s: %s\n", what, natsStatus_GetText(s));
    return false;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 7 || (std::strcmp(argv[6], "last") != 0 && std::strcmp(argv[6], "all") != 0)) {
        std::fprintf(stderr, "usage: %s URL USER PASSWORD STREAM FILTER last|all\n", argv[0]);
        return 64;
    }
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
    jsSubOptions so;
    jsSubOptions_Init(&so);
    so.Stream = argv[4];
    so.Ordered = true;
    so.Config.DeliverPolicy = std::strcmp(argv[6], "last") == 0 ? js_DeliverLastPerSubject : js_DeliverAll;
    natsSubscription *sub = nullptr;
    jsErrCode jerr = static_cast<jsErrCode>(0);
    if (!ok(js_SubscribeSync(&sub, js, argv[5], nullptr, &so, &jerr), "subscribe"))
        return 1;
    natsSubscription_SetPendingLimits(sub, -1, -1);
    long long messages = 0;
    long long bytes = 0;
    for (;;) {
        natsMsg *m = nullptr;
        if (!ok(natsSubscription_NextMsg(&m, sub, 10000), "next message"))
            return 1;
        jsMsgMetaData *md = nullptr;
        natsMsg_GetMetaData(&md, m);
        const uint64_t pending = md ? md->NumPending : 0;
        jsMsgMetaData_Destroy(md);
        bytes += natsMsg_GetDataLength(m);
        natsMsg_Destroy(m);
        ++messages;
        if (pending == 0)
            break;
    }
    // Ends as our readers end: the ephemeral consumer deleted (a round trip).
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
    jsCtx_Destroy(js);
    natsConnection_Destroy(nc);
    natsOptions_Destroy(opts);
    nats_Close();
    std::printf("%lld messages, %lld bytes\n", messages, bytes);
    return 0;
}
