// The main window with a fleet of accounts: starts a local nats-server with
// ACCOUNTS JetStream accounts (one user each), gives the first MQTT_ACCOUNTS of them their MQTT
// streams and a persistent session through real MQTT sessions (FleetSetup, many at once), then
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
// Defaults: 10,000 accounts on 2.9. A nats-server keeps files open for every MQTT stream, so
// --mqtt-accounts defaults to as many accounts as the open-file hard limit lets the server hold
// (FleetSetup::mqttAccountsWithin; the bench raises its soft limit first).

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
#include "fleetsetup.h"
#include "natsserverfixture.h"
#include "panels/clustertreepanel.h"
#include "serverconfig.h"
#include "stallmeter.h"

using namespace MqttDoctor;
using Bench::Gap;
using Bench::StallMeter;

namespace {

QString gapsText(const StallMeter &meter)
{
    QStringList parts;
    for (const Gap &gap : meter.longGaps())
        parts << QStringLiteral("%1 ms at %2 (%3 running, %4 waiting for a CPU)")
                     .arg(gap.length)
                     .arg(gap.at)
                     .arg(gap.running)
                     .arg(gap.waiting);
    return parts.isEmpty() ? QString() : QStringLiteral("\n    gaps over 20 ms: %1").arg(parts.join(QStringLiteral("; ")));
}

QString accountName(int i)
{
    return Test::FleetSetup::accountName(i);
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
    const Test::NatsServerBinary binary = Test::NatsServerBinary::locate(version);
    if (!binary.isValid()) {
        std::fprintf(stderr, "%s\n", qPrintable(binary.errorString()));
        return 1;
    }
    // As many accounts get MQTT state as the server's open files can hold (see FleetSetup).
    const qint64 hardLimit = Test::FleetSetup::openFileHardLimit();
    const int mqttAllowed = hardLimit < 0 ? accounts : Test::FleetSetup::mqttAccountsWithin(hardLimit, binary.versionNumber());
    if (mqttAccounts < 0)
        mqttAccounts = std::min(accounts, mqttAllowed);
    mqttAccounts = std::min(accounts, mqttAccounts);
    const Test::FleetSetup fleet(accounts, mqttAccounts);
    QString why;
    if (!fleet.raiseOpenFileLimit(binary.versionNumber(), &why))
        std::printf("%s\n", qPrintable(why));
    std::printf("open-file hard limit %lld: MQTT streams for %d of %d accounts\n", static_cast<long long>(hardLimit), mqttAccounts,
                accounts);

    Test::ServerConfig config = fleet.serverConfig();
    config.setServerName(QStringLiteral("fleet1"));
    Test::NatsServerFixture server;
    QElapsedTimer setup;
    setup.start();
    if (!server.start(binary, config, fleet.readyTimeoutMs())) {
        std::fprintf(stderr, "cannot start nats-server %s: %s\n", qPrintable(version), qPrintable(server.errorString()));
        return 1;
    }
    std::printf("nats-server %s at %s with %d JetStream accounts, started in %lld ms\n", qPrintable(server.binary().version()),
                qPrintable(server.url()), accounts, static_cast<long long>(setup.elapsed()));
    const Test::FleetSetup::Report made = fleet.createMqttState(server.mqttPort());
    std::printf("%d of %d accounts got their MQTT streams and a session through MQTT, in %lld ms%s\n", made.sessionsCreated, made.accounts,
                static_cast<long long>(made.elapsedMs), made.ok() ? "" : qPrintable(QStringLiteral("\n") + made.describe()));
    int broken = 0;
    for (int i = 0; i < mqttAccounts; i += 1000) {
        Profile own;
        own.servers = {server.url()};
        own.auth.kind = Credentials::Kind::UserPassword;
        own.auth.user = Test::FleetSetup::userName(i);
        own.auth.password = Test::FleetSetup::password(i);
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
                model.rowCount(model.accountGroupIndex()), model.rowCount(model.serverGroupIndex()), static_cast<long long>(completeMs));
    std::printf("  discovery (core, on the pool): servers after %lld ms, accounts after %lld ms\n", static_cast<long long>(serversAtMs),
                static_cast<long long>(accountsAtMs));
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
    measure(
        "refresh (servers, accounts, badges; an account selected and expanded)", [&] { controller.refresh(); }, [&] { return refreshed; });
    QObject::disconnect(connection);
    std::printf("selected after the refresh: %s\n", qPrintable(tree.currentSourceIndex().data(ClusterTreeModel::NameRole).toString()));
    if (!screenshot.isEmpty()) {
        tree.filterEdit()->setText(QStringLiteral("T01"));
        tree.setCurrentSourceIndex(model.accountIndex(accountName(1000)));
        tree.expandSource(model.accountIndex(accountName(1000)));
        tree.view()->scrollToTop();
        idle(500);
        std::printf("screenshot %s: %s\n", qPrintable(screenshot), window.grab().save(screenshot) ? "saved" : "NOT saved");
    }
    controller.shutdown();
    return 0;
}
