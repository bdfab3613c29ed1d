// The main window with a fleet of accounts (issue 15, item 4): starts a local nats-server with
// ACCOUNTS JetStream accounts (one user each), gives the first MQTT_ACCOUNTS of them their MQTT
// streams and a persistent session through a real MQTT 3.1.1 CONNECT (many sockets at once), then
// connects the main window offscreen through the system account and measures, with a 5 ms QTimer
// (as bench_guiresponsiveness), the longest the GUI event loop went without running it: while the
// tree loads (until every account row and its health badge are in), while typing into the account
// filter, while re-sorting and on a refresh. Prints the figures (target: no stall over 50 ms; the
// tree with its badges within 1.5 s of connecting). Not a test: no assertion.
//
//   bench_guifleet [--accounts N] [--mqtt-accounts N] [--server 2.9|2.10|newest] [--screenshot FILE]
//
// Every 1,000th account with MQTT streams then loses its $MQTT_sess (a critical finding), so the
// problems-first order has something to put first. --screenshot saves the window at the end, filtered
// (docs/screenshots/fleet-tree.png is made that way).
//
// Defaults: 10,000 accounts on 2.9. A nats-server holds about five open files per account with MQTT
// streams (each stream's message block and index), so --mqtt-accounts defaults to all accounts the
// open-file limit allows the server (the bench raises its soft limit to the hard one first).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <vector>

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QTimer>
#include <QTreeView>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/accountsort.h"
#include "models/clustertreemodel.h"
#include "models/clustertreeproxymodel.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "natsserverfixture.h"
#include "panels/clustertreepanel.h"
#include "serverconfig.h"

using namespace MqttDoctor;

namespace {

/** The GUI thread's time on a CPU and waiting for one, from the kernel's scheduler statistics (ns). */
struct SchedTimes
{
    qint64 running = 0;
    qint64 waiting = 0;

