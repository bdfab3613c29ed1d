#pragma once

#include <QLabel>

namespace MqttDoctor {

/** A coloured note above a view (why it is empty, what is unknown, what failed); hidden when empty. */
class NoticeLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(NoticeLabel)

public:
    enum class Kind { Info, Warning, Error };

    explicit NoticeLabel(QWidget *parent = nullptr);
    ~NoticeLabel() override;

    void showNotice(const QString &text, Kind kind = Kind::Info);
    void clearNotice();
    Kind kind() const { return m_kind; }

private:
    Kind m_kind = Kind::Info;
};

} // namespace MqttDoctor
