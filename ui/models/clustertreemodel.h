#pragma once

#include <map>
#include <memory>
#include <vector>

#include <QAbstractItemModel>
#include <QHash>
#include <QIcon>
#include <QList>

#include "diagnosis/coveragegap.h"
#include "diagnosis/findinglist.h"
#include "models/clustertreedisplay.h"
#include "models/healthbadge.h"
#include "nats/clustergroup.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

class AccountRows;
class HealthMap;
struct AccountMergePlan;
struct ClusterTreeNode;

/**
 * The cluster as a tree: the profile at the top, then "Servers" (one row per server; with several
 * clusters, as in a supercluster, one row per cluster with its servers under it, and a row for a
 * cluster that a gateway leads to but none of whose servers answers) and
 * "Accounts" (one row per account; under an account with MQTT streams those streams `$MQTT_*`, then
 * "Sessions", "Retained" and "Consumers", the record views). Accounts and streams carry a health
 * badge: the worst severity of their findings.
 *
 * Built for fleets of 10,000 accounts: the accounts are kept sorted by AccountSort::nameLess (a view
 * sorts them its own way through ClusterTreeProxyModel), so the first list is one row insertion and
 * a refresh is a merge-walk (AccountMergePlan): rows that stay never move, contiguous new or gone
 * rows are one insertion or removal each, and every account row that stays is one dataChanged
 * range. Whether an account's child rows change is one comparison of digests prepared off the GUI
 * thread (AccountRows). An account is found by name through a hash. When a refresh or a set of
 * badges touches many accounts' children at once (more than kMaxSignalGroups separate places), the
 * change is one layout change instead (persistent indexes moved, those of removed rows
 * invalidated): a proxy and a view then rebuild once, where thousands of small signals would each
 * cost them time in proportion to the whole tree. Either way selection and expansion survive a refresh.
 *
 * Views read the typed roles, never display strings. GUI thread only.
 */
class ClusterTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterTreeModel)

