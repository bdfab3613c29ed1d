#pragma once

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

#include "common/error.h"
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
class UpgradeCheckController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpgradeCheckController)

public:
    /**
     * `runner` (the ClusterController's pool) must outlive the controller's running checks; `connections`
     * is the cluster's connection set (null: not connected), kept until the controller goes.
     */
    UpgradeCheckController(AsyncRunner &runner, std::shared_ptr<ConnectionSet> connections, QString account, QObject *parent = nullptr);
    ~UpgradeCheckController() override;

    /** The findings of a check that concern an upgrade. */
    static bool isAboutTheUpgrade(const Finding &finding);

    /** Starts a check against `target`; false (nothing started) without connections. */
    bool check(const ServerVersion &target);
    void cancel();
    bool isRunning() const { return m_running; }
    const QString &account() const { return m_account; }

Q_SIGNALS:
    void runningChanged(bool running);
    /** The check of `target` ended: the findings about the upgrade, in the check's order (empty: nothing changes). */
    void finished(const MqttDoctor::ServerVersion &target, const QList<MqttDoctor::Finding> &findings);
    void failed(const MqttDoctor::Error &error);

private:
    void setRunning(bool running);

    AsyncRunner &m_runner;
    std::shared_ptr<ConnectionSet> m_connections;
    QString m_account;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace MqttDoctor
