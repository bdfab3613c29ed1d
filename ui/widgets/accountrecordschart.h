#pragma once

#include <optional>

#include <QStringList>
#include <QWidget>

#include "models/accountrecordranking.h"

namespace MqttDoctor {

/**
 * A small chart of the accounts that hold the most MQTT state: one row per top account (its name, a bar
 * of its session records, a bar of its retained messages, each with the exact count), the ranked column
 * marked in its header, then "and K more accounts" and what is unknown. Painted in one widget whatever
 * the number of accounts (an AccountRecordRanking holds only the top ones). Clicking a row (or Return
 * on the focused row) emits accountActivated; clicking the other column's header asks to rank by it
 * (keyRequested). Colours come from the palette (dark and light). GUI thread.
 */
class AccountRecordsChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountRecordsChart)

public:
    explicit AccountRecordsChart(QWidget *parent = nullptr);
    ~AccountRecordsChart() override;

    void setRanking(const AccountRecordRanking &ranking);
    const AccountRecordRanking &ranking() const { return m_ranking; }
    /** The lines under the bars ("and 3 more accounts...", what is unknown, the totals). */
    QStringList notes() const;
    /** Everything the chart shows, as text (its accessible description). */
    QString text() const;
    /** The top row under `pos`, -1 for none. */
    int rowAt(const QPoint &pos) const;
    /** Where row `row` is painted (row -1: the header). */
    QRect rowRect(int row) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void accountActivated(const QString &account);
    void keyRequested(AccountRecordRanking::Key key);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void leaveEvent(QEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;

private:
    struct Columns
    {
        int name = 0; ///< width of the account names
        int barLeft[2]{}; ///< x of each count column (sessions, retained)
        int barSpace = 0; ///< the longest bar of a column
    };

    Columns columns() const;
    int rowHeight() const;
    /** The header cell's key under `pos`, if `pos` is on a count column's header. */
    std::optional<AccountRecordRanking::Key> headerKeyAt(const QPoint &pos) const;
    QString rowToolTip(int row) const;
    void paintBar(QPainter &p, const QRect &cell, int barSpace, qint64 value, qint64 max, bool ranked) const;
    void setHovered(int row);

    AccountRecordRanking m_ranking;
    qint64 m_max[2]{}; ///< the largest known count of each column among the top rows
    int m_hovered = -1;
    int m_current = -1; ///< the row keyboard focus is on
};

} // namespace MqttDoctor