    static SchedTimes now()
    {
        SchedTimes t;
        if (FILE *f = std::fopen("/proc/thread-self/schedstat", "r")) {
            long long run = 0, wait = 0;
            if (std::fscanf(f, "%lld %lld", &run, &wait) == 2)
                t = {run, wait};
            std::fclose(f);
        }
        return t;
    }
};

/** One long gap: when it began and how long it was, and what the GUI thread did meanwhile (ms). */
struct Gap
{
    qint64 at = 0;
    qint64 length = 0;
    qint64 running = 0; ///< on a CPU: work on the GUI thread
    qint64 waiting = 0; ///< runnable but without a CPU: the machine was busy elsewhere
};

/**
 * The longest gap between ticks of a 5 ms timer: how long the GUI thread could not react. Gaps over
 * 20 ms are listed with the GUI thread's CPU time and its wait for a CPU during them, which tells work
 * on the GUI thread from a machine too busy to run it (this VM's 2 cores are shared).
 */
class StallMeter final : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            const SchedTimes sched = SchedTimes::now();
            if (m_last >= 0) {
                m_longest = std::max(m_longest, now - m_last);
                if (now - m_last > 20'000'000)
                    m_long.append({m_last / 1'000'000, (now - m_last) / 1'000'000, (sched.running - m_sched.running) / 1'000'000,
                                   (sched.waiting - m_sched.waiting) / 1'000'000});
            }
            m_last = now;
            m_sched = sched;
            ++m_ticks;
        });
    }
    /** Gaps over 20 ms. */
    QList<Gap> longGaps() const { return m_long; }
    void start()
    {
        m_longest = 0;
        m_ticks = 0;
        m_long.clear();
        m_last = 0; // the first gap counts from start(): a synchronous action right after it is a stall
        m_sched = SchedTimes::now();
        m_clock.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double longestMs() const { return double(m_longest) / 1e6; }
    qint64 ticks() const { return m_ticks; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = -1;
    qint64 m_longest = 0;
    qint64 m_ticks = 0;
    SchedTimes m_sched;
    QList<Gap> m_long;
};

QString gapsText(const StallMeter &meter)
{
    QStringList parts;
    for (const Gap &gap : meter.longGaps())
        parts << QStringLiteral("%1 ms at %2 (%3 running, %4 waiting for a CPU)").arg(gap.length).arg(gap.at).arg(gap.running).arg(gap.waiting);
    return parts.isEmpty() ? QString() : QStringLiteral("\n    gaps over 20 ms: %1").arg(parts.join(QStringLiteral("; ")));
}

QString accountName(int i)
{
    return QStringLiteral("fleet-%1").arg(i, 5, 10, QLatin1Char('0'));
}
QByteArray userOf(int i)
{
    return QByteArray("u") + QByteArray::number(i);
}
QByteArray passwordOf(int i)
{
    return QByteArray("p") + QByteArray::number(i);
}

void appendString(QByteArray &out, const QByteArray &s)
{
    out += char(s.size() >> 8);
    out += char(s.size() & 0xff);
    out += s;
}

/** An MQTT 3.1.1 CONNECT with user and password, clean session off: the server keeps a session record. */
QByteArray connectPacket(const QByteArray &clientId, const QByteArray &user, const QByteArray &password)
{
    QByteArray body;
    appendString(body, QByteArrayLiteral("MQTT"));
    body += char(4);    // protocol level 3.1.1
    body += char(0xC0); // user name, password; clean session 0
    body += char(0);
    body += char(60); // keep alive
    appendString(body, clientId);
    appendString(body, user);
    appendString(body, password);
    QByteArray packet(1, char(0x10));
    qsizetype length = body.size();
    do {
        char digit = char(length % 128);
        length /= 128;
        if (length > 0)
            digit = char(digit | 0x80);
        packet += digit;
    } while (length > 0);
    return packet + body;
}

/**
 * CONNECT (and then DISCONNECT) once as the user of each account in [0, count), `parallel` sockets at
 * a time: nats-server creates the account's MQTT streams on its first connect and stores the session.
 * Returns how many got a CONNACK with return code 0.
 */
int connectAll(quint16 port, int count, int parallel)
{
    struct Client
    {
        int fd = -1;
        int account = -1;
        QByteArray out;
        qsizetype sent = 0;
        QByteArray in;
        QElapsedTimer started;
    };
    std::vector<Client> clients(static_cast<size_t>(parallel));
    int next = 0;
    int done = 0;
    int accepted = 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const auto finish = [&](Client &c, bool ok) {
        if (ok) {
            static const char disconnect[] = {char(0xE0), 0};
            static_cast<void>(::send(c.fd, disconnect, sizeof disconnect, MSG_NOSIGNAL));
            ++accepted;
        } else {
            std::fprintf(stderr, "MQTT connect of %s failed (%lld bytes answered)\n", qPrintable(accountName(c.account)),
                         static_cast<long long>(c.in.size()));
        }
        ::close(c.fd);
        c.fd = -1;
        ++done;
    };
    while (done < count) {
        std::vector<pollfd> fds;
        std::vector<Client *> owners;
        for (Client &c : clients) {
            if (c.fd < 0 && next < count) {
                c = Client{};
                c.account = next++;
                c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
                static_cast<void>(::connect(c.fd, reinterpret_cast<sockaddr *>(&address), sizeof address));
                c.out = connectPacket(QByteArray("fleet-client-") + QByteArray::number(c.account), userOf(c.account),
                                      passwordOf(c.account));
                c.started.start();
            }
            if (c.fd < 0)
                continue;
            if (c.started.elapsed() > 60000) {
                finish(c, false);
                continue;
            }
            fds.push_back(pollfd{c.fd, short(c.sent < c.out.size() ? POLLOUT : POLLIN), 0});
            owners.push_back(&c);
        }
        if (fds.empty())
            continue;
        if (::poll(fds.data(), nfds_t(fds.size()), 1000) <= 0)
            continue;
        for (size_t i = 0; i < fds.size(); ++i) {
            Client &c = *owners[i];
            if (fds[i].revents & (POLLERR | POLLHUP)) {
                finish(c, false);
                continue;
            }
            if (fds[i].revents & POLLOUT) {
                const ssize_t n = ::send(c.fd, c.out.constData() + c.sent, size_t(c.out.size() - c.sent), MSG_NOSIGNAL);
                if (n > 0)
                    c.sent += n;
            } else if (fds[i].revents & POLLIN) {
                char buffer[16];
                const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
                if (n <= 0) {
                    finish(c, false);
                    continue;
                }
                c.in.append(buffer, n);
                if (c.in.size() >= 4)
                    finish(c, c.in.at(0) == char(0x20) && c.in.at(3) == 0);
            }
        }
    }
    return accepted;
}

/** Runs the event loop until `done` is true (checked every 2 ms) or `timeoutMs` passed. */
bool waitUntil(const std::function<bool()> &done, int timeoutMs = 600000)
{
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(2);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done() || t.elapsed() > timeoutMs)
            loop.quit();
    });
    poll.start();
    if (!done())
        loop.exec();
    return done();
}

/** The open-file limit the server inherits, raised to the hard limit. */
rlim_t raiseOpenFileLimit()
{
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return 1024;
    limit.rlim_cur = limit.rlim_max;
    static_cast<void>(::setrlimit(RLIMIT_NOFILE, &limit));
    ::getrlimit(RLIMIT_NOFILE, &limit);
    return limit.rlim_cur;
}

