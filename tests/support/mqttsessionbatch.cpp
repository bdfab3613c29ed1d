#include "mqttsessionbatch.h"

#include <QByteArray>
#include <QDeadlineTimer>
#include <QElapsedTimer>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

namespace {

// MQTT 3.1.1 control packet types (high nibble of the first byte).
constexpr quint8 PacketConnack = 2;
constexpr quint8 PacketPublish = 3;
constexpr quint8 PacketSuback = 9;
constexpr quint16 SubscribePacketId = 1;
constexpr int KeepAliveSeconds = 60;

void appendRemainingLength(QByteArray &out, qsizetype length)
{
    do {
        quint8 digit = quint8(length % 128);
        length /= 128;
        if (length > 0)
            digit |= 0x80;
        out.append(char(digit));
    } while (length > 0);
}

void appendUInt16(QByteArray &out, quint16 value)
{
    out.append(char(value >> 8));
    out.append(char(value & 0xff));
}

void appendField(QByteArray &out, const QString &text)
{
    const QByteArray utf8 = text.toUtf8();
    appendUInt16(out, quint16(utf8.size()));
    out.append(utf8);
}

QByteArray packet(quint8 firstByte, const QByteArray &body)
{
    QByteArray out;
    out.append(char(firstByte));
    appendRemainingLength(out, body.size());
    out.append(body);
    return out;
}

QByteArray connectPacket(const MqttSessionBatch::Exchange &e)
{
    QByteArray body;
    appendField(body, u"MQTT"_s);
    body.append(char(4)); // protocol level 3.1.1
    quint8 flags = 0; // bit 1 (clean session) stays 0: the server keeps the session
    if (!e.user.isEmpty())
        flags |= 0x80;
    if (!e.password.isEmpty())
        flags |= 0x40;
    body.append(char(flags));
    appendUInt16(body, KeepAliveSeconds);
    appendField(body, e.clientId);
    if (!e.user.isEmpty())
        appendField(body, e.user);
    if (!e.password.isEmpty())
        appendField(body, e.password);
    return packet(0x10, body);
}

QByteArray subscribePacket(const MqttSessionBatch::Exchange &e)
{
    QByteArray body;
    appendUInt16(body, SubscribePacketId);
    appendField(body, e.topic);
    body.append(char(e.qos));
    return packet(0x82, body); // SUBSCRIBE has the fixed flags 0010
}

QByteArray disconnectPacket()
{
    return packet(0xe0, {});
}

// Takes one complete packet off the front of `buffer`. 1: taken; 0: incomplete; -1: malformed length.
int takePacket(QByteArray &buffer, quint8 *firstByte, QByteArray *body)
{
    if (buffer.size() < 2)
        return 0;
    qsizetype length = 0;
    qsizetype multiplier = 1;
    qsizetype at = 1;
    for (;; ++at) {
        if (at > 4)
            return -1;
        if (at >= buffer.size())
            return 0;
        const quint8 digit = quint8(buffer.at(at));
        length += qsizetype(digit & 0x7f) * multiplier;
        multiplier *= 128;
        if ((digit & 0x80) == 0)
            break;
    }
    const qsizetype start = at + 1;
    if (buffer.size() < start + length)
        return 0;
    *firstByte = quint8(buffer.at(0));
    *body = buffer.mid(start, length);
    buffer.remove(0, start + length);
    return 1;
}

QString connackMeaning(int code)
{
    switch (code) {
    case 1: return u"unacceptable protocol version"_s;
    case 2: return u"identifier rejected"_s;
    case 3: return u"server unavailable"_s;
    case 4: return u"bad user name or password"_s;
    case 5: return u"not authorized"_s;
    default: return u"unknown code"_s;
    }
}

enum class Stage { Connecting, AwaitConnack, AwaitSuback, AwaitClose, Done };

QString stageWaitingFor(Stage stage)
{
    switch (stage) {
    case Stage::Connecting: return u"the TCP connect"_s;
    case Stage::AwaitConnack: return u"CONNACK"_s;
    case Stage::AwaitSuback: return u"SUBACK"_s;
    case Stage::AwaitClose: return u"the server to close the connection after DISCONNECT"_s;
    case Stage::Done: break;
    }
    return {};
}

struct Slot
{
    qsizetype index = -1;
    int fd = -1;
    Stage stage = Stage::Connecting;
    QByteArray out;
    QByteArray in;
    QDeadlineTimer deadline;
    QElapsedTimer clock;
};

class Runner
{
public:
    Runner(quint16 port, const QList<MqttSessionBatch::Exchange> &exchanges, int timeoutMs)
        : m_port(port), m_exchanges(exchanges), m_timeoutMs(timeoutMs), m_outcomes(exchanges.size())
    {}

