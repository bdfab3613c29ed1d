#pragma once

#include <QList>
#include <QString>

#include <memory>

#include "common/error.h"
#include "controllers/accounttaskcontroller.h"
#include "diagnosis/finding.h"
#include "mqtt/serverversion.h"

namespace MqttDoctor {

class AsyncRunner;
class ConnectionSet;

/**
 * The upgrade readiness check of one account (check --target-version) for the GUI: runs the account's
 * check with a target version on the worker pool and hands back the findings about the upgrade (what
 * the target refuses or changes: the UPGRADE_* codes, and the retained migration a 2.10+ target
 * brings). A newer check, cancel() or the controller's end drops an older result. No widgets; GUI
 * thread only.
 */
class UpgradeCheckController final : public AccountTaskController
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpgradeCheckController)

public:
    UpgradeCheckController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent = nullptr);

    /** The findings of a check that concern an upgrade. */
    static bool isAboutTheUpgrade(const Finding &finding);

    /** Starts a check against `target`; false (nothing started) without connections. */
    bool check(const ServerVersion &target);

Q_SIGNALS:
    /** The check of `target` ended: the findings about the upgrade, in the check's order (empty: nothing changes). */
    void finished(const MqttDoctor::ServerVersion &target, const QList<MqttDoctor::Finding> &findings);
    void failed(const MqttDoctor::Error &error);
};

} // namespace MqttDoctor
