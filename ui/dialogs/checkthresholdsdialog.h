#pragma once

#include <QDialog>

#include "diagnosis/checkoptions.h"

class QSpinBox;

namespace MqttDoctor {

/**
 * Tools > Check Thresholds: when a persistent session is stale, how many pinned messages make a
 * finding, how fast JetStream API errors may grow. Shows `current`; thresholds() is what the operator
 * set ("Restore Defaults" puts CheckOptions' defaults back). Storing and applying them is the caller's
 * (CheckThresholds, the main window). GUI thread.
 */
class CheckThresholdsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CheckThresholdsDialog)

public:
    explicit CheckThresholdsDialog(const CheckOptions &current, QWidget *parent = nullptr);
    ~CheckThresholdsDialog() override;

    /** The thresholds as set in the dialog (the other fields of CheckOptions at their defaults). */
    CheckOptions thresholds() const;
    void restoreDefaults();

private:
    /** Shows `options`' thresholds in the fields. */
    void setThresholds(const CheckOptions &options);

    QSpinBox *m_staleDays;
    QSpinBox *m_pinned;
    QSpinBox *m_apiErrors;
};

} // namespace MqttDoctor
