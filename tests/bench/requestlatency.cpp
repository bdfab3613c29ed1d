// bench_sessionload's request round trip (see requestlatency.h).
#include "requestlatency.h"

#include <nats/nats.h>

#include <cstdio>

#include <QElapsedTimer>
#include <QList>

#include "benchdata.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"

namespace MqttDoctor::BenchData {

void requestLatency(const QString &url, const QString &stream, int count)
{
    const std::shared_ptr<NatsConnection> ours = ourConnection(url);
    natsConnection *raw = rawConnect(url.toUtf8());
    if (!ours || !raw) {
        std::fprintf(stderr, "request round trip: cannot connect\n");
        if (raw)
            natsConnection_Destroy(raw);
        return;
    }
    JetStreamClient js(ours, {});
    const QByteArray subject = "$JS.API.STREAM.INFO." + stream.toUtf8();
    QList<double> oursMs, rawMs;
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) {
        QElapsedTimer t;
        t.start();
        ok = js.streamInfo(stream).ok();
        oursMs << double(t.nsecsElapsed()) / 1e6;
        t.restart();
        natsMsg *reply = nullptr;
        ok = ok && check(natsConnection_Request(&reply, raw, subject.constData(), nullptr, 0, 5000), "request");
        rawMs << double(t.nsecsElapsed()) / 1e6;
        natsMsg_Destroy(reply);
    }
    natsConnection_Destroy(raw);
    if (!ok) {
        std::fprintf(stderr, "request round trip: STREAM.INFO %s failed\n", qPrintable(stream));
        return;
    }
    std::printf("request round trip (STREAM.INFO %s, median of %d, loopback): ours (JetStreamClient) %.3f ms, "
                "nats.c natsConnection_Request %.3f ms\n",
                qPrintable(stream), count, median(oursMs), median(rawMs));
}

} // namespace MqttDoctor::BenchData
