#include "rowactions.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLocale>
#include <QMenu>
#include <QTableView>
#include <QToolButton>

namespace MqttDoctor {

namespace {

/** A client ID or topic in a menu text, cut when long. */
QString quoted(const QString &text)
{
    constexpr int kMax = 40;
    return u'"' + (text.size() > kMax ? text.left(kMax - 1) + u'…' : text) + u'"';
}

QString number(qsizetype n)
{
    return QLocale().toString(qint64(n));
}

constexpr RowActions::Offer kOrder[] = {
    RowActions::DeleteSessions,
    RowActions::Disconnect,
    RowActions::DropBacklog,
    RowActions::ClearRetained,
    RowActions::ClearRetainedMatching,
    RowActions::CopyClientId,
    RowActions::CopyTopic,
    RowActions::CopyPayload,
    RowActions::CopyJson,
    RowActions::BackUp,
    RowActions::ShowInSessions,
    RowActions::ShowInConsumers,
};

bool isOperatorOffer(RowActions::Offer offer)
{
    return offer == RowActions::DeleteSessions || offer == RowActions::Disconnect || offer == RowActions::DropBacklog
        || offer == RowActions::ClearRetained || offer == RowActions::ClearRetainedMatching;
}

bool isCopyOffer(RowActions::Offer offer)
{
    return offer == RowActions::CopyClientId || offer == RowActions::CopyTopic || offer == RowActions::CopyPayload
        || offer == RowActions::CopyJson;
}

QString objectSuffix(RowActions::Offer offer)
{
    switch (offer) {
    case RowActions::DeleteSessions: return QStringLiteral("DeleteSessions");
    case RowActions::Disconnect: return QStringLiteral("Disconnect");
    case RowActions::ClearRetained: return QStringLiteral("ClearRetained");
    case RowActions::ClearRetainedMatching: return QStringLiteral("ClearRetainedMatching");
    case RowActions::DropBacklog: return QStringLiteral("DropBacklog");
    case RowActions::CopyClientId: return QStringLiteral("CopyClientId");
    case RowActions::CopyTopic: return QStringLiteral("CopyTopic");
    case RowActions::CopyPayload: return QStringLiteral("CopyPayload");
    case RowActions::CopyJson: return QStringLiteral("CopyJson");
    case RowActions::BackUp: return QStringLiteral("BackUp");
    case RowActions::ShowInSessions: return QStringLiteral("ShowInSessions");
    case RowActions::ShowInConsumers: return QStringLiteral("ShowInConsumers");
    }
    return {};
}

} // namespace

RowActions::RowActions(QTableView *view, const QString &name, Offers offers, Provider provider, Offer deleteKey)
    : QObject(view), m_view(view), m_name(name), m_offers(offers), m_provider(std::move(provider)), m_menu(new QMenu(view)),
      m_selectAll(new QAction(this))
{
    setObjectName(name + QStringLiteral("RowActions"));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_menu->setObjectName(name + QStringLiteral("RowMenu"));
    bool copySeparator = false;
    bool showSeparator = false;
    for (const Offer offer : kOrder) {
        if (!offers.testFlag(offer))
            continue;
        if (!copySeparator && !isOperatorOffer(offer) && !m_menu->isEmpty()) {
            m_menu->addSeparator();
            copySeparator = true;
        }
        if (!showSeparator && (offer == ShowInSessions || offer == ShowInConsumers) && !m_menu->isEmpty()) {
            m_menu->addSeparator();
            showSeparator = true;
        }
        m_menu->addAction(add(offer));
    }
    m_menu->addSeparator();
    m_selectAll->setObjectName(name + QStringLiteral("SelectAll"));
    m_selectAll->setShortcut(QKeySequence::SelectAll);
    m_selectAll->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_selectAll->setToolTip(tr("Select every row the filter shows (Ctrl+A): the actions above then take them all"));
    view->addAction(m_selectAll);
    m_menu->addAction(m_selectAll);
    connect(m_selectAll, &QAction::triggered, view, &QTableView::selectAll);
    if (QAction *a = action(deleteKey)) {
        a->setShortcut(QKeySequence::Delete);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        view->addAction(a);
    }
    connect(view, &QWidget::customContextMenuRequested, this,
            [this](const QPoint &pos) { m_menu->popup(m_view->viewport()->mapToGlobal(pos)); });
    connect(m_menu, &QMenu::aboutToShow, this, &RowActions::update);
    // Only whether rows are selected, on each change: the rows themselves are read when a menu shows or an action runs.
    if (QItemSelectionModel *selection = view->selectionModel())
        connect(selection, &QItemSelectionModel::selectionChanged, this, [this] {
            const bool any = m_view->selectionModel()->hasSelection();
            for (auto it = m_actions.cbegin(); it != m_actions.cend(); ++it)
                if (it.key() != ClearRetainedMatching)
                    it.value()->setEnabled(any);
        });
    update();
}

RowActions::~RowActions() = default;

QAction *RowActions::add(Offer offer)
{
    auto *a = new QAction(this);
    a->setObjectName(m_name + objectSuffix(offer));
    m_actions.insert(offer, a);
    connect(a, &QAction::triggered, this, [this, offer] { trigger(offer); });
    return a;
}

QToolButton *RowActions::makeToolButton(QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setObjectName(m_name + QStringLiteral("ActionsButton"));
    button->setText(tr("Actions"));
    button->setToolTip(tr("What to do with the selected rows (also on the right mouse button)"));
    button->setPopupMode(QToolButton::InstantPopup);
    button->setMenu(m_menu);
    return button;
}

RowSelection RowActions::selection(RowSelection::Detail detail) const
{
    return m_provider ? m_provider(detail) : RowSelection();
}

QString RowActions::textFor(Offer offer, const RowSelection &s)
{
    const qsizetype clients = s.clientIds.size();
    const QString client = s.clientIds.value(0);
    switch (offer) {
    case DeleteSessions:
        return clients == 1 ? tr("Delete Session %1…").arg(quoted(client))
            : clients > 1   ? tr("Delete %1 Sessions…").arg(number(clients))
                            : tr("Delete Sessions…");
    case Disconnect:
        return clients == 1 ? tr("Disconnect Client %1…").arg(quoted(client))
            : clients > 1   ? tr("Disconnect %1 Clients…").arg(number(clients))
                            : tr("Disconnect Clients…");
    case DropBacklog:
        return clients == 1 ? tr("Drop Queued Messages of %1 (Backlog)…").arg(quoted(client))
            : clients > 1   ? tr("Drop Queued Messages of %1 Sessions (Backlog)…").arg(number(clients))
                            : tr("Drop Queued Messages (Backlog)…");
    case ClearRetained:
        return s.topics.size() == 1 ? tr("Clear Retained Message %1…").arg(quoted(s.topics.first()))
            : s.topics.size() > 1   ? tr("Clear %1 Retained Messages…").arg(number(s.topics.size()))
                                    : tr("Clear Retained Messages…");
    case ClearRetainedMatching: return tr("Clear Retained Matching Filter…");
    case CopyClientId: return clients > 1 ? tr("Copy %1 Client IDs").arg(number(clients)) : tr("Copy Client ID");
    case CopyTopic: return s.topics.size() > 1 ? tr("Copy %1 Topics").arg(number(s.topics.size())) : tr("Copy Topic");
    case CopyPayload: return s.rows > 1 ? tr("Copy %1 Payloads").arg(number(s.rows)) : tr("Copy Payload");
    case CopyJson: return s.rows > 1 ? tr("Copy %1 Rows as JSON").arg(number(s.rows)) : tr("Copy Record as JSON");
    case BackUp:
        return s.records.size() == 1 ? tr("Back Up Selection (1 record)…")
            : s.records.size() > 1   ? tr("Back Up Selection (%1 records)…").arg(number(s.records.size()))
                                     : tr("Back Up Selection…");
    case ShowInSessions: return clients > 0 ? tr("Show %1 in Sessions").arg(quoted(client)) : tr("Show in Sessions");
    case ShowInConsumers: return clients > 0 ? tr("Show Durables of %1 in Consumers").arg(quoted(client)) : tr("Show in Consumers");
    }
    return {};
}

void RowActions::update()
{
    const RowSelection s = selection();
    const bool oneAccount = !s.account.isEmpty();
    const QString several = tr("The selected rows belong to several accounts: an action takes one account's rows.");
    for (auto it = m_actions.cbegin(); it != m_actions.cend(); ++it) {
        const auto offer = Offer(it.key());
        QAction *a = it.value();
        a->setText(textFor(offer, s));
        bool enabled = false;
        QString tip;
        switch (offer) {
        case DeleteSessions:
        case Disconnect:
        case DropBacklog:
            enabled = !s.clientIds.isEmpty() && oneAccount;
            tip = s.spansAccounts() ? several
                : enabled           ? tr("Opens the preview of the plan; nothing changes before you confirm it")
                                    : tr("The selected rows name no MQTT client ID");
            break;
        case ClearRetained:
            enabled = !s.topics.isEmpty() && oneAccount;
            tip = enabled ? tr("Opens the preview of the plan; nothing changes before you confirm it")
                          : tr("Select decodable retained messages");
            break;
        case ClearRetainedMatching:
            enabled = oneAccount;
            tip = tr("Clear every retained message whose topic matches an MQTT filter such as sensors/+/temp (previewed first)");
            break;
        case CopyClientId: enabled = !s.clientIds.isEmpty(); break;
        case CopyTopic: enabled = !s.topics.isEmpty(); break;
        case CopyPayload:
        case CopyJson: enabled = s.rows > 0; break;
        case BackUp:
            enabled = !s.records.isEmpty() && oneAccount;
            tip = s.spansAccounts() ? several
                                    : tr("Writes the selected rows' stored records to backup files in a folder you pick; changes nothing "
                                         "on the servers (allowed on read-only connections)");
            break;
        case ShowInSessions:
        case ShowInConsumers: enabled = !s.clientIds.isEmpty() && oneAccount; break;
        }
        a->setEnabled(enabled);
        a->setToolTip(tip);
        a->setStatusTip(tip);
    }
    const int shown = m_view->model() ? m_view->model()->rowCount() : 0;
    m_selectAll->setText(tr("Select All Shown (%1)").arg(number(shown)));
    m_selectAll->setEnabled(shown > 0);
}

void RowActions::trigger(Offer offer)
{
    if (isCopyOffer(offer)) {
        copy(offer);
        return;
    }
    const RowSelection s = selection();
    switch (offer) {
    case DeleteSessions: requestOperator(OperatorRequest::Verb::DeleteSessions, s); break;
    case Disconnect: requestOperator(OperatorRequest::Verb::Disconnect, s); break;
    case DropBacklog: requestOperator(OperatorRequest::Verb::DropBacklog, s); break;
    case ClearRetained:
        if (!s.topics.isEmpty())
            requestOperator(OperatorRequest::Verb::ClearRetained, s, s.topics);
        break;
    case ClearRetainedMatching: askRetainedFilter(s); break;
    case BackUp:
        if (!s.records.isEmpty() && !s.account.isEmpty())
            emit backupRequested(s);
        break;
    case ShowInSessions:
        if (!s.clientIds.isEmpty() && !s.account.isEmpty())
            emit showInSessions(s.account, s.clientIds.first());
        break;
    case ShowInConsumers:
        if (!s.clientIds.isEmpty() && !s.account.isEmpty())
            emit showInConsumers(s.account, s.clientIds.first());
        break;
    default: break;
    }
}

void RowActions::requestOperator(OperatorRequest::Verb verb, const RowSelection &selection, const QStringList &topics)
{
    if (selection.account.isEmpty())
        return;
    OperatorRequest request;
    request.verb = verb;
    request.account = selection.account;
    if (verb == OperatorRequest::Verb::ClearRetained) {
        if (topics.isEmpty())
            return;
        request.topics = topics;
    } else {
        if (selection.clientIds.isEmpty())
            return;
        request.clientIds = selection.clientIds;
    }
    emit operatorRequested(request);
}

void RowActions::askRetainedFilter(const RowSelection &selection)
{
    if (selection.account.isEmpty())
        return;
    auto *dialog = new QInputDialog(m_view->window());
    dialog->setObjectName(QStringLiteral("retainedFilterDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Clear Retained Matching Filter"));
    dialog->setLabelText(tr("Clear the retained messages of account %1 whose topic matches this MQTT filter (+ is one level, # "
                            "the rest), e.g. sensors/+/temp. The next window shows what matches before anything changes.")
                             .arg(selection.account));
    dialog->setTextValue(selection.topics.value(0));
    dialog->setOkButtonText(tr("&Preview…"));
    connect(dialog, &QInputDialog::textValueSelected, this, [this, selection](const QString &text) {
        const QString filter = text.trimmed();
        if (!filter.isEmpty())
            requestOperator(OperatorRequest::Verb::ClearRetained, selection, {filter});
    });
    dialog->open();
}

void RowActions::copy(Offer offer)
{
    const RowSelection s = selection(RowSelection::Detail::Texts);
    QStringList lines;
    switch (offer) {
    case CopyClientId: lines = s.clientIds; break;
    case CopyTopic: lines = s.topics; break;
    case CopyPayload: lines = s.payloads; break;
    case CopyJson: lines = s.json; break;
    default: return;
    }
    if (!lines.isEmpty())
        QGuiApplication::clipboard()->setText(lines.join(u'\n'));
}

} // namespace MqttDoctor
