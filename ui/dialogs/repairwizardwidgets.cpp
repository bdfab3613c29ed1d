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

} // namespace MqttDoctor::RepairWizardWidgets
