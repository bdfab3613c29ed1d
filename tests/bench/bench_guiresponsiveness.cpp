// GUI responsiveness while 100,000 sessions load: fills a local nats-server with session
// records (BenchData::fill, as bench_sessionload), loads them into the sessions view (SessionsPanel +
// AccountDataController, offscreen) and measures, with a 5 ms QTimer, the longest the event loop went
// without running it. Prints the figures; target: longest stall < 50 ms. Not a test: no assertion.
//
//   bench_guiresponsiveness [RECORDS] [SERVER_VERSION]     (defaults: 100000, 2.9)
#include <cstdio>

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>

#include "benchdata.h"
#include "controllers/accountdatacontroller.h"
#include "models/sessionfilterproxymodel.h"
#include "models/sessiontablemodel.h"
#include "natsserverfixture.h"
#include "panels/sessionspanel.h"
#include "stallmeter.h"

using namespace MqttDoctor;
using Bench::StallMeter;

int main(int argc, char **argv)
{
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int records = argc > 1 ? std::atoi(argv[1]) : 100000;
    const QString version = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("2.9");

    Test::NatsServerFixture server;
    if (!server.start(version)) {
        std::fprintf(stderr, "cannot start nats-server %s: %s\n", qPrintable(version), qPrintable(server.errorString()));
        return 1;
    }
    std::printf("nats-server %s at %s, %d session records\n", qPrintable(server.binary().version()), qPrintable(server.url()), records);
    if (!BenchData::fill(server.url().toUtf8(), records, 0))
        return 1;

    Profile profile;
    profile.servers = {server.url()};
    profile.auth.kind = Credentials::Kind::UserPassword;
    profile.auth.user = QString::fromLatin1(BenchData::User);
    profile.auth.password = QString::fromLatin1(BenchData::Password);
    AccountDataController controller;
    controller.setProfile(profile);
    SessionsPanel panel(controller);
    panel.resize(1280, 800);
    panel.show();
    panel.setAccount(QString()); // the connected user's own account

    StallMeter meter;
    QElapsedTimer wall;
    qint64 firstRowsMs = -1;
    QObject::connect(panel.model(), &QAbstractItemModel::rowsInserted, &panel, [&] {
        if (firstRowsMs < 0)
            firstRowsMs = wall.elapsed();
    });
    QEventLoop loop;
    QObject::connect(&panel, &SessionsPanel::loadFinished, &loop, &QEventLoop::quit);
    meter.start();
    wall.start();
    panel.reload();
    loop.exec();
    meter.stop();
    const qint64 loadMs = wall.elapsed();
    std::printf("loaded %d sessions into the view in %lld ms (first rows after %lld ms), %s\n", panel.model()->rowCount(),
                static_cast<long long>(loadMs), static_cast<long long>(firstRowsMs), qPrintable(panel.statusText()));
    std::printf("longest GUI event-loop stall while loading: %.1f ms (target < 50 ms; %lld timer ticks)\n", meter.longestMs(),
                static_cast<long long>(meter.ticks()));

    // After the load: the operations a person does next, each one measured the same way. An action
    // that finishes later (the sort runs on a worker) is waited for through its signal.
    const auto measure = [&](const char *what, const std::function<void()> &action, const std::function<void()> &waitFor = {}) {
        meter.start();
        QElapsedTimer t;
        t.start();
        action();
        const qint64 syncMs = t.elapsed();
        if (waitFor)
            waitFor();
        const qint64 doneMs = t.elapsed();
        QTimer::singleShot(50, &loop, &QEventLoop::quit);
        loop.exec();
        meter.stop();
        std::printf("%s: %lld ms until done (%lld ms of it synchronous on the GUI thread), longest stall %.1f ms\n", what,
                    static_cast<long long>(doneMs), static_cast<long long>(syncMs), meter.longestMs());
    };
    const auto waitForSort = [&] {
        if (!panel.model()->isSorting())
            return;
        QEventLoop sortLoop;
        QObject::connect(panel.model(), &SessionTableModel::sorted, &sortLoop, &QEventLoop::quit);
        sortLoop.exec();
    };
    measure(
        "sort by client ID", [&] { panel.view()->sortByColumn(SessionTableModel::ClientIdColumn, Qt::AscendingOrder); }, waitForSort);
    measure(
        "sort by last written, descending", [&] { panel.view()->sortByColumn(SessionTableModel::LastWrittenColumn, Qt::DescendingOrder); },
        waitForSort);
    const auto waitForFilter = [&] {
        if (!panel.proxy()->isFiltering())
            return;
        QEventLoop filterLoop;
        QObject::connect(panel.proxy(), &SessionFilterProxyModel::filterApplied, &filterLoop, &QEventLoop::quit);
        filterLoop.exec();
    };
    measure(
        "filter \"client-0009\"", [&] { panel.proxy()->setFilterText(QStringLiteral("client-0009")); }, waitForFilter);
    measure(
        "clear the filter", [&] { panel.proxy()->setFilterText({}); }, waitForFilter);
    measure("scroll to the end", [&] { panel.view()->scrollToBottom(); });
    // A refresh of the full table (what auto refresh does): the rows stay until the new ones are read.
    panel.selectClient(panel.model()->entryAt(panel.proxy()->mapToSource(panel.proxy()->index(10, 0)).row())->clientId);
    measure(
        "refresh the loaded table (sorted, a row selected)", [&] { panel.reload(); }, [&] { loop.exec(); });
    controller.shutdown();
    return 0;
}
