#include "accountrecordschart.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QStyleOptionFocusRect>
#include <QToolTip>

#include <algorithm>

#include "models/displayformat.h"

namespace MqttDoctor {

namespace {

using Key = AccountRecordRanking::Key;
using Entry = AccountRecordRanking::Entry;

constexpr int kMargin = 2;
constexpr int kGap = 8;

qint64 countIn(const Entry &e, int column)
{
    return column == 0 ? e.sessions : e.retained;
}

Key keyOf(int column)
{
    return column == 0 ? Key::Sessions : Key::Retained;
}

QString sessionRecords(qint64 n)
{
    if (n == AccountRecordRanking::kUnknown)
        return AccountRecordsChart::tr("session records unknown");
    return (n == 1 ? AccountRecordsChart::tr("%1 session record") : AccountRecordsChart::tr("%1 session records"))
        .arg(DisplayFormat::count(n));
}

QString retainedMessages(qint64 n)
{
    if (n == AccountRecordRanking::kUnknown)
        return AccountRecordsChart::tr("retained messages unknown");
    return (n == 1 ? AccountRecordsChart::tr("%1 retained message") : AccountRecordsChart::tr("%1 retained messages"))
        .arg(DisplayFormat::count(n));
}

} // namespace

AccountRecordsChart::AccountRecordsChart(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("accountRecordsChart"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Session records and retained messages per account"));
    setRanking({});
}

AccountRecordsChart::~AccountRecordsChart() = default;

void AccountRecordsChart::setRanking(const AccountRecordRanking &ranking)
{
    const QString currentAccount = m_current >= 0 && m_current < m_ranking.top().size() ? m_ranking.top().at(m_current).account : QString();
    m_ranking = ranking;
    m_max[0] = m_max[1] = 0;
    for (const Entry &e : m_ranking.top())
        for (int c = 0; c < 2; ++c)
            m_max[c] = std::max(m_max[c], countIn(e, c));
    m_current = -1;
    for (int i = 0; i < m_ranking.top().size(); ++i)
        if (m_ranking.top().at(i).account == currentAccount)
            m_current = i;
    m_hovered = -1;
    setAccessibleDescription(text());
    updateGeometry();
    update();
}

QStringList AccountRecordsChart::notes() const
{
    const AccountRecordRanking &r = m_ranking;
    QStringList lines;
    if (r.consideredAccounts() == 0) {
        lines << tr("No account with JetStream: no session records or retained messages.");
    } else if (r.allUnknown()) {
        lines << tr("Session and retained counts unknown: the streams of %1 could not be read.")
                     .arg(DisplayFormat::accountCount(r.unknownAccounts()));
    } else if (r.top().isEmpty()) {
        lines << tr("No account holds session records or retained messages.");
    }
    if (r.moreAccounts() > 0)
        lines << (r.moreAccounts() == 1
                      ? tr("and 1 more account with session records or retained messages")
                      : tr("and %1 more accounts with session records or retained messages").arg(DisplayFormat::count(r.moreAccounts())));
    if (r.unknownAccounts() > 0 && !r.allUnknown())
        lines << tr("Counts unknown for %1: their streams could not be read").arg(DisplayFormat::accountCount(r.unknownAccounts()));
    if (r.partlyUnknownAccounts() > 0)
        lines << tr("One of the two counts unknown for %1").arg(DisplayFormat::accountCount(r.partlyUnknownAccounts()));
    if (r.consideredAccounts() > 0 && !r.allUnknown())
        lines << (r.unknownAccounts() + r.partlyUnknownAccounts() > 0 ? tr("In all, where known: %1, %2") : tr("In all: %1, %2"))
                     .arg(sessionRecords(r.totalSessions()), retainedMessages(r.totalRetained()));
    if (!r.wholeCluster())
        lines << tr("Only the accounts the profile's credentials reach (no system connection)");
    return lines;
}

QString AccountRecordsChart::text() const
{
    QStringList lines;
    const bool bySessions = m_ranking.key() == Key::Sessions;
    lines << (bySessions ? tr("Accounts with the most session records:") : tr("Accounts with the most retained messages:"));
    for (int i = 0; i < m_ranking.top().size(); ++i)
        lines << rowToolTip(i);
    lines << notes();
    return lines.join(QLatin1Char('\n'));
}

int AccountRecordsChart::rowHeight() const
{
    return fontMetrics().height() + 6;
}

QRect AccountRecordsChart::rowRect(int row) const
{
    const int h = rowHeight();
    return {0, kMargin + (row + 1) * h, width(), h};
}

int AccountRecordsChart::rowAt(const QPoint &pos) const
{
    for (int i = 0; i < m_ranking.top().size(); ++i)
        if (rowRect(i).contains(pos))
            return i;
    return -1;
}

AccountRecordsChart::Columns AccountRecordsChart::columns() const
{
    const QFontMetrics fm = fontMetrics();
    Columns c;
    int names = fm.horizontalAdvance(tr("Account"));
    for (const Entry &e : m_ranking.top())
        names = std::max(names, fm.horizontalAdvance(e.account));
    c.name = std::min(names + kGap, std::max(fm.horizontalAdvance(QStringLiteral("MMMMMMMM")), width() * 3 / 10));
    int number = std::max(fm.horizontalAdvance(tr("unknown")), fm.horizontalAdvance(QStringLiteral("0")));
    for (int col = 0; col < 2; ++col)
        number = std::max(number, fm.horizontalAdvance(DisplayFormat::count(m_max[col])));
    const int half = std::max(40, (width() - c.name) / 2);
    c.barLeft[0] = c.name;
    c.barLeft[1] = c.name + half;
    c.barSpace = std::max(10, half - number - 2 * kGap);
    return c;
}

std::optional<AccountRecordRanking::Key> AccountRecordsChart::headerKeyAt(const QPoint &pos) const
{
    if (m_ranking.top().isEmpty() || !rowRect(-1).contains(pos))
        return std::nullopt;
    const Columns c = columns();
    if (pos.x() >= c.barLeft[1])
        return Key::Retained;
    if (pos.x() >= c.barLeft[0])
        return Key::Sessions;
    return std::nullopt;
}

QString AccountRecordsChart::rowToolTip(int row) const
{
    const Entry &e = m_ranking.top().at(row);
    return tr("%1: %2, %3").arg(e.account, sessionRecords(e.sessions), retainedMessages(e.retained));
}

QSize AccountRecordsChart::sizeHint() const
{
    const int rows = m_ranking.top().isEmpty() ? 0 : int(m_ranking.top().size()) + 1;
    const int lines = int(notes().size());
    return {420, 2 * kMargin + rows * rowHeight() + lines * (fontMetrics().height() + 2)};
}

QSize AccountRecordsChart::minimumSizeHint() const
{
    return {240, sizeHint().height()};
}

void AccountRecordsChart::paintBar(QPainter &p, const QRect &cell, int barSpace, qint64 value, qint64 max, bool ranked) const
{
    const QColor text = palette().color(QPalette::WindowText);
    if (value == AccountRecordRanking::kUnknown) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(cell.adjusted(0, 0, -kGap, 0), Qt::AlignVCenter | Qt::AlignLeft, tr("unknown"));
        return;
    }
    const int w = max > 0 ? std::max(value > 0 ? 2 : 0, int(double(barSpace) * double(value) / double(max))) : 0;
    const QColor bar = palette().color(QPalette::Highlight);
    if (w > 0) {
        // The ranked column filled, the other one outlined with a lighter fill: told apart without colour.
        QColor fill = bar;
        if (!ranked)
            fill.setAlpha(110);
        p.setPen(ranked ? Qt::NoPen : QPen(bar, 1));
        p.setBrush(fill);
        p.drawRoundedRect(QRectF(cell.left() + 0.5, cell.top() + 3.5, w, cell.height() - 7), 2, 2);
    }
    p.setPen(text);
    p.drawText(QRect(cell.left() + w + 4, cell.top(), cell.width() - w - 4, cell.height()), Qt::AlignVCenter | Qt::AlignLeft,
               DisplayFormat::count(value));
}

void AccountRecordsChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor text = palette().color(QPalette::WindowText);
    const Columns c = columns();
    const QList<Entry> &top = m_ranking.top();
    int y = kMargin;
    if (!top.isEmpty()) {
        // The header: the ranked column in bold with a down arrow.
        const QRect header = rowRect(-1);
        QFont bold = font();
        bold.setBold(true);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(0, header.top(), c.name - kGap, header.height()), Qt::AlignVCenter | Qt::AlignLeft, tr("Account"));
        for (int col = 0; col < 2; ++col) {
            const bool ranked = m_ranking.key() == keyOf(col);
            p.setFont(ranked ? bold : font());
            p.setPen(ranked ? text : palette().color(QPalette::PlaceholderText));
            const QString title = col == 0 ? tr("Session records") : tr("Retained messages");
            p.drawText(QRect(c.barLeft[col], header.top(), c.barSpace, header.height()), Qt::AlignVCenter | Qt::AlignLeft,
                       ranked ? title + QStringLiteral(" ▾") : title);
        }
        p.setFont(font());
        for (int i = 0; i < top.size(); ++i) {
            const QRect row = rowRect(i);
            if (i == m_hovered) {
                QColor hover = palette().color(QPalette::Highlight);
                hover.setAlpha(40);
                p.fillRect(row, hover);
            }
            const Entry &e = top.at(i);
            p.setPen(text);
            p.drawText(QRect(0, row.top(), c.name - kGap, row.height()), Qt::AlignVCenter | Qt::AlignLeft,
                       fontMetrics().elidedText(e.account, Qt::ElideMiddle, c.name - kGap));
            for (int col = 0; col < 2; ++col) {
                const int right = col == 0 ? c.barLeft[1] : width();
                paintBar(p, QRect(c.barLeft[col], row.top(), right - c.barLeft[col], row.height()), c.barSpace, countIn(e, col), m_max[col],
                         m_ranking.key() == keyOf(col));
            }
            if (i == m_current && hasFocus()) {
                QStyleOptionFocusRect focus;
                focus.initFrom(this);
                focus.rect = row.adjusted(0, 0, -1, -1);
                focus.backgroundColor = palette().color(QPalette::Window);
                style()->drawPrimitive(QStyle::PE_FrameFocusRect, &focus, &p, this);
            }
        }
        y = rowRect(int(top.size())).top();
    }
    p.setPen(text);
    const int line = fontMetrics().height() + 2;
    for (const QString &note : notes()) {
        p.drawText(QRect(0, y, width(), line), Qt::AlignVCenter | Qt::AlignLeft, fontMetrics().elidedText(note, Qt::ElideRight, width()));
        y += line;
    }
}