    QList<MqttSessionBatch::Outcome> run(int parallel)
    {
        qsizetype next = 0;
        std::vector<Slot> active;
        std::vector<pollfd> fds;
        while (next < m_exchanges.size() || !active.empty()) {
            while (qsizetype(active.size()) < parallel && next < m_exchanges.size()) {
                Slot slot = open(next++);
                if (slot.stage != Stage::Done)
                    active.push_back(std::move(slot));
            }
            fds.clear();
            qint64 waitMs = 100;
            for (const Slot &slot : active) {
                short events = POLLIN;
                if (slot.stage == Stage::Connecting || !slot.out.isEmpty())
                    events |= POLLOUT;
                fds.push_back(pollfd{slot.fd, events, 0});
                waitMs = std::min(waitMs, std::max<qint64>(0, slot.deadline.remainingTime()));
            }
            if (::poll(fds.data(), nfds_t(fds.size()), int(waitMs)) < 0 && errno != EINTR) {
                for (Slot &slot : active)
                    fail(slot, u"poll: %1"_s.arg(QString::fromLocal8Bit(std::strerror(errno))));
            }
            for (size_t i = 0; i < active.size(); ++i) {
                Slot &slot = active[i];
                if (fds[i].revents != 0 && slot.stage != Stage::Done)
                    service(slot, fds[i].revents);
                if (slot.stage != Stage::Done && slot.deadline.hasExpired())
                    fail(slot, u"no answer within %1 ms while waiting for %2"_s.arg(m_timeoutMs).arg(stageWaitingFor(slot.stage)));
            }
            active.erase(std::remove_if(active.begin(), active.end(), [](const Slot &s) { return s.stage == Stage::Done; }), active.end());
        }
        return m_outcomes;
    }

private:
    Slot open(qsizetype index)
    {
        Slot slot;
        slot.index = index;
        slot.clock.start();
        slot.deadline = QDeadlineTimer(m_timeoutMs);
        slot.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (slot.fd < 0) {
            fail(slot, u"socket: %1"_s.arg(QString::fromLocal8Bit(std::strerror(errno))));
            return slot;
        }
        const int one = 1;
        ::setsockopt(slot.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = htons(m_port);
        if (::connect(slot.fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0 && errno != EINPROGRESS)
            fail(slot, u"connect to 127.0.0.1:%1: %2"_s.arg(m_port).arg(QString::fromLocal8Bit(std::strerror(errno))));
        return slot;
    }

    void service(Slot &slot, short revents)
    {
        if (slot.stage == Stage::Connecting) {
            int error = 0;
            socklen_t length = sizeof error;
            ::getsockopt(slot.fd, SOL_SOCKET, SO_ERROR, &error, &length);
            if (error != 0) {
                fail(slot, u"connect to 127.0.0.1:%1: %2"_s.arg(m_port).arg(QString::fromLocal8Bit(std::strerror(error))));
                return;
            }
            if ((revents & (POLLOUT | POLLERR | POLLHUP)) == 0)
                return;
            slot.stage = Stage::AwaitConnack;
            slot.out = connectPacket(m_exchanges.at(slot.index));
        }
        if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 && !receive(slot))
            return;
        flush(slot);
    }

    void flush(Slot &slot)
    {
        while (slot.stage != Stage::Done && !slot.out.isEmpty()) {
            const ssize_t n = ::send(slot.fd, slot.out.constData(), size_t(slot.out.size()), MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                    return;
                // After DISCONNECT the server may already have closed: that is the end we wait for.
                if (slot.stage == Stage::AwaitClose)
                    return finish(slot, true);
                if (slot.stage == Stage::AwaitConnack && (errno == EPIPE || errno == ECONNRESET))
                    m_outcomes[slot.index].refusedAtConnect = true;
                return fail(
                    slot,
                    u"send while waiting for %1: %2"_s.arg(stageWaitingFor(slot.stage), QString::fromLocal8Bit(std::strerror(errno))));
            }
            slot.out.remove(0, n);
        }
    }

    // False when the slot is finished.
    bool receive(Slot &slot)
    {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(slot.fd, buffer, sizeof buffer, 0);
            if (n > 0) {
                slot.in.append(buffer, n);
                if (!parse(slot))
                    return false;
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
                return true;
            const QString how =
                n == 0 ? u"closed the connection"_s : u"reset the connection (%1)"_s.arg(QString::fromLocal8Bit(std::strerror(errno)));
            if (slot.stage == Stage::AwaitClose) {
                finish(slot, true);
            } else {
                m_outcomes[slot.index].refusedAtConnect = slot.stage == Stage::AwaitConnack;
                fail(slot, u"the server %1 before %2"_s.arg(how, stageWaitingFor(slot.stage)));
            }
            return false;
        }
    }

    // False when the slot is finished.
    bool parse(Slot &slot)
    {
        MqttSessionBatch::Outcome &outcome = m_outcomes[slot.index];
        for (;;) {
            quint8 first = 0;
            QByteArray body;
            const int taken = takePacket(slot.in, &first, &body);
            if (taken < 0) {
                fail(slot, u"malformed packet length from the server"_s);
                return false;
            }
            if (taken == 0)
                return true;
            const quint8 type = first >> 4;
            if (type == PacketConnack && slot.stage == Stage::AwaitConnack) {
                if (body.size() != 2) {
                    fail(slot, u"CONNACK with %1 bytes instead of 2"_s.arg(body.size()));
                    return false;
                }
                outcome.sessionPresent = (quint8(body.at(0)) & 0x01) != 0;
                outcome.connackCode = quint8(body.at(1));
                if (outcome.connackCode != 0) {
                    outcome.refusedAtConnect = true;
                    fail(slot, u"CONNACK return code %1 (%2)"_s.arg(outcome.connackCode).arg(connackMeaning(outcome.connackCode)));
                    return false;
                }
                slot.stage = Stage::AwaitSuback;
                slot.out += subscribePacket(m_exchanges.at(slot.index));
            } else if (type == PacketSuback && slot.stage == Stage::AwaitSuback) {
                if (body.size() < 3 || ((quint16(quint8(body.at(0))) << 8) | quint8(body.at(1))) != SubscribePacketId) {
                    fail(slot, u"SUBACK for another packet id or without return codes"_s);
                    return false;
                }
                for (qsizetype i = 2; i < body.size(); ++i)
                    outcome.granted << quint8(body.at(i));
                if (outcome.granted.contains(0x80)) {
                    fail(slot, u"SUBACK refused the subscription to %1 (return code 128)"_s.arg(m_exchanges.at(slot.index).topic));
                    return false;
                }
                slot.stage = Stage::AwaitClose;
                slot.out += disconnectPacket();
            } else if (type == PacketPublish) {
                // A message queued for an existing session: not acknowledged; the server redelivers it later.
            } else {
                fail(slot, u"unexpected packet type %1 while waiting for %2"_s.arg(type).arg(stageWaitingFor(slot.stage)));
                return false;
            }
        }
    }

    void fail(Slot &slot, const QString &why)
    {
        m_outcomes[slot.index].failure = why;
        finish(slot, false);
    }

    void finish(Slot &slot, bool closedByServer)
    {
        MqttSessionBatch::Outcome &outcome = m_outcomes[slot.index];
        outcome.closedByServer = closedByServer;
        outcome.elapsedMs = slot.clock.elapsed();
        if (slot.fd >= 0)
            ::close(slot.fd);
        slot.fd = -1;
        slot.stage = Stage::Done;
    }

    quint16 m_port;
    const QList<MqttSessionBatch::Exchange> &m_exchanges;
    int m_timeoutMs;
    QList<MqttSessionBatch::Outcome> m_outcomes;
};

} // namespace

QList<MqttSessionBatch::Outcome> MqttSessionBatch::run(quint16 port, const QList<Exchange> &exchanges, int parallel, int timeoutMs)
{
    Runner runner(port, exchanges, timeoutMs);
    return runner.run(std::max(1, parallel));
}

} // namespace MqttDoctor::Test
