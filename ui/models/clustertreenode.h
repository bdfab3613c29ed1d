#pragma once

#include <memory>
#include <variant>
#include <vector>

#include "models/clustertreemodel.h"

namespace MqttDoctor {

// The tree's node, shared by the model's structure (clustertreemodel.cpp: merging, indexes) and its
// presentation (clustertreemodeldisplay.cpp: roles, text, tooltips, icons). Private to the model.

struct ClusterTreeModel::Node
{
    Node(NodeKind k, QString name) : kind(k), key(std::move(name)) {}

    NodeKind kind;
    QString key;      ///< the name rows are merged by
    Node *parent = nullptr;
    int row = 0;      ///< kept current by renumber(), so parent() is O(1)
    std::vector<std::unique_ptr<Node>> children;
    std::variant<std::monostate, ServerInfo, AccountInfo, StreamInfo> payload;
    bool loaded = false; ///< groups: a list arrived at least once
    QString accountName; ///< accounts, streams and record views
    HealthBadge::Health health = HealthBadge::Health::Unknown; ///< accounts and streams
    size_t childrenDigest = 0;  ///< accounts: AccountRows::childrenDigest of the payload
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
        renumber();
    }
    int childCount() const { return static_cast<int>(children.size()); }
    template<typename T>
    const T *as() const { return std::get_if<T>(&payload); }
};

/** What goes under an account: a stream, or one of the record views (keyed by a name no stream can have). */
struct ClusterTreeModel::AccountChild
{
    QString name;
    NodeKind kind = NodeKind::Stream;
    StreamInfo stream;
};

} // namespace MqttDoctor