bool AccountRecordsChart::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        QString tip;
        if (const int row = rowAt(help->pos()); row >= 0) {
            tip = rowToolTip(row) + QLatin1Char('\n') + tr("Click to open the account.");
        } else if (const auto key = headerKeyAt(help->pos())) {
            tip = *key == m_ranking.key() ? tr("The accounts are ranked by this count.")
                : *key == Key::Sessions   ? tr("Click to rank the accounts by their session records (messages in $MQTT_sess).")
                                          : tr("Click to rank the accounts by their retained messages (messages in $MQTT_rmsgs).");
        } else if (m_ranking.unknownAccounts() > 0 && !rowRect(-1).contains(help->pos())) {
            tip = tr("Accounts whose streams could not be read, e.g. %1").arg(m_ranking.unknownSample().join(QStringLiteral(", ")));
        }
        if (tip.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), tip, this);
        }
        return true;
    }
    return QWidget::event(event);
}

void AccountRecordsChart::setHovered(int row)
{
    if (row == m_hovered)
        return;
    m_hovered = row;
    update();
}

void AccountRecordsChart::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    const int row = rowAt(pos);
    setHovered(row);
    const auto key = headerKeyAt(pos);
    setCursor(row >= 0 || (key && *key != m_ranking.key()) ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void AccountRecordsChart::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const QPoint pos = event->position().toPoint();
    if (const int row = rowAt(pos); row >= 0) {
        m_current = row;
        update();
        emit accountActivated(m_ranking.top().at(row).account);
    } else if (const auto key = headerKeyAt(pos); key && *key != m_ranking.key()) {
        emit keyRequested(*key);
    }
}

void AccountRecordsChart::leaveEvent(QEvent *event)
{
    setHovered(-1);
    QWidget::leaveEvent(event);
}

void AccountRecordsChart::keyPressEvent(QKeyEvent *event)
{
    const int rows = int(m_ranking.top().size());
    if (rows == 0)
        return QWidget::keyPressEvent(event);
    switch (event->key()) {
    case Qt::Key_Up: m_current = std::max(0, m_current - 1); break;
    case Qt::Key_Down: m_current = std::min(rows - 1, m_current + 1); break;
    case Qt::Key_Home: m_current = 0; break;
    case Qt::Key_End: m_current = rows - 1; break;
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Space:
        if (m_current >= 0)
            emit accountActivated(m_ranking.top().at(m_current).account);
        return;
    default: return QWidget::keyPressEvent(event);
    }
    update();
}

} // namespace MqttDoctor
