#include "serverprobe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <future>
#include <memory>
#include <mutex>
#include <thread>

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QJsonObject>

namespace MqttDoctor {

namespace {

constexpr int kMaxResolveMs = 3000;
constexpr int kMaxConnectMs = 3000;
// The probe explains a failure after nats.c gave up; on a busy machine a greeting or a refusal on loopback can
// take longer than a very short --timeout, so the probe waits at least this long for each (the explanation
// must be right; it may take a little longer than the attempt it explains).
constexpr int kMinConnectMs = 250;
constexpr int kMaxGreetingMs = 500;
constexpr int kMinGreetingMs = 250;
constexpr qsizetype kMaxGreetingBytes = 64 * 1024;
constexpr int kMaxProbed = 8;

// getaddrinfo() cannot be given a deadline: it runs on a thread of its own, and a lookup that does not
// end in time is left to finish there (it frees its own result).
struct DnsLookup
{
    std::mutex mutex;
    std::condition_variable done;
    bool finished = false;
    bool abandoned = false;
    int rc = 0;
    addrinfo *result = nullptr;
};

struct AddrInfoDeleter
{
    void operator()(addrinfo *a) const
    {
        if (a)
            freeaddrinfo(a);
    }
};
using AddrInfoPtr = std::unique_ptr<addrinfo, AddrInfoDeleter>;

struct ProbeResolution
{
    ServerProbeFacts::Resolution resolution = ServerProbeFacts::Resolution::Resolved;
    QString detail;
    int waitedMs = 0;
    AddrInfoPtr addresses;
};

ProbeResolution resolveWithin(const QString &host, quint16 port, int timeoutMs)
{
    {
        // An address literal needs no lookup: resolved here, so a short timeout never reads as a DNS failure.
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICHOST;
        addrinfo *result = nullptr;
        if (getaddrinfo(host.toStdString().c_str(), std::to_string(port).c_str(), &hints, &result) == 0 && result) {
            ProbeResolution out;
            out.addresses.reset(result);
            return out;
        }
    }
    auto lookup = std::make_shared<DnsLookup>();
    const std::string name = host.toStdString();
    const std::string service = std::to_string(port);
    std::thread([lookup, name, service] {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo *result = nullptr;
        const int rc = getaddrinfo(name.c_str(), service.c_str(), &hints, &result);
        std::lock_guard lock(lookup->mutex);
        if (lookup->abandoned) {
            if (result)
                freeaddrinfo(result);
            return;
        }
        lookup->rc = rc;
        lookup->result = result;
        lookup->finished = true;
        lookup->done.notify_all();
    }).detach();

    ProbeResolution out;
    const int wait = std::clamp(timeoutMs, 1, kMaxResolveMs);
    std::unique_lock lock(lookup->mutex);
    if (!lookup->done.wait_for(lock, std::chrono::milliseconds(wait), [&] { return lookup->finished; })) {
        lookup->abandoned = true;
        out.resolution = ServerProbeFacts::Resolution::TemporaryFailure;
        out.waitedMs = wait;
        return out;
    }
    out.addresses.reset(lookup->result);
    lookup->result = nullptr;
    switch (lookup->rc) {
    case 0:
        if (!out.addresses)
            out.resolution = ServerProbeFacts::Resolution::NoSuchHost;
        break;
    case EAI_NONAME:
#ifdef EAI_NODATA
    case EAI_NODATA:
#endif
#ifdef EAI_ADDRFAMILY
    case EAI_ADDRFAMILY:
#endif
        out.resolution = ServerProbeFacts::Resolution::NoSuchHost;
        break;
    case EAI_AGAIN: out.resolution = ServerProbeFacts::Resolution::TemporaryFailure; break;
    default:
        out.resolution = ServerProbeFacts::Resolution::Failed;
        out.detail = QString::fromLocal8Bit(gai_strerror(lookup->rc));
        break;
    }
    return out;
}

ServerProbeFacts::Reach reachOf(int error)
{
    switch (error) {
    case 0: return ServerProbeFacts::Reach::Connected;
    case ECONNREFUSED: return ServerProbeFacts::Reach::Refused;
    case ETIMEDOUT: return ServerProbeFacts::Reach::TimedOut;
    case ENETUNREACH:
    case EHOSTUNREACH:
    case ENETDOWN:
    case EHOSTDOWN: return ServerProbeFacts::Reach::Unreachable;
    default: return ServerProbeFacts::Reach::Failed;
    }
}

// The better-known outcome of two addresses: connected, then refused (a definite answer), timed out, unreachable.
int reachRank(ServerProbeFacts::Reach r)
{
    switch (r) {
    case ServerProbeFacts::Reach::Connected: return 5;
    case ServerProbeFacts::Reach::Refused: return 4;
    case ServerProbeFacts::Reach::TimedOut: return 3;
    case ServerProbeFacts::Reach::Unreachable: return 2;
    case ServerProbeFacts::Reach::Failed: return 1;
    case ServerProbeFacts::Reach::NotTried: break;
    }
    return 0;
}

struct ProbeSocket
{
    int fd = -1;
    ~ProbeSocket()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

// Non-blocking connect to one address within `deadline`; returns 0 or the errno.
int connectOne(const addrinfo *a, const QDeadlineTimer &deadline, ProbeSocket &sock)
{
    sock.fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (sock.fd < 0)
        return errno;
    if (::connect(sock.fd, a->ai_addr, a->ai_addrlen) == 0)
        return 0;
    if (errno != EINPROGRESS)
        return errno;
    pollfd p{sock.fd, POLLOUT, 0};
    int rc = 0;
    do {
        rc = ::poll(&p, 1, static_cast<int>(std::max<qint64>(0, deadline.remainingTime())));
    } while (rc < 0 && errno == EINTR);
    if (rc == 0)
        return ETIMEDOUT;
    if (rc < 0)
        return errno;
    int error = 0;
    socklen_t len = sizeof error;
    if (::getsockopt(sock.fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
        return errno;
    return error;
}

enum class ReadEnd { Line, Closed, Quiet };

// Reads into `buffer` until a line is complete, the peer closes, or `waitMs` pass.
ReadEnd readGreeting(int fd, QByteArray &buffer, int waitMs)
{
    const QDeadlineTimer deadline(waitMs);
    char chunk[4096];
    for (;;) {
        if (buffer.contains('\n') || buffer.size() >= kMaxGreetingBytes)
            return ReadEnd::Line;
        pollfd p{fd, POLLIN, 0};
        const int rc = ::poll(&p, 1, static_cast<int>(std::max<qint64>(0, deadline.remainingTime())));
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return ReadEnd::Quiet;
        const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (n <= 0)
            return ReadEnd::Closed;
        buffer.append(chunk, n);
    }
}

void readInfoLine(ServerProbeFacts &facts, const QByteArray &line)
{
    const QByteArray json = line.mid(4).trimmed();
    const QJsonDocument doc = QJsonDocument::fromJson(json);
    if (!doc.isObject())
        return;
    const QJsonObject info = doc.object();
    facts.infoParsed = true;
    facts.tlsRequired = info.value(QLatin1String("tls_required")).toBool();
    facts.tlsAvailable = info.value(QLatin1String("tls_available")).toBool();
    facts.tlsVerify = info.value(QLatin1String("tls_verify")).toBool();
    facts.authRequired = info.value(QLatin1String("auth_required")).toBool();
    facts.serverName = info.value(QLatin1String("server_name")).toString().left(200);
    facts.version = info.value(QLatin1String("version")).toString().left(40);
}

void greet(ServerProbeFacts &facts, int fd, int timeoutMs)
{
    // nats.c waited for the greeting already; a NATS server sends it at once.
    const int wait = std::clamp(timeoutMs / 4, kMinGreetingMs, kMaxGreetingMs);
    QByteArray buffer;
    ReadEnd end = readGreeting(fd, buffer, wait);
    if (end == ReadEnd::Quiet && buffer.isEmpty()) {
        // A NATS client port greets at once. One line tells what else it is: an HTTP server answers
        // "400 Bad Request", an MQTT listener closes (the first packet must be its CONNECT).
        static const char nudge[] = "PING\r\n";
        static_cast<void>(::send(fd, nudge, sizeof nudge - 1, MSG_NOSIGNAL));
        end = readGreeting(fd, buffer, wait);
    }
    facts.waitedMs = buffer.isEmpty() && end == ReadEnd::Quiet ? 2 * wait : 0;
    if (buffer.isEmpty()) {
        facts.greeting = end == ReadEnd::Closed ? ServerProbeFacts::Greeting::Closed : ServerProbeFacts::Greeting::Silent;
        return;
    }
    facts.firstBytes = buffer.left(64);
    if (buffer.startsWith("INFO ") || buffer.startsWith("INFO\t")) {
        facts.greeting = ServerProbeFacts::Greeting::Info;
        readInfoLine(facts, buffer.left(buffer.indexOf('\n') < 0 ? buffer.size() : buffer.indexOf('\n')));
    } else if (buffer.startsWith("HTTP/")) {
        facts.greeting = ServerProbeFacts::Greeting::Http;
    } else {
        facts.greeting = ServerProbeFacts::Greeting::OtherProtocol;
    }
}

} // namespace

QString ServerProbeFacts::hostPort() const
{
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    return h + QLatin1Char(':') + QString::number(port);
}

bool ServerProbe::splitUrl(const QString &url, QString *host, quint16 *port)
{
    QString rest = url;
    if (const qsizetype sep = rest.indexOf(QLatin1String("://")); sep >= 0)
        rest = rest.mid(sep + 3);
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0)
        rest = rest.left(slash);
    const qsizetype colon = rest.lastIndexOf(QLatin1Char(':'));
    const qsizetype bracket = rest.lastIndexOf(QLatin1Char(']'));
    if (colon < 0 || colon < bracket)
        return false;
    bool ok = false;
    const uint p = rest.mid(colon + 1).toUInt(&ok);
    QString h = rest.left(colon);
    if (h.startsWith(QLatin1Char('[')) && h.endsWith(QLatin1Char(']')))
        h = h.mid(1, h.size() - 2);
    if (!ok || p == 0 || p > 65535 || h.isEmpty())
        return false;
    *host = h;
    *port = static_cast<quint16>(p);
    return true;
}

ServerProbeFacts ServerProbe::probe(const QString &url, int timeoutMs)
{
    ServerProbeFacts facts;
    facts.url = url;
    if (!splitUrl(url, &facts.host, &facts.port)) {
        facts.resolution = ServerProbeFacts::Resolution::Failed;
        facts.detail = QStringLiteral("no host and port in the URL");
        return facts;
    }
    ProbeResolution resolved = resolveWithin(facts.host, facts.port, timeoutMs);
    facts.resolution = resolved.resolution;
    facts.detail = resolved.detail;
    facts.waitedMs = resolved.waitedMs;
    if (facts.resolution != ServerProbeFacts::Resolution::Resolved)
        return facts;

    const int connectWait = std::clamp(timeoutMs, kMinConnectMs, kMaxConnectMs);
    const QDeadlineTimer deadline(connectWait);
    ProbeSocket connected;
    int best = 0;
    int bestError = 0;
    for (const addrinfo *a = resolved.addresses.get(); a && reachRank(facts.reach) < 5; a = a->ai_next) {
        ProbeSocket sock;
        const int error = connectOne(a, deadline, sock);
        const ServerProbeFacts::Reach reach = reachOf(error);
        if (reachRank(reach) > best) {
            best = reachRank(reach);
            bestError = error;
            facts.reach = reach;
        }
        if (reach == ServerProbeFacts::Reach::Connected)
            std::swap(connected.fd, sock.fd);
        if (deadline.hasExpired())
            break;
    }
    if (facts.reach == ServerProbeFacts::Reach::NotTried) {
        facts.reach = ServerProbeFacts::Reach::TimedOut;
        bestError = ETIMEDOUT;
    }
    if (facts.reach == ServerProbeFacts::Reach::TimedOut)
        facts.waitedMs = connectWait;
    if (facts.reach == ServerProbeFacts::Reach::Unreachable || facts.reach == ServerProbeFacts::Reach::Failed)
        facts.detail = QString::fromLocal8Bit(std::strerror(bestError));
    if (facts.reach != ServerProbeFacts::Reach::Connected)
        return facts;
    greet(facts, connected.fd, timeoutMs);
    return facts;
}

QList<ServerProbeFacts> ServerProbe::probeAll(const QStringList &urls, int timeoutMs)
{
    std::vector<std::future<ServerProbeFacts>> running;
    for (qsizetype i = 0; i < urls.size() && i < kMaxProbed; ++i)
        running.push_back(std::async(std::launch::async, [url = urls[i], timeoutMs] { return probe(url, timeoutMs); }));
    QList<ServerProbeFacts> out;
    for (auto &f : running)
        out.append(f.get());
    return out;
}

} // namespace MqttDoctor
