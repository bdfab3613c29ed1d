// bench_fleet's baseline: the least any tool must do to learn every account's MQTT streams through the
// system account. A plain nats.c program (no Qt, no core): connect as a system user, send ONE
// `$SYS.REQ.SERVER.PING.JSZ` request with accounts, streams, consumers and configs and a limit large
// enough for every account, wait for the server's reply, print its size, exit. bench_fleet times the
// whole process. Not a test, and not named bench_*: scripts/run-benchmarks.sh runs
// every bench_* of the tree.
//
//   fleet_rawjsz URL USER PASSWORD LIMIT [TIMEOUT_MS]
#include <nats/nats.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s URL USER PASSWORD LIMIT [TIMEOUT_MS]\n", argv[0]);
        return 64;
    }
    const long long limit = std::atoll(argv[4]);
    const long long timeoutMs = argc > 5 ? std::atoll(argv[5]) : 60000;
    natsOptions *opts = nullptr;
    natsConnection *nc = nullptr;
    natsMsg *reply = nullptr;
    natsStatus s = natsOptions_Create(&opts);
    if (s == NATS_OK)
        s = natsOptions_SetURL(opts, argv[1]);
    if (s == NATS_OK)
        s = natsOptions_SetUserInfo(opts, argv[2], argv[3]);
    if (s == NATS_OK)
        s = natsConnection_Connect(&nc, opts);
    const std::string request =
        "{\"accounts\":true,\"streams\":true,\"consumer\":true,\"config\":true,\"limit\":" + std::to_string(limit) + "}";
    if (s == NATS_OK)
        s = natsConnection_Request(&reply, nc, "$SYS.REQ.SERVER.PING.JSZ", request.data(), int(request.size()), timeoutMs);
    int rc = 0;
    if (s == NATS_OK) {
        std::printf("JSZ reply: %d bytes\n", natsMsg_GetDataLength(reply));
    } else {
        std::fprintf(stderr, "fleet_rawjsz: %s\n", natsStatus_GetText(s));
        nats_PrintLastErrorStack(stderr);
        rc = 1;
    }
    natsMsg_Destroy(reply);
    natsConnection_Destroy(nc);
    natsOptions_Destroy(opts);
    nats_Close();
    return rc;
}
