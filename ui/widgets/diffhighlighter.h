#pragma once

#include <QSyntaxHighlighter>

namespace MqttDoctor {

/** Colours natscli-style diff lines: `-` red, `+` green, `---`/`#` headers grey and bold. */
class DiffHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DiffHighlighter)

public:
    explicit DiffHighlighter(QTextDocument *document);
    ~DiffHighlighter() override;

protected:
    void highlightBlock(const QString &text) override;
};

} // namespace MqttDoctor
