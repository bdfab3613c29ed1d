#include "clustertreemodel.h"

#include <QSet>

#include "models/clustertreenode.h"

// The tree's structure: rows merged by name (never reset), lookups, indexes. How the nodes look
// (roles, text, tooltips, icons) is in clustertreemodeldisplay.cpp.

namespace MqttDoctor {

namespace {

QString dataKey(ClusterTreeModel::NodeKind kind)
{
    // Stream names cannot contain whitespace: these keys never clash with a stream's.
    switch (kind) {
    case ClusterTreeModel::NodeKind::Sessions: return QStringLiteral(" sessions");
    case ClusterTreeModel::NodeKind::Retained: return QStringLiteral(" retained");
    case ClusterTreeModel::NodeKind::Consumers: return QStringLiteral(" consumers");
    default: return {};
    }
}

QString serverKey(const ServerInfo &s)
{
    return !s.name.isEmpty() ? s.name : !s.id.isEmpty() ? s.id : s.host;
}

} // namespace

ClusterTreeModel::ClusterTreeModel(QObject *parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>(NodeKind::Profile, QString()))
{
}

ClusterTreeModel::~ClusterTreeModel() = default;

void ClusterTreeModel::setProfile(const QString &name, const QString &detail)
{
    m_profileDetail = detail;
    if (!m_root->children.empty()) {
        Node *profile = m_root->children.front().get();
        profile->key = name;
        emitRowChanged(profile);
        return;
    }
    auto profile = std::make_unique<Node>(NodeKind::Profile, name);
    profile->append(std::make_unique<Node>(NodeKind::ServerGroup, QStringLiteral("servers")));
    profile->append(std::make_unique<Node>(NodeKind::AccountGroup, QStringLiteral("accounts")));
    beginInsertRows({}, 0, 0);
    m_root->append(std::move(profile));
    endInsertRows();
}

void ClusterTreeModel::clear()
{
    beginResetModel();
    m_root->children.clear();
    m_profileDetail.clear();
    endResetModel();
}

void ClusterTreeModel::setServers(const QList<ServerInfo> &servers)
{
    Node *group = groupNode(NodeKind::ServerGroup);
    if (!group)
        return;
    mergeChildren(
        group, servers,
        [](const ServerInfo &s) {
            auto node = std::make_unique<Node>(NodeKind::Server, serverKey(s));
            node->payload = s;
            return node;
        },
        [this](Node *node, const ServerInfo &s) {
            node->payload = s;
            emitRowChanged(node);
        });
    group->loaded = true;
    emitRowChanged(group);
}

void ClusterTreeModel::setAccounts(const QList<AccountInfo> &accounts)
{
    Node *group = groupNode(NodeKind::AccountGroup);
    if (!group)
        return;
    mergeChildren(
        group, accounts, [this](const AccountInfo &a) { return makeAccountNode(a); },
        [this](Node *node, const AccountInfo &a) { updateAccountNode(node, a); });
    group->loaded = true;
    emitRowChanged(group);
}

QList<ClusterTreeModel::AccountChild> ClusterTreeModel::accountChildren(const AccountInfo &account)
{
    QList<AccountChild> children;
    const QList<StreamInfo> streams = account.mqttStreams();
    for (const StreamInfo &s : streams)
        children.append(AccountChild{s.name, NodeKind::Stream, s});
    if (!streams.isEmpty()) {
        for (NodeKind kind : {NodeKind::Sessions, NodeKind::Retained, NodeKind::Consumers})
            children.append(AccountChild{dataKey(kind), kind, {}});
    }
    return children;
}

std::unique_ptr<ClusterTreeModel::Node> ClusterTreeModel::makeAccountChild(const AccountChild &child, const QString &accountName)
{
    auto node = std::make_unique<Node>(child.kind, child.name);
    if (child.kind == NodeKind::Stream)
        node->payload = child.stream;
    node->accountName = accountName;
    return node;
}

std::unique_ptr<ClusterTreeModel::Node> ClusterTreeModel::makeAccountNode(const AccountInfo &account) const
{
    auto node = std::make_unique<Node>(NodeKind::Account, account.name);
    node->payload = account;
    node->accountName = account.name;
    for (const AccountChild &child : accountChildren(account))
        node->append(makeAccountChild(child, account.name));
    return node;
}

void ClusterTreeModel::updateAccountNode(Node *node, const AccountInfo &account)
{
    node->payload = account;
    emitRowChanged(node);
    const QString accountName = account.name;
    mergeChildren(
        node, accountChildren(account), [accountName](const AccountChild &c) { return makeAccountChild(c, accountName); },
        [this](Node *child, const AccountChild &c) {
            if (c.kind != NodeKind::Stream)
                return;
            child->payload = c.stream;
            emitRowChanged(child);
        });
}

void ClusterTreeModel::setFindings(const QString &account, const QList<Finding> &findings)
{
    const QModelIndex accountIdx = accountIndex(account);
    Node *node = nodeAt(accountIdx);
    if (!node)
        return;
    node->health = HealthBadge::worst(findings, [&account](const Finding &f) { return f.account == account; });
    emitRowChanged(node);
    for (const auto &child : node->children) {
        if (child->kind != NodeKind::Stream)
            continue;
        const QString stream = child->key;
        child->health = HealthBadge::worst(findings, [&](const Finding &f) { return f.account == account && f.stream == stream; });
        emitRowChanged(child.get());
    }
}

// Brings parent's children in line with items (same keys, same order) with the smallest set of
// row removals, insertions and moves; existing rows are updated in place.
template<typename Info, typename Make, typename Update>
void ClusterTreeModel::mergeChildren(Node *parent, const QList<Info> &items, Make make, Update update)
{
    const auto keyOf = [](const Info &info) {
        if constexpr (std::is_same_v<Info, ServerInfo>)
            return serverKey(info);
        else
            return info.name;
    };
    const QModelIndex parentIndex = indexOf(parent);

    QSet<QString> wanted;
    for (const Info &info : items)
        wanted.insert(keyOf(info));
    for (int i = parent->childCount() - 1; i >= 0; --i) {
        if (wanted.contains(parent->children[size_t(i)]->key))
            continue;
        beginRemoveRows(parentIndex, i, i);
        parent->children.erase(parent->children.begin() + i);
        parent->renumber();
        endRemoveRows();
    }

    for (int i = 0; i < int(items.size()); ++i) {
        const Info &info = items[i];
        const QString key = keyOf(info);
        int found = -1;
        for (int j = i; j < parent->childCount(); ++j) {
            if (parent->children[size_t(j)]->key == key) {
                found = j;
                break;
            }
        }
        if (found < 0) {
            beginInsertRows(parentIndex, i, i);
            parent->children.insert(parent->children.begin() + i, make(info));
            parent->renumber();
            endInsertRows();
            continue;
        }
        if (found != i) {
            beginMoveRows(parentIndex, found, found, parentIndex, i);
            auto moving = std::move(parent->children[size_t(found)]);
            parent->children.erase(parent->children.begin() + found);
            parent->children.insert(parent->children.begin() + i, std::move(moving));
            parent->renumber();
            endMoveRows();
        }
        update(parent->children[size_t(i)].get(), info);
    }
}

QModelIndex ClusterTreeModel::profileIndex() const
{
    return m_root->children.empty() ? QModelIndex() : indexOf(m_root->children.front().get());
}

QModelIndex ClusterTreeModel::serverGroupIndex() const
{
    return indexOf(groupNode(NodeKind::ServerGroup));
}

QModelIndex ClusterTreeModel::accountGroupIndex() const
{
    return indexOf(groupNode(NodeKind::AccountGroup));
}

QModelIndex ClusterTreeModel::accountIndex(const QString &name) const
{
    if (const Node *group = groupNode(NodeKind::AccountGroup)) {
        for (const auto &child : group->children)
            if (child->key == name)
                return indexOf(child.get());
    }
    return {};
}

QModelIndex ClusterTreeModel::streamIndex(const QString &account, const QString &stream) const
{
    const Node *node = nodeAt(accountIndex(account));
    if (!node)
        return {};
    for (const auto &child : node->children)
        if (child->kind == NodeKind::Stream && child->key == stream)
            return indexOf(child.get());
    return {};
}

QModelIndex ClusterTreeModel::dataIndex(const QString &account, NodeKind kind) const
{
    const Node *node = nodeAt(accountIndex(account));
    if (!node)
        return {};
    for (const auto &child : node->children)
        if (child->kind == kind)
            return indexOf(child.get());
    return {};
}

const ServerInfo *ClusterTreeModel::serverAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->as<ServerInfo>() : nullptr;
}

