#pragma once

#include <QWidget>

#include "diagnosis/coveragegap.h"
#include "diagnosis/findinglist.h"

class QLabel;
class QTableView;
class QTextBrowser;

namespace MqttDoctor {

class AccountDataController;
class Error;
class FindingListModel;
class LoadProgressWidget;
class NoticeLabel;

/**
 * The findings of one account, most severe first, and the selected one in full: what it means, the
 * evidence (expected vs actual), the server log lines it explains and its repair (or what to do).
 * Loads through the AccountDataController when an account is set.
 */
class FindingsPanel final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FindingsPanel)

public:
    explicit FindingsPanel(AccountDataController &controller, QWidget *parent = nullptr);
    ~FindingsPanel() override;

    /** Shows the account and checks it (again, when `reload` or another account). */
    void setAccount(const QString &account, bool reload = false);
    QString account() const { return m_account; }
    FindingListModel *model() const { return m_model; }
    QTableView *view() const { return m_table; }
    /** The details of the selected finding as plain text. */
    QString detailsText() const;
    QString summaryText() const;
    QString noticeText() const;
    bool isLoaded() const { return m_loaded; }
    /** Something the findings do not cover may hide a problem (CoverageGap::leavesVerdictOpen). */
    bool verdictOpen() const { return m_verdictOpen; }
    /** Selects the first finding with this code; false when none. */
    bool selectCode(const QString &code);
    /**
     * HTML of a finding's details. Its repair line says when the connection is read-only (changesAllowed
     * false) and how to turn changes on; a finding without a repair gives what to do instead.
     */
    static QString detailsHtml(const Finding &finding, bool changesAllowed = true);

private:
    void handleLoaded(const QString &account, const FindingList &findings, const QList<CoverageGap> &gaps);
    void handleFailed(const QString &account, const Error &error);
    void showSelected();

    AccountDataController &m_controller;
    QString m_account;
    bool m_loaded = false;
    bool m_verdictOpen = false;
    QLabel *m_summary;
    NoticeLabel *m_notice;
    LoadProgressWidget *m_progress;
    FindingListModel *m_model;
    QTableView *m_table;
    QTextBrowser *m_details;
};

} // namespace MqttDoctor
