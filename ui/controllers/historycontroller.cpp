#include "historycontroller.h"

#include <QDateTime>
#include <QFileInfo>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "history/historydatabase.h"
#include "history/historylocation.h"
#include "history/historyrecorder.h"

namespace MqttDoctor {

namespace {

/**
 * HistoryQuery::severities has a point only for the checks that saw an open finding of the account. The
 * window's first and last checks that looked at the account (HistoryQuery::checks) are always among its
 * points when they had one (thinning keeps both ends), so when either is missing, that check saw none: a
 * point of zeros there, so the lines start and end where the checks do (a check in between without findings
 * still has no point of its own).
 */
QList<HistoryQuery::SeverityPoint> withQuietEnds(QList<HistoryQuery::SeverityPoint> severities, const HistoryQuery::Checks &checks)
{
    if (checks.count == 0 || !checks.first.isValid() || !checks.last.isValid())
        return severities;
    if (severities.isEmpty() || severities.first().at > checks.first)
        severities.prepend({checks.first});
    if (severities.last().at < checks.last)
        severities.append({checks.last});
    return severities;
}

} // namespace

HistoryController::HistoryController(QObject *parent) : QObject(parent), m_runner(std::make_unique<AsyncRunner>(1))
{
    qRegisterMetaType<MqttDoctor::HistoryController::View>();
}

HistoryController::~HistoryController()
{
    shutdown();
}

void HistoryController::setFolder(const QString &folder)
{
    m_folder = folder;
}

void HistoryController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    ++m_recordGeneration;
    ++m_loadGeneration;
    ++m_firstSeenGeneration;
    m_runner->shutdown();
}

void HistoryController::record(std::shared_ptr<const CheckRecord> check)
{
    if (m_shutDown || !m_recording || !check)
        return;
    const quint64 gen = m_recordGeneration;
    static_cast<void>(m_runner->run([this, gen, check = std::move(check), folder = HistoryLocation::folder(m_folder)] {
        const auto failWith = [&](const Error &error) {
            GuiDelivery::post(this, m_recordGeneration, gen, [this, error] { emit recordFailed(error); });
        };
        if (check->cluster.isEmpty())
            return failWith(Error(Error::Kind::InvalidInput, tr("the servers did not say which cluster they are"),
                                  tr("the history is kept per cluster; a server without a name cannot be told apart")));
        const QString path = HistoryLocation::databasePath(folder, check->cluster);
        // Opened, used and closed on this worker: the connection belongs to this thread.
        auto db = HistoryDatabase::open(path);
        if (!db)
            return failWith(db.error());
        HistoryRecorder recorder(**db);
        auto outcome = recorder.record(*check);
        if (!outcome)
            return failWith(outcome.error());
        GuiDelivery::post(this, m_recordGeneration, gen, [this, cluster = check->cluster, path] {
            ++m_recorded;
            emit recorded(cluster, path);
        });
    }));
}

void HistoryController::load(const QString &cluster, const QStringList &urls, const QString &account, qint64 seconds)
{
    if (m_shutDown)
        return;
    const quint64 gen = ++m_loadGeneration;
    if (!m_loading) {
        m_loading = true;
        emit loadingChanged(true);
    }
    static_cast<void>(m_runner->run([this, gen, cluster, urls, account, seconds, folder = HistoryLocation::folder(m_folder)] {
        View view = read(folder, cluster, urls, account, seconds);
        GuiDelivery::post(this, m_loadGeneration, gen, [this, view = std::move(view)] {
            m_loading = false;
            emit loadingChanged(false);
            emit loaded(view);
        });
    }));
}

void HistoryController::loadFirstSeen(const QString &cluster, const QStringList &urls, const QString &account)
{
    if (m_shutDown)
        return;
    const quint64 gen = ++m_firstSeenGeneration;
    static_cast<void>(m_runner->run([this, gen, cluster, urls, account, folder = HistoryLocation::folder(m_folder)] {
        QHash<QString, QDateTime> firstSeen;
        if (auto path = HistoryLocation::find(folder, cluster, urls)) {
            if (auto db = HistoryDatabase::open(*path, HistoryDatabase::Mode::ReadOnly)) {
                // A window from now: only the spans still open (closed_at unset) overlap it, however long ago
                // they were first seen.
                HistoryQuery::Window window;
                window.account = account;
                window.since = QDateTime::currentDateTimeUtc();
                if (auto spans = HistoryQuery(**db).findings(window)) {
                    for (const HistoryQuery::FindingSpan &span : *spans)
                        if (!span.closedAt.isValid() && span.firstSeen.isValid())
                            firstSeen.insert(span.identity, span.firstSeen);
                }
            }
        }
        GuiDelivery::post(this, m_firstSeenGeneration, gen,
                          [this, account, firstSeen = std::move(firstSeen)] { emit firstSeenLoaded(account, firstSeen); });
    }));
}

HistoryController::View HistoryController::read(const QString &folder, const QString &cluster, const QStringList &urls,
                                                const QString &account, qint64 seconds)
{
    View view;
    view.account = account;
    view.cluster = cluster;
    view.window.account = account;
    view.window.since = QDateTime::currentDateTimeUtc().addSecs(-seconds);
    auto path = HistoryLocation::find(folder, cluster, urls);
    if (!path) {
        // Nothing recorded for this cluster yet: a window without checks, not an error.
        if (path.error().kind() != Error::Kind::NotFound)
            view.error = path.error();
        return view;
    }
    auto db = HistoryDatabase::open(*path, HistoryDatabase::Mode::ReadOnly);
    if (!db) {
        view.error = db.error();
        return view;
    }
    if (view.cluster.isEmpty())
        view.cluster = (*db)->meta(QStringLiteral("cluster"));
    if (view.cluster.isEmpty())
        view.cluster = QFileInfo(*path).completeBaseName();
    HistoryQuery query(**db);
    auto checks = query.checks(view.window);
    if (!checks) {
        view.error = checks.error();
        return view;
    }
    view.checks = *checks;
    auto findings = query.findings(view.window);
    if (!findings) {
        view.error = findings.error();
        return view;
    }
    view.findings = std::move(findings).value();
    auto changes = query.changes(view.window);
    if (!changes) {
        view.error = changes.error();
        return view;
    }
    view.changes = std::move(changes).value();
    auto counts = query.counts(view.window);
    if (!counts) {
        view.error = counts.error();
        return view;
    }
    view.counts = std::move(counts).value();
    auto severities = query.severities(view.window);
    if (!severities) {
        view.error = severities.error();
        return view;
    }
    view.severities = withQuietEnds(std::move(severities).value(), view.checks);
    return view;
}

} // namespace MqttDoctor
