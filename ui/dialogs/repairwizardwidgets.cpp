#include "repairwizardwidgets.h"

#include <QColor>
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

} // namespace MqttDoctor::RepairWizardWidgets
