#pragma once

#include <QByteArray>

#include <optional>

namespace MqttDoctor::Test {

// A minimal blocking HTTP/1.0 GET against 127.0.0.1 over a POSIX socket, for the nats-server
// monitoring port (/healthz, /varz, /jsz). No Qt Network.
class HttpProbe
{
public:
    struct Response
    {
        int status = 0;
        QByteArray body;
    };

    // std::nullopt if nothing answered (connection refused, timeout, malformed reply).
    static std::optional<Response> get(quint16 port, const QByteArray &pathAndQuery, int timeoutMs = 2000);
};

} // namespace MqttDoctor::Test
