#pragma once

#include <QWidget>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

class QLabel;
class QPlainTextEdit;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;

namespace MqttDoctor {

class StreamTableModel;

/**
 * One account: its JetStream state, usage and limits, its MQTT streams in a table (config next to
 * state), and the selected stream as the server reported it (the CLI's `streams --json` shape).
 * Explains the empty cases (JetStream off, no MQTT streams yet) instead of showing nothing.
 */
class AccountDetailPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AccountDetailPanel)

public:
    explicit AccountDetailPanel(QWidget *parent = nullptr);
    ~AccountDetailPanel() override;

    void setAccount(const AccountInfo &account);
    /** Selects a stream's row (e.g. when the stream was chosen in the tree). */
    void selectStream(const QString &name);
    QString accountName() const { return m_account.name; }
    StreamTableModel *streamModel() const { return m_model; }
    QTableView *streamView() const { return m_table; }
    /** The raw JSON of the selected stream, empty when none is selected. */
    QString selectedStreamJson() const;

private:
    QString limitsText() const;
    void showSelectedStream();
    void fitColumns();
    void fitTableHeight();

    AccountInfo m_account;
    QLabel *m_title;
    QLabel *m_jetstream;
    QLabel *m_usage;
    QLabel *m_limits;
    QLabel *m_streams;
    QLabel *m_source;
    QLabel *m_place;
    QLabel *m_notice;
    QLabel *m_tableTitle;
    StreamTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_jsonTitle;
    QPlainTextEdit *m_json;
    QSplitter *m_splitter;
};

} // namespace MqttDoctor
