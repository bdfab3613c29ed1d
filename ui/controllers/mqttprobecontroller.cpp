#include "mqttprobecontroller.h"

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"

namespace MqttDoctor {

MqttProbeController::MqttProbeController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent)
    : AccountTaskController(runner, std::move(connections), std::move(account), parent)
{}

MqttProbeSettings MqttProbeController::profileSettings() const
{
    if (!m_connections)
        return {};
    const Profile &profile = m_connections->profile();
    if (auto it = profile.mqttProbe.constFind(m_account); it != profile.mqttProbe.cend())
        return *it;
    if (auto it = profile.mqttProbe.constFind(Profile::kAnyAccount); it != profile.mqttProbe.cend())
        return *it;
    return {};
}

bool MqttProbeController::probe(const MqttProbeSettings &settings)
{
    if (!m_connections)
        return false;
    const quint64 generation = begin();
    Profile profile = m_connections->profile();
    profile.mqttProbe.insert(m_account, settings);
    // The delivery's watcher is this controller's child: a controller destroyed with its dialog while the
    // probe runs takes the delivery with it (the probe itself ends on the pool and cleans up after itself).
    GuiDelivery::whenReady(m_runner.run([connections = m_connections, profile, account = m_account]() -> MqttProbeResult {
        auto servers = Discovery::knownServers(*connections);
        auto request = MqttProbe::requestFor(profile, account, servers ? *servers : QList<ServerInfo>());
        if (!request)
            return MqttProbeResult::notRun(account, request.error().toString());
        return MqttProbe::run(*request);
    }),
                           this, m_generation, generation, [this](const MqttProbeResult &result) {
                               end();
                               emit finished(result);
                           });
    return true;
}

} // namespace MqttDoctor
