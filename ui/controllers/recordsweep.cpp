#include "recordsweep.h"

#include <QCoreApplication>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "diagnosis/accountsnapshotloader.h"
#include "mqtt/mqttlayout.h"
#include "nats/connectionset.h"

namespace MqttDoctor {

namespace {

struct Outcome
{
    QString account;
    FindingList findings;
    QList<CoverageGap> gaps;
    bool cancelled = false;
    QString skipped; ///< not read, and why (an account without credentials that is not the profile user's either)
};

QString noCredentials(const QString &account)
{
    return QCoreApplication::translate("MqttDoctor::RecordSweep",
                                       "the profile has no credentials for account %1, so its session records cannot be read")
        .arg(account);
}

const StreamInfo *sessionsStreamOf(const AccountInfo &account)
{
    for (const StreamInfo &s : account.streams)
        if (s.name == MqttLayout::sessionsStream())
            return &s;
    return nullptr;
}

} // namespace

RecordSweep::RecordSweep(QObject *parent) : QObject(parent), m_runner(std::make_unique<AsyncRunner>(kParallel, QThread::LowestPriority)) {}

RecordSweep::~RecordSweep()
{
    shutdown();
}

void RecordSweep::start(std::shared_ptr<ConnectionSet> connections, const QList<ServerInfo> &servers, const QList<AccountInfo> &accounts,
                        const QStringList &skip)
{
    cancel();
    m_connections = std::move(connections);
    m_servers = servers;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_done = 0;
    m_total = 0;
    m_elapsed.start();
    if (!m_connections)
        return;
    for (const AccountInfo &a : accounts) {
        const StreamInfo *sessions = sessionsStreamOf(a);
        if (a.isSystem || !a.jetstream || !sessions || skip.contains(a.name))
            continue;
        // Without credentials of its own the account may still be the profile user's (the worker asks which).
        if (!m_connections->hasAccountCredentials(a.name) && !m_connections->profile().auth.isSet()) {
            emit accountSkipped(a.name, true, noCredentials(a.name));
            continue;
        }
        const qint64 records = sessions->state.value(QLatin1String("messages")).toInteger();
        if (records > kMaxRecords) {
            emit accountSkipped(a.name, false,
                                tr("%1 session records are read when the account is opened, not in the background").arg(records));
            continue;
        }
        m_queue.append(a);
    }
    m_total = int(m_queue.size());
    emit progress(0, m_total);
    if (m_queue.isEmpty()) {
        emit finished(0, m_elapsed.elapsed());
        return;
    }
    for (int i = 0; i < kParallel; ++i)
        startNext();
}

void RecordSweep::startNext()
{
    if (m_queue.isEmpty() || !m_cancel || m_cancel->load())
        return;
    const AccountInfo account = m_queue.takeFirst();
    ++m_running;
    emit accountStarted(account.name);
    const quint64 generation = m_generation;
    auto work =
        m_runner->run([connections = m_connections, servers = m_servers, account, cancel = m_cancel, checkOptions = m_checkOptions] {
            Outcome out;
            out.account = account.name;
            if (!connections->hasAccountCredentials(account.name)) {
                auto own = connections->primaryAccountName();
                if (!own || *own != account.name) {
                    out.skipped = noCredentials(account.name);
                    return out;
                }
            }
            AccountSnapshotLoader::Options options;
            options.records = true;
            options.recordsOnlyWhenChecked = true;
            options.cancel = cancel.get();
            const AccountSnapshot snapshot = AccountSnapshotLoader(*connections).load(servers, account, true, options);
            out.cancelled = cancel->load();
            if (!out.cancelled) {
                out.findings = snapshot.findings(checkOptions);
                out.gaps = snapshot.gaps;
            }
            return out;
        });
    GuiDelivery::whenReady(std::move(work), this, m_generation, generation, [this](const Outcome &out) {
        --m_running;
        ++m_done;
        if (!out.skipped.isEmpty())
            emit accountSkipped(out.account, true, out.skipped);
        else if (!out.cancelled)
            emit accountChecked(out.account, out.findings, out.gaps);
        emit progress(m_done, m_total);
        if (m_queue.isEmpty() && m_running == 0)
            emit finished(m_total, m_elapsed.elapsed());
        else
            startNext();
    });
}

void RecordSweep::cancel()
{
    ++m_generation;
    if (m_cancel)
        m_cancel->store(true);
    m_queue.clear();
    m_running = 0;
}

void RecordSweep::shutdown()
{
    cancel();
    m_runner->shutdown();
    m_connections.reset();
}

} // namespace MqttDoctor
