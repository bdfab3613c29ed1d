#include "upgradecheckcontroller.h"

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "diagnosis/diagnosisgatherer.h"
#include "diagnosis/findingcodes.h"
#include "nats/connectionset.h"

namespace MqttDoctor {

UpgradeCheckController::UpgradeCheckController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account,
                                               QObject *parent)
    : AccountTaskController(runner, std::move(connections), std::move(account), parent)
{}

bool UpgradeCheckController::isAboutTheUpgrade(const Finding &finding)
{
    return finding.code.startsWith(QLatin1String("UPGRADE_")) || finding.code == FindingCodes::retainedLegacyLayout();
}

bool UpgradeCheckController::check(const ServerVersion &target)
{
    if (!m_connections)
        return false;
    const quint64 generation = begin();
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
                               end();
                               if (result)
                                   emit finished(target, result.value());
                               else
                                   emit failed(result.error());
                           });
    return true;
}

} // namespace MqttDoctor