const AccountInfo *ClusterTreeModel::accountAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->as<AccountInfo>() : nullptr;
}

const StreamInfo *ClusterTreeModel::streamAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->as<StreamInfo>() : nullptr;
}

QList<ServerInfo> ClusterTreeModel::servers() const
{
    QList<ServerInfo> out;
    if (const Node *group = groupNode(NodeKind::ServerGroup))
        for (const auto &child : group->children)
            out.append(*child->as<ServerInfo>());
    return out;
}

QList<AccountInfo> ClusterTreeModel::accounts() const
{
    QList<AccountInfo> out;
    if (const Node *group = groupNode(NodeKind::AccountGroup))
        for (const auto &child : group->children)
            out.append(*child->as<AccountInfo>());
    return out;
}

ClusterTreeModel::Node *ClusterTreeModel::nodeAt(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return static_cast<Node *>(index.internalPointer());
}

QModelIndex ClusterTreeModel::indexOf(const Node *node, int column) const
{
    if (!node || node == m_root.get())
        return {};
    return createIndex(node->row, column, const_cast<Node *>(node));
}

ClusterTreeModel::Node *ClusterTreeModel::groupNode(NodeKind kind) const
{
    if (m_root->children.empty())
        return nullptr;
    for (const auto &child : m_root->children.front()->children)
        if (child->kind == kind)
            return child.get();
    return nullptr;
}

void ClusterTreeModel::emitRowChanged(const Node *node)
{
    emit dataChanged(indexOf(node, 0), indexOf(node, ColumnCount - 1));
}

QModelIndex ClusterTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    const Node *parentNode = parent.isValid() ? nodeAt(parent) : m_root.get();
    return createIndex(row, column, parentNode->children[size_t(row)].get());
}

QModelIndex ClusterTreeModel::parent(const QModelIndex &child) const
{
    const Node *node = nodeAt(child);
    if (!node || !node->parent)
        return {};
    return indexOf(node->parent);
}

int ClusterTreeModel::rowCount(const QModelIndex &parent) const
{
    if (parent.column() > 0)
        return 0;
    const Node *node = parent.isValid() ? nodeAt(parent) : m_root.get();
    return node ? node->childCount() : 0;
}

int ClusterTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

Qt::ItemFlags ClusterTreeModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
}

} // namespace MqttDoctor
