#include "noticelabel.h"

namespace MqttDoctor {

NoticeLabel::NoticeLabel(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setFrameShape(QFrame::StyledPanel);
    setMargin(6);
    setAutoFillBackground(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

NoticeLabel::~NoticeLabel() = default;

void NoticeLabel::showNotice(const QString &text, Kind kind)
{
    if (text.isEmpty()) {
        clearNotice();
        return;
    }
    m_kind = kind;
    QPalette pal = palette();
    switch (kind) {
    case Kind::Info:
        pal.setColor(QPalette::Window, QColor(0xe8, 0xf1, 0xfb));
        pal.setColor(QPalette::WindowText, QColor(0x1d, 0x3b, 0x5e));
        break;
    case Kind::Warning:
        pal.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xe0));
        pal.setColor(QPalette::WindowText, QColor(0x5a, 0x3d, 0x00));
        break;
    case Kind::Error:
        pal.setColor(QPalette::Window, QColor(0xfd, 0xe7, 0xe7));
        pal.setColor(QPalette::WindowText, QColor(0x7a, 0x10, 0x10));
        break;
    }
    setPalette(pal);
    setText(text);
    show();
}

void NoticeLabel::clearNotice()
{
    clear();
    hide();
}

} // namespace MqttDoctor