/** Runs the event loop for `ms` milliseconds. */
void idle(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    app.setOrganizationName(QStringLiteral("mqttdoctor-bench"));
    int accounts = 10000;
    int mqttAccounts = -1;
    QString version = QStringLiteral("2.9");
    QString screenshot;
    // Options of scripts/run-benchmarks.sh meant for other benches (--runs 9) are skipped with their value.
    const QStringList args = app.arguments();
    for (qsizetype i = 1; i + 1 < args.size(); ++i) {
        if (args[i] == QLatin1String("--accounts"))
            accounts = args[++i].toInt();
        else if (args[i] == QLatin1String("--mqtt-accounts"))
            mqttAccounts = args[++i].toInt();
        else if (args[i] == QLatin1String("--server"))
            version = args[++i];
        else if (args[i] == QLatin1String("--screenshot"))
            screenshot = args[++i];
    }
    const rlim_t files = raiseOpenFileLimit();
    const int mqttAllowed = int(std::max<qint64>(0, (qint64(files) - 1000) / 6));
    if (mqttAccounts < 0)
        mqttAccounts = std::min(accounts, mqttAllowed);
    mqttAccounts = std::min(accounts, mqttAccounts);
    std::printf("open-file limit %llu: MQTT streams for %d of %d accounts\n", static_cast<unsigned long long>(files),
                mqttAccounts, accounts);

    Test::ServerConfig config;
    config.setServerName(QStringLiteral("fleet1"));
    for (int i = 0; i < accounts; ++i)
        config.addAccount(Test::ServerConfig::jetStreamAccount(accountName(i), QString::fromLatin1(userOf(i)),
                                                               QString::fromLatin1(passwordOf(i))));
    Test::NatsServerFixture server;
    QElapsedTimer setup;
    setup.start();
    if (!server.start(version, config, 300000)) {
        std::fprintf(stderr, "cannot start nats-server %s: %s\n", qPrintable(version), qPrintable(server.errorString()));
        return 1;
    }
    std::printf("nats-server %s at %s with %d JetStream accounts, started in %lld ms\n", qPrintable(server.binary().version()),
                qPrintable(server.url()), accounts, static_cast<long long>(setup.elapsed()));
    setup.restart();
    const int connected = connectAll(server.mqttPort(), mqttAccounts, 32);
    std::printf("%d of %d accounts got their MQTT streams and a session through a CONNECT, in %lld ms\n", connected,
                mqttAccounts, static_cast<long long>(setup.elapsed()));
    int broken = 0;
    for (int i = 0; i < mqttAccounts; i += 1000) {
        Profile own;
        own.servers = {server.url()};
        own.auth.kind = Credentials::Kind::UserPassword;
        own.auth.user = QString::fromLatin1(userOf(i));
        own.auth.password = QString::fromLatin1(passwordOf(i));
        ConnectionSet connections(own);
        auto conn = connections.primary();
        if (conn && JetStreamClient(*conn).call(QStringLiteral("STREAM.DELETE.$MQTT_sess")))
            ++broken;
    }
    std::printf("%d accounts lost their $MQTT_sess (every 1,000th with MQTT streams)\n", broken);
    std::fflush(stdout);

    Profile profile;
    profile.name = QStringLiteral("fleet");
    profile.servers = {server.url()};
    profile.system.kind = Credentials::Kind::UserPassword;
    profile.system.user = QStringLiteral("sys");
    profile.system.password = QStringLiteral("syspass");
    profile.timeoutMs = 30000;

    ClusterController controller;
    // Connected before the window's own handlers, so these see each result as it arrives.
    QElapsedTimer wall;
    qint64 serversAtMs = -1;
    qint64 accountsAtMs = -1;
    qint64 healthAtMs = -1;
    QObject::connect(&controller, &ClusterController::serversLoaded, &controller, [&] {
        if (serversAtMs < 0)
            serversAtMs = wall.elapsed();
    });
    QObject::connect(&controller, &ClusterController::accountsLoaded, &controller, [&] {
        if (accountsAtMs < 0)
            accountsAtMs = wall.elapsed();
    });
    QObject::connect(&controller, &ClusterController::healthLoaded, &controller, [&] {
        if (healthAtMs < 0)
            healthAtMs = wall.elapsed();
    });
    MainWindow window(controller);
    window.resize(1400, 860);
    window.show();
    ClusterTreePanel &tree = *window.treePanel();
    ClusterTreeModel &model = *tree.model();
    idle(200);

    StallMeter meter;
    qint64 firstRowsMs = -1;
    qint64 completeMs = -1;
    QObject::connect(&model, &QAbstractItemModel::rowsInserted, &window, [&](const QModelIndex &parent) {
        if (firstRowsMs < 0 && parent == model.accountGroupIndex())
            firstRowsMs = wall.elapsed();
    });
    QObject::connect(&window, &MainWindow::treeComplete, &window, [&] { completeMs = wall.elapsed(); });
    meter.start();
    wall.start();
    controller.connectTo(profile);
    if (!waitUntil([&] { return completeMs >= 0; })) {
        std::fprintf(stderr, "the tree was not complete after 10 minutes\n");
        return 1;
    }
    idle(100);
    meter.stop();
    std::printf("tree complete: %d accounts, %d servers, %lld ms after connect (target < 1500 ms with 1,000 accounts)\n",
                model.rowCount(model.accountGroupIndex()), model.rowCount(model.serverGroupIndex()),
                static_cast<long long>(completeMs));
    std::printf("  discovery (core, on the pool): servers after %lld ms, accounts after %lld ms\n",
                static_cast<long long>(serversAtMs), static_cast<long long>(accountsAtMs));
    std::printf("  then the GUI: account rows in the tree after %lld ms, badges computed on the pool by %lld ms, tree "
                "complete %lld ms after the last discovery result\n",
                static_cast<long long>(firstRowsMs), static_cast<long long>(healthAtMs),
                static_cast<long long>(completeMs - std::max(serversAtMs, accountsAtMs)));
    std::printf("longest GUI event-loop stall while connecting and loading: %.1f ms (target < 50 ms; %lld timer ticks)%s\n",
                meter.longestMs(), static_cast<long long>(meter.ticks()), qPrintable(gapsText(meter)));

    const auto measure = [&](const char *what, const std::function<void()> &action, const std::function<bool()> &done = {}) {
        meter.start();
        QElapsedTimer t;
        t.start();
        action();
        const qint64 syncMs = t.elapsed();
        if (done)
            waitUntil(done);
        const qint64 doneMs = t.elapsed();
        idle(50);
        meter.stop();
        std::printf("%s: %lld ms until done (%lld ms of it synchronous on the GUI thread), longest stall %.1f ms%s\n", what,
                    static_cast<long long>(doneMs), static_cast<long long>(syncMs), meter.longestMs(), qPrintable(gapsText(meter)));
        std::fflush(stdout);
    };

    // A person selects an account somewhere in the middle and opens it, then looks for another one.
    const QString middle = accountName(accounts / 2);
    tree.setCurrentSourceIndex(model.accountIndex(middle));
    tree.expandSource(model.accountIndex(middle));
    idle(300);

    // Typing one character at a time, 120 ms apart, as a person types; each keystroke filters at once.
    const QString typed = accountName(accounts - 3);
    meter.start();
    QElapsedTimer typing;
    typing.start();
    for (const QChar c : typed) {
        tree.filterEdit()->insert(QString(c));
        idle(120);
    }
    meter.stop();
    std::printf("typing \"%s\" into the filter (%lld characters, 120 ms apart): %d account rows left, longest stall %.1f ms%s\n",
                qPrintable(typed), static_cast<long long>(typed.size()),
                tree.proxy()->rowCount(tree.proxy()->mapFromSource(model.accountGroupIndex())), meter.longestMs(),
                qPrintable(gapsText(meter)));
    measure("clear the filter", [&] { tree.filterEdit()->clear(); });
    measure("filter \"1\" (rows scattered over the whole list)", [&] { tree.filterEdit()->setText(QStringLiteral("1")); });
    std::printf("  (%s)\n", qPrintable(tree.matchText()));
    measure("clear the filter", [&] { tree.filterEdit()->clear(); });
    measure("sort by name", [&] { tree.sortBox()->setCurrentIndex(tree.sortBox()->findData(int(AccountSort::Mode::ByName))); });
    measure("sort by health (problems first)",
            [&] { tree.sortBox()->setCurrentIndex(tree.sortBox()->findData(int(AccountSort::Mode::ByHealth))); });
    measure("scroll to the end", [&] { tree.view()->scrollToBottom(); });
    bool refreshed = false;
    const auto connection = QObject::connect(&controller, &ClusterController::loadingChanged, &window, [&](bool loading) {
        if (!loading)
            refreshed = true;
    });
    measure("refresh (servers, accounts, badges; an account selected and expanded)", [&] { controller.refresh(); },
            [&] { return refreshed; });
    QObject::disconnect(connection);
    std::printf("selected after the refresh: %s\n", qPrintable(tree.currentSourceIndex().data(ClusterTreeModel::NameRole).toString()));
    if (!screenshot.isEmpty()) {
        tree.filterEdit()->setText(QStringLiteral("fleet-01"));
        tree.setCurrentSourceIndex(model.accountIndex(accountName(1000)));
        tree.expandSource(model.accountIndex(accountName(1000)));
        tree.view()->scrollToTop();
        idle(500);
        std::printf("screenshot %s: %s\n", qPrintable(screenshot), window.grab().save(screenshot) ? "saved" : "NOT saved");
    }
    controller.shutdown();
    return 0;
}
