#pragma once

#include <QDialog>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

#include "common/error.h"
#include "diagnosis/finding.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace MqttDoctor {

class ClusterController;
class ConnectionSet;

/**
 * Upgrade readiness of one account (Tools > Upgrade Readiness, or the account's context): what a target
 * nats-server version will refuse or change for the account's real state (check --target-version):
 * client IDs refused with CONNACK 0x02, retained topics skipped, payloads above max_payload, internal
 * subscriptions, the 2.9 retained migration. Reads only; the check runs on the controller's worker pool
 * and its result comes back to the GUI thread.
 */
class UpgradeReadinessDialog final : public QDialog
{
    Q_OBJECT

public:
    UpgradeReadinessDialog(ClusterController &controller, const QString &account, QWidget *parent = nullptr);
    ~UpgradeReadinessDialog() override;

    /** The target version field (tests, and a caller that knows the version). */
    void setTargetVersion(const QString &version);
    /** Starts the check with the version in the field; a version that does not parse is said in the status line. */
    void check();
    /** A check is running. */
    bool isChecking() const { return m_checking; }
    /** The findings the last check gave (only those about the upgrade). */
    const QList<Finding> &findings() const { return m_findings; }

Q_SIGNALS:
    /** A check finished (its findings are shown, or its error in the status line). */
    void checked();

private:
    struct Outcome
    {
        QList<Finding> findings;
        std::optional<Error> error;
    };
    void deliver(const Outcome &out);
    void showSelected();

    ClusterController &m_controller;
    std::shared_ptr<ConnectionSet> m_connections;
    QString m_account;
    QLineEdit *m_version = nullptr;
    QPushButton *m_check = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_results = nullptr;
    QTextBrowser *m_detail = nullptr;
    QList<Finding> m_findings;
    quint64 m_generation = 0;
    bool m_checking = false;
};

} // namespace MqttDoctor
