#include "clustertreenode.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "models/displayformat.h"

namespace MqttDoctor {

namespace {

using NodeKind = ClusterTreeModel::NodeKind;

QString dataKey(NodeKind kind)
{
    // Stream names cannot contain whitespace: these keys never clash with a stream's.
    switch (kind) {
    case NodeKind::Sessions: return QStringLiteral(" sessions");
    case NodeKind::Retained: return QStringLiteral(" retained");
    case NodeKind::Consumers: return QStringLiteral(" consumers");
    default: return {};
    }
}

constexpr NodeKind kRecordViews[] = {NodeKind::Sessions, NodeKind::Retained, NodeKind::Consumers};

} // namespace

std::unique_ptr<ClusterTreeNode> ClusterTreeNode::makeAccount(const AccountInfo &account, size_t childrenDigest)
{
    auto node = std::make_unique<ClusterTreeNode>(NodeKind::Account, account.name);
    node->account = &account;
    node->childrenDigest = childrenDigest;
    for (int i = 0; i < int(account.streams.size()); ++i) {
        const StreamInfo &s = account.streams.at(i);
        if (!s.isMqtt())
            continue;
        auto child = std::make_unique<ClusterTreeNode>(NodeKind::Stream, s.name);
        child->pointAt(account, i);
        node->children.push_back(std::move(child));
    }
    if (!node->children.empty()) {
        for (NodeKind kind : kRecordViews)
            node->children.push_back(std::make_unique<ClusterTreeNode>(kind, dataKey(kind)));
    }
    node->renumber();
    return node;
}

QList<ClusterTreeNode::Child> ClusterTreeNode::childrenOf(const AccountInfo &account)
{
    QList<Child> children;
    for (int i = 0; i < int(account.streams.size()); ++i) {
        if (account.streams.at(i).isMqtt())
            children.append(Child{account.streams.at(i).name, NodeKind::Stream, i});
    }
    if (!children.isEmpty()) {
        for (NodeKind kind : kRecordViews)
            children.append(Child{dataKey(kind), kind, -1});
    }
    return children;
}

std::unique_ptr<ClusterTreeNode> ClusterTreeNode::makeChild(const Child &child, const AccountInfo &owner)
{
    auto node = std::make_unique<ClusterTreeNode>(child.kind, child.name);
    if (child.kind == NodeKind::Stream)
        node->pointAt(owner, child.streamIndex);
    return node;
}

bool ClusterTreeNode::shownDifferently(const StreamInfo &a, const StreamInfo &b)
{
    return DisplayFormat::messages(a) != DisplayFormat::messages(b)
        || a.config.value(QLatin1String("subjects")) != b.config.value(QLatin1String("subjects"));
}

void ClusterTreeNode::rebuildAccount(const AccountInfo &entry, size_t digest, std::vector<std::unique_ptr<ClusterTreeNode>> &removed)
{
    account = &entry;
    if (digest == childrenDigest) {
        repointStreams();
        return;
    }
    childrenDigest = digest;
    // Children that stay keep their node (and so the persistent indexes on them).
    std::vector<std::unique_ptr<ClusterTreeNode>> next;
    for (const Child &c : childrenOf(entry)) {
        auto existing = std::find_if(children.begin(), children.end(),
                                     [&c](const std::unique_ptr<ClusterTreeNode> &n) { return n && n->key == c.name; });
        if (existing != children.end()) {
            if (c.kind == NodeKind::Stream)
                (*existing)->pointAt(entry, c.streamIndex);
            next.push_back(std::move(*existing));
        } else {
            next.push_back(makeChild(c, entry));
        }
    }
    for (auto &old : children)
        if (old)
            removed.push_back(std::move(old));
    children = std::move(next);
    renumber();
    if (fullFindings)
        badgeFromFindings();
}

void ClusterTreeNode::repointStreams()
{
    for (const auto &child : children)
        if (child->kind == NodeKind::Stream)
            child->pointAt(*account, child->streamIndex);
}

void ClusterTreeNode::badgeFromFindings()
{
    // One pass over the findings for the account and each of its streams: a pass per stream over a
    // million findings took a tenth of a second of the GUI thread.
    struct StreamWorst
    {
        ClusterTreeNode *node;
        std::optional<Finding::Severity> worst;
    };
    std::vector<StreamWorst> streams;
    for (const auto &child : children)
        if (child->kind == NodeKind::Stream)
            streams.push_back({child.get(), std::nullopt});
    const auto raise = [](std::optional<Finding::Severity> &worst, Finding::Severity severity) {
        if (!worst || int(severity) > int(*worst))
            worst = severity;
    };
    std::optional<Finding::Severity> accountWorst;
    // Neighbours are mostly about the same stream (often its very string): looked up only when it changes.
    const QString *lastStream = nullptr;
    StreamWorst *lastMatch = nullptr;
    for (qsizetype i = 0; i < findings.size(); ++i) { // shared with the findings view; none is made
        const Finding &f = findings.summaryAt(i);
        if (f.account != key)
            continue;
        raise(accountWorst, f.severity);
        if (!lastStream || f.stream != *lastStream) {
            lastStream = &f.stream;
            lastMatch = nullptr;
            for (StreamWorst &s : streams)
                if (s.node->key == f.stream) {
                    lastMatch = &s;
                    break;
                }
        }
        if (lastMatch)
            raise(lastMatch->worst, f.severity);
    }
    const auto badge = [](const std::optional<Finding::Severity> &worst) {
        return worst ? HealthBadge::fromSeverity(*worst) : HealthBadge::Health::Ok;
    };
    health = badge(accountWorst);
    for (const StreamWorst &s : streams)
        s.node->health = badge(s.worst);
}

void ClusterTreeNode::renumber(size_t from)
{
    for (size_t i = from; i < children.size(); ++i) {
        children[i]->row = static_cast<int>(i);
        children[i]->parent = this;
    }
}

QString ClusterTreeNode::accountName() const
{
    switch (kind) {
    case NodeKind::Account: return key;
    case NodeKind::Stream:
    case NodeKind::Sessions:
    case NodeKind::Retained:
    case NodeKind::Consumers: return parent ? parent->key : QString();
    default: return {};
    }
}

void ClusterTreeNode::pointAt(const AccountInfo &owner, int index)
{
    streamIndex = index;
    stream = &owner.streams.at(index);
}

} // namespace MqttDoctor
