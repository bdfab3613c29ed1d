#pragma once

#include <QString>
#include <QStringList>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QWidget;

namespace MqttDoctor::RepairWizardWidgets {

/** The repair wizard's pages' widgets made alike. GUI thread. */

/** A hidden label for a notice in the error colour (shown by the page when it applies). */
QLabel *noticeLabel(const QString &objectName, QWidget *parent);
/** A read-only rich-text view whose links do not navigate. */
QTextBrowser *richView(const QString &objectName, QWidget *parent);

/**
 * The typed consent to destructive steps: `typed` is exactly the one name in `names`, or, for several, each
 * of them once separated by spaces, in any order. False when `names` is empty (nothing to consent to).
 */
bool consentTyped(const QString &typed, const QStringList &names);

/**
 * The confirm pages' form: "Backup folder:" (`backupEdit` with `browse`, which asks for a folder), the consent text
 * (`consentLabel`) and "Account name:" (`consentEdit`), added to `form`, whose page is `page`.
 */
void addConsentRows(QFormLayout *form, QWidget *page, QLineEdit *backupEdit, QPushButton *browse, QLabel *consentLabel,
                    QLineEdit *consentEdit);

/** The columns of the run page's step list. */
enum StepColumn { StepIdColumn, StepDescriptionColumn, StepStateColumn, StepMessageColumn };

} // namespace MqttDoctor::RepairWizardWidgets
