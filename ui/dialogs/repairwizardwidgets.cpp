#include "repairwizardwidgets.h"

#include <QColor>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QLabel>
#include <QPalette>
#include <QTextBrowser>

namespace MqttDoctor::RepairWizardWidgets {

QLabel *noticeLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    QPalette pal = label->palette();
    pal.setColor(QPalette::WindowText, QColor(0xa3, 0x1f, 0x1f));
    label->setPalette(pal);
    label->hide();
    return label;
}

QTextBrowser *richView(const QString &objectName, QWidget *parent)
{
    auto *view = new QTextBrowser(parent);
    view->setObjectName(objectName);
    view->setOpenLinks(false);
    return view;
}

bool consentTyped(const QString &typed, const QStringList &names)
{
    if (names.isEmpty())
        return false;
    if (names.size() == 1)
        return typed == names.first(); // exactly, as typed
    QStringList words = typed.split(u' ', Qt::SkipEmptyParts);
    QStringList wanted = names;
    words.sort();
    wanted.sort();
    return words == wanted;
}

void addConsentRows(QFormLayout *form, QWidget *page, QLineEdit *backupEdit, QPushButton *browse, QLabel *consentLabel,
                    QLineEdit *consentEdit)
{
    auto *backupRow = new QHBoxLayout;
    backupRow->addWidget(backupEdit, 1);
    backupRow->addWidget(browse);
    // A label of its own: a row made of a layout gets no buddy, and its "&" would show.
    auto *backupLabel = new QLabel(QCoreApplication::translate("RepairWizardWidgets", "Backup &folder:"), page);
    backupLabel->setBuddy(backupEdit);
    form->addRow(backupLabel, backupRow);
    form->addRow(consentLabel);
    form->addRow(QCoreApplication::translate("RepairWizardWidgets", "Account &name:"), consentEdit);
    QObject::connect(browse, &QPushButton::clicked, page, [page, backupEdit] {
        const QString dir = QFileDialog::getExistingDirectory(page, QCoreApplication::translate("RepairWizardWidgets", "Backup Folder"),
                                                              backupEdit->text());
        if (!dir.isEmpty())
            backupEdit->setText(dir);
    });
}

} // namespace MqttDoctor::RepairWizardWidgets
