#pragma once

#include <QFlags>
#include <QHash>
#include <QObject>

#include <functional>

#include "models/rowselection.h"
#include "repair/operator/operatorrequest.h"

class QAction;
class QMenu;
class QTableView;
class QToolButton;
class QWidget;

namespace MqttDoctor {

/**
 * The actions on the selected rows of one table (an account's Sessions, Retained, In flight, Pinned,
 * Consumers or Activity table, or the cluster's findings): a context menu and a tool button with the same
 * actions, each naming how many rows it takes ("Delete 1,204 Sessions…"). The operator actions (delete
 * sessions, disconnect clients, clear retained messages, drop queued messages) only ask for their dialog
 * (operatorRequested); Copy puts the rows' client IDs, topics, payloads or records on the clipboard; Back
 * Up asks for a read-only backup of the rows' records; Show in Sessions / Consumers asks for the matching
 * rows of the other tab. "Select All Shown" (Ctrl+A) selects what the filter shows; the Delete key opens
 * the delete preview of the selection where the table offers one.
 *
 * The table's rows are read only when asked (a menu about to show, a key, a trigger) through the panel's
 * provider, which maps the selected rows to a RowSelection. The view is set to select rows, several at
 * once. GUI thread.
 */
class RowActions final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RowActions)

public:
    enum Offer {
        DeleteSessions = 0x1,
        Disconnect = 0x2,
        ClearRetained = 0x4,
        ClearRetainedMatching = 0x8,
        DropBacklog = 0x10,
        CopyClientId = 0x20,
        CopyTopic = 0x40,
        CopyPayload = 0x80,
        CopyJson = 0x100,
        BackUp = 0x200,
        ShowInSessions = 0x400,
        ShowInConsumers = 0x800,
    };
    Q_DECLARE_FLAGS(Offers, Offer)
    Q_FLAG(Offers)

    /** What the selected rows are (Detail::Texts only for Copy). */
    using Provider = std::function<RowSelection(RowSelection::Detail detail)>;

    /**
     * `name` starts the actions' object names ("sessions": sessionsDeleteSessions, ...); `deleteKey` is the
     * operator action the Delete key opens (DeleteSessions or ClearRetained; 0: none).
     */
    RowActions(QTableView *view, const QString &name, Offers offers, Provider provider, Offer deleteKey = Offer(0));
    ~RowActions() override;

    /** The action of an offer (null when not offered); its text and state follow the selection after update(). */
    QAction *action(Offer offer) const { return m_actions.value(offer); }
    /** "Select All Shown (N)", Ctrl+A on the table. */
    QAction *selectAllAction() const { return m_selectAll; }
    /** The menu the table's context menu and tool button show. */
    QMenu *menu() const { return m_menu; }
    /** A tool button that pops up menu(), for the panel's tool row. */
    QToolButton *makeToolButton(QWidget *parent);
    /** Words every action for the selection as it is now, and enables those that can take it. */
    void update();
    /** The selection as the provider maps it now. */
    RowSelection selection(RowSelection::Detail detail = RowSelection::Detail::Ids) const;
    /** "Delete 1,204 Sessions…", "Delete Session \"sensor-1\"…": an offer's text for a selection. */
    static QString textFor(Offer offer, const RowSelection &selection);

Q_SIGNALS:
    /** An operator action on the selection was asked for: its dialog previews the plan before anything changes. */
    void operatorRequested(const MqttDoctor::OperatorRequest &request);
    /** "Back Up Selection…": a read-only backup of the selection's records. */
    void backupRequested(const MqttDoctor::RowSelection &selection);
    /** Show the session (Sessions tab) or the durables (Consumers tab) of a client of the account. */
    void showInSessions(const QString &account, const QString &clientId);
    void showInConsumers(const QString &account, const QString &clientId);

private:
    QAction *add(Offer offer);
    void trigger(Offer offer);
    void requestOperator(OperatorRequest::Verb verb, const RowSelection &selection, const QStringList &topics = {});
    void askRetainedFilter(const RowSelection &selection);
    void copy(Offer offer);

    QTableView *m_view;
    QString m_name;
    Offers m_offers;
    Provider m_provider;
    QMenu *m_menu;
    QHash<int, QAction *> m_actions;
    QAction *m_selectAll;
};

} // namespace MqttDoctor

Q_DECLARE_OPERATORS_FOR_FLAGS(MqttDoctor::RowActions::Offers)
