#include "diffhighlighter.h"

#include <QColor>
#include <QTextCharFormat>

namespace MqttDoctor {

DiffHighlighter::DiffHighlighter(QTextDocument *document) : QSyntaxHighlighter(document) {}

DiffHighlighter::~DiffHighlighter() = default;

void DiffHighlighter::highlightBlock(const QString &text)
{
    QTextCharFormat format;
    if (text.startsWith(QLatin1String("---")) || text.startsWith(u'#')) {
        format.setForeground(QColor(0x55, 0x55, 0x55));
        format.setFontWeight(QFont::Bold);
    } else if (text.startsWith(u'-')) {
        format.setForeground(QColor(0xa3, 0x1f, 0x1f));
        format.setBackground(QColor(0xfd, 0xe2, 0xe2));
    } else if (text.startsWith(u'+')) {
        format.setForeground(QColor(0x1b, 0x6e, 0x3a));
        format.setBackground(QColor(0xe0, 0xf5, 0xe6));
    } else {
        return;
    }
    setFormat(0, int(text.size()), format);
}

} // namespace MqttDoctor
