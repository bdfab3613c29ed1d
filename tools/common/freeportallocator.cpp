#include "freeportallocator.h"

#include <QMutex>
#include <QSet>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace MqttDoctor::Test {

namespace {

QMutex s_mutex;
QSet<quint16> s_handedOut;

// Returns the bound socket (kept open by the caller so the next bind gets another port) or -1.
int bindEphemeral(quint16 *port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof(address);
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof(address)) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0) {
        ::close(fd);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return fd;
}

} // namespace

QList<quint16> FreePortAllocator::allocate(int count)
{
    QMutexLocker locker(&s_mutex);
    QList<int> sockets;
    QList<quint16> ports;
    for (int attempt = 0; ports.size() < count && attempt < count * 20; ++attempt) {
        quint16 port = 0;
        const int fd = bindEphemeral(&port);
        if (fd < 0)
            break;
        sockets.append(fd);
        if (!s_handedOut.contains(port) && !ports.contains(port))
            ports.append(port);
    }
    for (const int fd : std::as_const(sockets))
        ::close(fd);
    if (ports.size() < count)
        return {};
    for (const quint16 port : std::as_const(ports))
        s_handedOut.insert(port);
    return ports;
}

quint16 FreePortAllocator::allocateOne()
{
    const QList<quint16> ports = allocate(1);
    return ports.isEmpty() ? 0 : ports.first();
}

} // namespace MqttDoctor::Test
