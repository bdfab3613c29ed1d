#pragma once

#include <memory>
#include <type_traits>
#include <vector>

#include <QList>
#include <QString>

#include "diagnosis/findinglist.h"
#include "models/clustertreemodel.h"
#include "models/healthbadge.h"
#include "nats/clustergroup.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * One node of ClusterTreeModel's tree, and how an account's part of the tree is made from discovery
 * and badged from findings. Private to the model: its structure and signals are in
 * ClusterTreeModel, how nodes look in ClusterTreeDisplay.
 *
 * An account or stream node points into the model's list of accounts (shared with the controller,
 * never detached) instead of holding a copy: a refresh of 10,000 accounts then re-points nodes
 * instead of copying (and later freeing) every account's and stream's reference-counted fields on
 * the GUI thread, which took ~25 ms on cold memory. GUI thread.
 */
struct ClusterTreeNode final
{
    using NodeKind = ClusterTreeModel::NodeKind;

    /** What goes under an account: a stream (its index in the account's streams), or one of the record views. */
    struct Child
    {
        QString name;
        NodeKind kind = NodeKind::Stream;
        int streamIndex = -1;
    };

    ClusterTreeNode(NodeKind k, QString name) : kind(k), key(std::move(name)) {}

    /** An account's node and its children (made straight from the streams: this runs for every account of a first list). */
    static std::unique_ptr<ClusterTreeNode> makeAccount(const AccountInfo &account, size_t childrenDigest);
    /** The rows under an account: its MQTT streams in order, then the record views when there are any. */
    static QList<Child> childrenOf(const AccountInfo &account);
    static std::unique_ptr<ClusterTreeNode> makeChild(const Child &child, const AccountInfo &owner);
    /** What a stream row shows (name aside, which is its key) differs: its message count or subjects. */
    static bool shownDifferently(const StreamInfo &a, const StreamInfo &b);

    /**
     * Accounts: points the node at the account's new entry and brings the children in line without
     * signals (inside a layout change); children that go are moved to `removed`.
     */
    void rebuildAccount(const AccountInfo &entry, size_t digest, std::vector<std::unique_ptr<ClusterTreeNode>> &removed);
    /** Accounts: points the stream children at the account's entry (equal digests: the same streams at the same indexes). */
    void repointStreams();
    /** Accounts: the badges of the account and its streams from `findings` (ClusterTreeModel::setFindings). */
    void badgeFromFindings();

    /** Row numbers and parent links of the children from `from` on (rows before it are unchanged). */
    void renumber(size_t from = 0);
    void append(std::unique_ptr<ClusterTreeNode> child)
    {
        children.push_back(std::move(child));
        renumber(children.size() - 1);
    }
    int childCount() const { return static_cast<int>(children.size()); }
    /** The name of the account this node is or belongs to (empty above the accounts). */
    QString accountName() const;
    /** Points a stream node at entry `index` of `owner`'s streams. */
    void pointAt(const AccountInfo &owner, int index);
    template<typename T>
    const T *as() const
    {
        if constexpr (std::is_same_v<T, ServerInfo>)
            return server.get();
        else if constexpr (std::is_same_v<T, AccountInfo>)
            return account;
        else
            return stream;
    }

    NodeKind kind;
    QString key; ///< the name rows are merged by
    ClusterTreeNode *parent = nullptr;
    int row = 0; ///< kept current by renumber(), so parent() is O(1)
    std::vector<std::unique_ptr<ClusterTreeNode>> children;
    std::unique_ptr<const ServerInfo> server; ///< servers (a few; apart, so the many other nodes stay small)
    std::unique_ptr<const ClusterGroup> cluster; ///< clusters (a supercluster's)
    const AccountInfo *account = nullptr; ///< accounts: their entry in the model's account list
    const StreamInfo *stream = nullptr; ///< streams: their entry in the account's `streams`
    int streamIndex = -1; ///< streams: that entry's index
    bool loaded = false; ///< groups: a list arrived at least once
    HealthBadge::Health health = HealthBadge::Health::Unknown; ///< accounts and streams
    HealthBadge::Coverage coverage = HealthBadge::Coverage::Full; ///< accounts: how far `health` reaches
    QString coverageWhy; ///< accounts with CouldNotCheck: why
    size_t childrenDigest = 0; ///< accounts: AccountRows::childrenDigest of the account
    bool fullFindings = false; ///< accounts: badged from `findings` (setFindings), not from a HealthMap
    FindingList findings; ///< accounts with fullFindings: what their badges come from
};

} // namespace MqttDoctor
