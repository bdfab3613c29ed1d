#pragma once

#include <QDialog>
#include <QList>
#include <QString>

#include "common/error.h"
#include "diagnosis/finding.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace MqttDoctor {

class ClusterController;
class ServerVersion;
class UpgradeCheckController;

/**
 * Upgrade readiness of one account (Tools > Upgrade Readiness, or the account's context): what a target
 * nats-server version will refuse or change for the account's real state (check --target-version):
 * client IDs refused with CONNACK 0x02, retained topics skipped, payloads above max_payload, internal
 * subscriptions, the 2.9 retained migration. Reads only; an UpgradeCheckController runs the check on the
 * cluster controller's worker pool and hands the findings back.
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
    bool isChecking() const;
    /** The findings the last check gave (only those about the upgrade). */
    const QList<Finding> &findings() const { return m_findings; }

Q_SIGNALS:
    /** A check finished (its findings are shown, or its error in the status line). */
    void checked();

private:
    void showFindings(const ServerVersion &target, const QList<Finding> &findings);
    void showFailure(const Error &error);
    void showSelected();

    UpgradeCheckController *m_checker = nullptr;
    QLineEdit *m_version = nullptr;
    QPushButton *m_check = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_results = nullptr;
    QTextBrowser *m_detail = nullptr;
    QList<Finding> m_findings;
};

} // namespace MqttDoctor
