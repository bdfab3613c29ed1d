#pragma once

#include <QDialog>
#include <QString>

#include <optional>

#include "diagnosis/mqttprobe.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace MqttDoctor {

class ClusterController;
class MqttProbeController;

/**
 * Tools > Probe MQTT: what a real MQTT client sees of one account (MqttProbe): connect, its QoS 1 message
 * back, a retained message to a new subscriber, then everything cleaned up. The listener and user come
 * from the profile's `mqtt_probe` entry when it has one; the password is asked for and never kept. The
 * probe runs through an MqttProbeController on the cluster controller's worker pool.
 */
class MqttProbeDialog final : public QDialog
{
    Q_OBJECT

public:
    MqttProbeDialog(ClusterController &controller, const QString &account, QWidget *parent = nullptr);
    ~MqttProbeDialog() override;

    /** The fields (tests, and a caller that knows them). Empty listener: the one the servers report. */
    void setListener(const QString &listener);
    void setUser(const QString &user, const QString &password);
    /** Starts the probe with the fields as they are. */
    void probe();
    bool isProbing() const;
    /** The last probe's result; nullopt before the first. */
    const std::optional<MqttProbeResult> &result() const { return m_result; }

Q_SIGNALS:
    /** A probe finished: its steps are shown. */
    void probed();

private:
    void deliver(const MqttProbeResult &result);

    MqttProbeController *m_prober = nullptr;
    QLineEdit *m_listener = nullptr;
    QLineEdit *m_user = nullptr;
    QLineEdit *m_password = nullptr;
    QPushButton *m_probe = nullptr;
    QLabel *m_status = nullptr;
    QTreeWidget *m_steps = nullptr;
    std::optional<MqttProbeResult> m_result;
};

} // namespace MqttDoctor
