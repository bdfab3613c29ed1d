#pragma once

#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "models/clustertreemodel.h"

namespace MqttDoctor {

// The tree's node, shared by the model's structure (clustertreemodel.cpp: merging, indexes) and its
// presentation (clustertreemodeldisplay.cpp: roles, text, tooltips, icons). Private to the model.
//
// An account or stream node points into the model's list of accounts (ClusterTreeModel::m_accounts,
// shared with the controller, never detached) instead of holding a copy: a refresh of 10,000
// accounts then re-points nodes instead of copying (and later freeing) every account's and stream's
// reference-counted fields on the GUI thread, which took ~25 ms on cold memory.

struct ClusterTreeModel::Node
{
    Node(NodeKind k, QString name) : kind(k), key(std::move(name)) {}

    NodeKind kind;
    QString key;      ///< the name rows are merged by
    Node *parent = nullptr;
    int row = 0;      ///< kept current by renumber(), so parent() is O(1)
    std::vector<std::unique_ptr<Node>> children;
    std::optional<ServerInfo> server;        ///< servers (a few: kept by value)
    const AccountInfo *account = nullptr;    ///< accounts: their entry in the model's account list
    const StreamInfo *stream = nullptr;      ///< streams: their entry in the account's `streams`
    int streamIndex = -1;                    ///< streams: that entry's index
    bool loaded = false; ///< groups: a list arrived at least once
    HealthBadge::Health health = HealthBadge::Health::Unknown; ///< accounts and streams
    size_t childrenDigest = 0;  ///< accounts: AccountRows::childrenDigest of the account
    bool fullFindings = false;  ///< accounts: badged from `findings` (setFindings), not from a HealthMap
    QList<Finding> findings;    ///< accounts with fullFindings: what their badges come from

    /** Row numbers and parent links of the children from `from` on (rows before it are unchanged). */
    void renumber(size_t from = 0)
    {
        for (size_t i = from; i < children.size(); ++i) {
            children[i]->row = static_cast<int>(i);
            children[i]->parent = this;
        }
    }
    void append(std::unique_ptr<Node> child)
    {
        children.push_back(std::move(child));
        renumber(children.size() - 1);
    }
    int childCount() const { return static_cast<int>(children.size()); }
    /** The name of the account this node is or belongs to (empty above the accounts). */
    QString accountName() const
    {
        if (kind == NodeKind::Account)
            return key;
        if (kind == NodeKind::Stream || kind == NodeKind::Sessions || kind == NodeKind::Retained || kind == NodeKind::Consumers)
            return parent ? parent->key : QString();
        return {};
    }
    /** Points a stream node at entry `index` of `account`'s streams. */
    void pointAt(const AccountInfo &owner, int index)
    {
        streamIndex = index;
        stream = &owner.streams.at(index);
    }
    template<typename T>
    const T *as() const
    {
        if constexpr (std::is_same_v<T, ServerInfo>)
            return server ? &*server : nullptr;
        else if constexpr (std::is_same_v<T, AccountInfo>)
            return account;
        else
            return stream;
    }
};

/** What goes under an account: a stream (its index in the account's streams), or one of the record views. */
struct ClusterTreeModel::AccountChild
{
    QString name;
    NodeKind kind = NodeKind::Stream;
    int streamIndex = -1;
};

} // namespace MqttDoctor
