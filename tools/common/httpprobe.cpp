#include "httpprobe.h"

#include <QList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace MqttDoctor::Test {

namespace {

class SocketGuard
{
public:
    explicit SocketGuard(int fd) : m_fd(fd) {}
    ~SocketGuard()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    SocketGuard(const SocketGuard &) = delete;
    SocketGuard &operator=(const SocketGuard &) = delete;
    int fd() const { return m_fd; }

private:
    int m_fd;
};

bool sendAll(int fd, const QByteArray &data)
{
    qsizetype sent = 0;
    while (sent < data.size()) {
        const ssize_t n = ::send(fd, data.constData() + sent, size_t(data.size() - sent), MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += n;
    }
    return true;
}

} // namespace

std::optional<HttpProbe::Response> HttpProbe::get(quint16 port, const QByteArray &pathAndQuery, int timeoutMs)
{
    const SocketGuard socket(::socket(AF_INET, SOCK_STREAM, 0));
    if (socket.fd() < 0)
        return std::nullopt;

    timeval timeout{};
    timeout.tv_sec = timeoutMs / 1000;
    timeout.tv_usec = (timeoutMs % 1000) * 1000;
    ::setsockopt(socket.fd(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    ::setsockopt(socket.fd(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));

    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(port);
    if (::connect(socket.fd(), reinterpret_cast<const sockaddr *>(&address), sizeof(address)) != 0)
        return std::nullopt;

    const QByteArray request = "GET " + pathAndQuery + " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (!sendAll(socket.fd(), request))
        return std::nullopt;

    QByteArray reply;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::recv(socket.fd(), buffer, sizeof(buffer), 0);
        if (n < 0)
            return std::nullopt; // timeout or error
        if (n == 0)
            break;
        reply.append(buffer, n);
    }

    // "HTTP/1.0 200 OK\r\n...headers...\r\n\r\nbody"
    const qsizetype headerEnd = reply.indexOf("\r\n\r\n");
    const qsizetype lineEnd = reply.indexOf("\r\n");
    if (!reply.startsWith("HTTP/") || headerEnd < 0 || lineEnd < 0)
        return std::nullopt;
    const QList<QByteArray> statusLine = reply.left(lineEnd).split(' ');
    bool ok = false;
    Response response;
    response.status = statusLine.size() >= 2 ? statusLine.at(1).toInt(&ok) : 0;
    if (!ok)
        return std::nullopt;
    response.body = reply.mid(headerEnd + 4);
    return response;
}

} // namespace MqttDoctor::Test
