#include "checkthresholdsdialog.h"

#include <algorithm>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace MqttDoctor {

namespace {

constexpr qint64 kDaySecs = 24 * 3600;

QSpinBox *spinBox(int minimum, int maximum, const QString &suffix, const QString &objectName)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setSuffix(suffix);
    box->setGroupSeparatorShown(true);
    box->setObjectName(objectName);
    return box;
}

QLabel *explanation(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    label->setEnabled(false); // the platform's dimmed text: an explanation, not a value
    return label;
}

} // namespace

CheckThresholdsDialog::CheckThresholdsDialog(const CheckOptions &current, QWidget *parent)
    : QDialog(parent), m_staleDays(spinBox(1, 3650, tr(" days"), QStringLiteral("staleDays"))),
      m_pinned(spinBox(0, 1000000000, tr(" messages"), QStringLiteral("pinnedWarnAt"))),
      m_apiErrors(spinBox(1, 1000000, tr(" per minute"), QStringLiteral("apiErrorsPerMinute")))
{
    setWindowTitle(tr("Check Thresholds"));
    auto *form = new QFormLayout;
    form->addRow(tr("Session stale after:"), m_staleDays);
    form->addRow(QString(),
                 explanation(tr("SESSION_STALE: a persistent session whose client is not connected and whose record "
                                "was not written for this long. CLI: check --stale-after.")));
    form->addRow(tr("Pinned messages above:"), m_pinned);
    form->addRow(QString(),
                 explanation(tr("INTEREST_PINNED: an offline session whose durables hold more messages than this "
                                "in $MQTT_msgs and $MQTT_out. 0 reports every offline session that pins any. "
                                "CLI: check --pinned-warn-at.")));
    form->addRow(tr("API errors above:"), m_apiErrors);
    form->addRow(QString(),
                 explanation(tr("JETSTREAM_API_ERRORS: the account's JetStream API errors grow faster than this "
                                "between two refreshes. Each CONNECT of a new or clean-session client adds one, so a "
                                "trickle is normal. CLI: check --api-errors-per-minute.")));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Apply and Refresh"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, &CheckThresholdsDialog::restoreDefaults);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(explanation(tr("They apply to the findings of every account in this window, and are kept for the next start.")));
    layout->addWidget(buttons);
    setThresholds(current);
    resize(560, sizeHint().height());
}

CheckThresholdsDialog::~CheckThresholdsDialog() = default;

void CheckThresholdsDialog::setThresholds(const CheckOptions &options)
{
    // Whole days, rounded up: a threshold set in seconds on the CLI is shown as the day it falls in.
    m_staleDays->setValue(int(std::clamp<qint64>((options.staleAfterSecs + kDaySecs - 1) / kDaySecs, 1, 3650)));
    m_pinned->setValue(int(std::clamp<qint64>(options.pinnedWarnAt, 0, 1000000000)));
    m_apiErrors->setValue(int(std::clamp<qint64>(options.apiErrorsPerMinute, 1, 1000000)));
}

void CheckThresholdsDialog::restoreDefaults()
{
    setThresholds(CheckOptions{});
}

CheckOptions CheckThresholdsDialog::thresholds() const
{
    CheckOptions out;
    out.staleAfterSecs = qint64(m_staleDays->value()) * kDaySecs;
    out.pinnedWarnAt = m_pinned->value();
    out.apiErrorsPerMinute = m_apiErrors->value();
    return out;
}

} // namespace MqttDoctor
