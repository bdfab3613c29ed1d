#include "upgradecheckcontroller.h"

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "diagnosis/diagnosisgatherer.h"
#include "diagnosis/findingcodes.h"
#include "nats/connectionset.h"

namespace MqttDoctor {

UpgradeCheckController::UpgradeCheckController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account,
                                               QObject *parent)
    : QObject(parent), m_runner(runner), m_connections(std::move(connections)), m_account(std::move(account))
{}

UpgradeCheckController::~UpgradeCheckController()
{
    ++m_generation;
    // The last reference to the connections may close them, which waits for their threads: never on the GUI thread.
    if (m_connections)
        static_cast<void>(m_runner.run([connections = std::move(m_connections)]() mutable { connections.reset(); }));
}

bool UpgradeCheckController::isAboutTheUpgrade(const Finding &finding)
{
    return finding.code.startsWith(QLatin1String("UPGRADE_")) || finding.code == FindingCodes::retainedLegacyLayout();
}

bool UpgradeCheckController::check(const ServerVersion &target)
{
    if (!m_connections)
        return false;
    const quint64 generation = ++m_generation;
    setRunning(true);
    DiagnosisGatherer::Request request;
    request.account = m_account;
    request.options.targetVersion = target;
    request.options.upgradePlanned = target.atLeast(2, 10);
    // The delivery's watcher is this controller's child: a controller destroyed with its dialog while the
    // check runs takes the delivery with it.
    GuiDelivery::whenReady(m_runner.run([connections = m_connections, request]() -> Result<QList<Finding>> {
        auto findings = DiagnosisGatherer::check(*connections, request);
        if (!findings)
            return findings.error();
        QList<Finding> out;
        for (const Finding &f : *findings)
            if (isAboutTheUpgrade(f))
                out << f;
        return out;
    }),
                           this, m_generation, generation, [this, target](const Result<QList<Finding>> &result) {
                               setRunning(false);
                               if (result)
                                   emit finished(target, result.value());
                               else
                                   emit failed(result.error());
                           });
    return true;
}

void UpgradeCheckController::cancel()
{
    ++m_generation;
    setRunning(false);
}

void UpgradeCheckController::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace MqttDoctor
