// bench_sessionload's request round trip (see requestlatency.h).
#include "requestlatency.h"

#include <nats/nats.h>

#include <algorithm>
#include <cstdio>

#include <QElapsedTimer>
#include <QList>

#include "benchdata.h"
#include "nats/jetstreamclient.h"
#include "nats/natsconnection.h"

namespace MqttDoctor::BenchData {

namespace {

double medianMs(QList<double> v)
{
    if (v.isEmpty())
        return -1;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

} // namespace

void requestLatency(const QString &url, const QString &stream, int count)
{
    ConnectionSettings settings;
    settings.servers = {url};
    settings.credentials.kind = Credentials::Kind::UserPassword;
    settings.credentials.user = QString::fromLatin1(User);
    settings.credentials.password = QString::fromLatin1(Password);
    auto ours = NatsConnection::connect(settings);
    natsConnection *raw = rawConnect(url.toUtf8());
    if (!ours || !raw) {
        std::fprintf(stderr, "request round trip: cannot connect\n");
        if (raw)
            natsConnection_Destroy(raw);
        return;
    }
    JetStreamClient js(*ours, {});
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
                qPrintable(stream), count, medianMs(oursMs), medianMs(rawMs));
}

} // namespace MqttDoctor::BenchData