public:
    enum Column { NameColumn, SummaryColumn, ColumnCount };

    enum class NodeKind { Profile, ServerGroup, AccountGroup, Server, Account, Stream, Sessions, Retained, Consumers, Cluster };
    Q_ENUM(NodeKind)

    enum class JetStreamState { Unknown, Enabled, Disabled };
    Q_ENUM(JetStreamState)

    enum Role {
        NodeKindRole = Qt::UserRole + 1, ///< NodeKind
        NameRole, ///< the raw name (server, account, stream; profile name)
        AccountNameRole, ///< accounts and streams: the account's name
        JetStreamRole, ///< accounts: JetStreamState
        MessagesRole, ///< streams: qint64 message count
        LegacyRole, ///< streams: bool, a legacy `$MQTT_sess_*` stream
        ServerRole, ///< servers: ServerInfo
        AccountRole, ///< accounts: AccountInfo
        HealthRole, ///< accounts and streams: HealthBadge::Health (Unknown before setFindings)
        CoverageRole, ///< accounts: HealthBadge::Coverage, how far the badge reaches
        ClusterRole, ///< clusters: ClusterGroup
    };

    /** Beyond this many separate row runs or parents with changed children, a change is one layout change. */
    static constexpr qsizetype kMaxSignalGroups = 64;

    explicit ClusterTreeModel(QObject *parent = nullptr);
    ~ClusterTreeModel() override;

    /** Shows the profile row (with empty groups the first time); detail is e.g. the server URLs. */
    void setProfile(const QString &name, const QString &detail);
    /** Removes everything (no profile). */
    void clear();
    void setServers(const QList<ServerInfo> &servers);
    /**
     * The accounts, merged by name into the rows there are (in AccountSort::nameLess order whatever
     * the order discovery gave; of two accounts with one name the first is kept). A new account's
     * badges are "unknown" until applyHealth() or setFindings(). Prepare the rows off the GUI thread
     * (AccountRows::prepare) for a large list; the QList overload prepares them here.
     */
    void setAccounts(const AccountRows &rows);
    void setAccounts(const QList<AccountInfo> &accounts);
    /**
     * An account's full findings (e.g. with the record-level checks of its loaded records): badges for
     * its streams (worst severity of each) and for the account, whose coverage is Full, or CouldNotCheck
     * when a gap may hide a problem (its text in the tooltip). These win over applyHealth() for this
     * account until the account leaves the tree (also for streams that appear later).
     */
    void setFindings(const QString &account, const FindingList &findings, const QList<CoverageGap> &gaps = {});
    /**
     * How far the account's stream-level badge reaches while it has no full findings: its records being
     * read (Checking), or not readable and why (CouldNotCheck, StreamsOnly). Ignored after setFindings().
     */
    void setCoverage(const QString &account, HealthBadge::Coverage coverage, const QString &why = {});
    /**
     * The badges of every account and stream at once (the stream-level diagnosis of the whole
     * cluster), except accounts given full findings with setFindings(). An account the map does not
     * cover shows "unknown"; an account with session records to check gets coverage StreamsOnly (a
     * ring), the others Full. One pass over the accounts; few signals (see the class comment).
     */
    void applyHealth(const HealthMap &health);

    /**
     * Every finding the tree's badges come from: each account's full findings where it has them, its
     * stream-level ones (the last applyHealth()) otherwise, and the cluster-wide ones. Sorted.
     */
    FindingList allFindings() const;
    /** How many accounts have each coverage (HealthBadge::Coverage), over the accounts with a badge. */
    QHash<HealthBadge::Coverage, int> coverageCounts() const;

    QModelIndex profileIndex() const;
    QModelIndex serverGroupIndex() const;
    QModelIndex accountGroupIndex() const;
    QModelIndex accountIndex(const QString &name) const;
    QModelIndex streamIndex(const QString &account, const QString &stream) const;
    /** The account's "Sessions", "Retained" or "Consumers" node (invalid for other kinds or none). */
    QModelIndex dataIndex(const QString &account, NodeKind kind) const;

    /** The payloads behind an index (nullptr when it is not that kind). */
    const ServerInfo *serverAt(const QModelIndex &index) const;
    const ClusterGroup *clusterAt(const QModelIndex &index) const;
    /** The cluster rows under "Servers" (none with a single cluster). */
    QList<ClusterGroup> clusters() const;
    const AccountInfo *accountAt(const QModelIndex &index) const;
    const StreamInfo *streamAt(const QModelIndex &index) const;
    QList<ServerInfo> servers() const;
    QList<AccountInfo> accounts() const;
    int accountCount() const;
    int jetStreamAccountCount() const;

    /** Cheap typed reads for proxies and views (no QVariant): the node's kind, name (NameRole) and badge. */
    NodeKind kindAt(const QModelIndex &index) const;
    QString nameAt(const QModelIndex &index) const;
    HealthBadge::Health healthAt(const QModelIndex &index) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    using Node = ClusterTreeNode;

    Node *nodeAt(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node, int column = 0) const;
    Node *groupNode(NodeKind kind) const;
    void emitRowChanged(const Node *node);
    /** Merges `servers` into `parent`'s server rows. */
    void mergeServers(Node *parent, const QList<ServerInfo> &servers);
    template<typename Info, typename Make, typename Update>
    void mergeChildren(Node *parent, const QList<Info> &items, Make make, Update update);
    /** Row signals for every change (few places changed). */
    void mergeAccountsByRows(Node *group, const AccountRows &rows, const AccountMergePlan &plan);
    /** One layout change for everything (many places changed). */
    void mergeAccountsInLayoutChange(Node *group, const AccountRows &rows, const AccountMergePlan &plan);
    /** Points an account node at its new entry, with row signals for the children that change. */
    void updateAccountNode(Node *node, const AccountInfo &account, size_t childrenDigest);
    void indexAccounts(const Node *group);

    std::unique_ptr<Node> m_root;
    QHash<QString, Node *> m_accountNodes; ///< the account rows by name
    QList<AccountInfo> m_accounts; ///< what the account nodes point into (only read: never detached)
    QString m_profileDetail;
    QList<Finding> m_streamFindings; ///< the last applyHealth()'s findings
    ClusterTreeDisplay m_display; ///< how the nodes look
};

} // namespace MqttDoctor
