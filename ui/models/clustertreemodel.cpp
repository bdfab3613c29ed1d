#include "clustertreemodel.h"

#include <QFont>

#include <QSet>

#include "diagnosis/checks.h"
#include "mqtt/mqttlayout.h"
#include "models/accountmergeplan.h"
#include "models/accountrows.h"
#include "models/clustertreenode.h"
#include "models/displayformat.h"
#include "models/healthmap.h"

// The tree's structure: rows merged by name (never reset), badges, lookups, indexes, the roles views
// read. How the nodes look (text, tooltips, icons) is ClusterTreeDisplay; how an account's nodes are
// made, ClusterTreeNode.

namespace MqttDoctor {

namespace {

QString serverKey(const ServerInfo &s)
{
    return !s.name.isEmpty() ? s.name : !s.id.isEmpty() ? s.id : s.host;
}

const QList<int> &healthRoles()
{
    static const QList<int> roles{ClusterTreeModel::HealthRole, ClusterTreeModel::CoverageRole, Qt::DecorationRole, Qt::ToolTipRole};
    return roles;
}

} // namespace

ClusterTreeModel::ClusterTreeModel(QObject *parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>(NodeKind::Profile, QString()))
{}

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
    m_accountNodes.clear();
    m_accounts.clear();
    m_profileDetail.clear();
    m_streamFindings.clear();
    endResetModel();
}

void ClusterTreeModel::setServers(const QList<ServerInfo> &servers)
{
    Node *group = groupNode(NodeKind::ServerGroup);
    if (!group)
        return;
    const QList<ServerInfo> sorted = ClusterGroup::sortedByCluster(servers);
    const QList<ClusterGroup> clusters = ClusterGroup::of(sorted);
    const bool grouped = clusters.size() > 1;
    // From flat rows to cluster rows or back: the rows of the other kind go first (a cluster may be
    // named like one of its servers).
    const NodeKind rowKind = grouped ? NodeKind::Cluster : NodeKind::Server;
    if (group->childCount() > 0 && group->children.front()->kind != rowKind) {
        beginRemoveRows(indexOf(group), 0, group->childCount() - 1);
        group->children.clear();
        endRemoveRows();
    }
    if (!grouped) {
        mergeServers(group, sorted);
    } else {
        mergeChildren(
            group, clusters,
            [](const ClusterGroup &c) {
                auto node = std::make_unique<Node>(NodeKind::Cluster, c.name);
                node->cluster = std::make_unique<const ClusterGroup>(c);
                return node;
            },
            [this](Node *node, const ClusterGroup &c) {
                node->cluster = std::make_unique<const ClusterGroup>(c);
                emitRowChanged(node);
            });
        for (const auto &child : group->children) {
            QList<ServerInfo> members;
            for (const ServerInfo &s : sorted)
                if (s.cluster == child->key)
                    members.append(s);
            mergeServers(child.get(), members);
        }
    }
    group->loaded = true;
    emitRowChanged(group);
}

void ClusterTreeModel::mergeServers(Node *parent, const QList<ServerInfo> &servers)
{
    mergeChildren(
        parent, servers,
        [](const ServerInfo &s) {
            auto node = std::make_unique<Node>(NodeKind::Server, serverKey(s));
            node->server = std::make_unique<const ServerInfo>(s);
            return node;
        },
        [this](Node *node, const ServerInfo &s) {
            node->server = std::make_unique<const ServerInfo>(s);
            emitRowChanged(node);
        });
}

void ClusterTreeModel::setAccounts(const QList<AccountInfo> &accounts)
{
    setAccounts(AccountRows::prepare(accounts));
}

void ClusterTreeModel::setAccounts(const AccountRows &rows)
{
    Node *group = groupNode(NodeKind::AccountGroup);
    if (!group)
        return;
    const QList<AccountInfo> &accounts = rows.accounts();
    if (group->children.empty()) {
        // The first list: every row in one insertion.
        if (!accounts.isEmpty()) {
            std::vector<std::unique_ptr<Node>> nodes;
            nodes.reserve(size_t(accounts.size()));
            for (qsizetype i = 0; i < accounts.size(); ++i)
                nodes.push_back(Node::makeAccount(accounts[i], rows.digest(i)));
            beginInsertRows(indexOf(group), 0, int(accounts.size()) - 1);
            group->children = std::move(nodes);
            group->renumber();
            indexAccounts(group);
            endInsertRows();
        }
    } else {
        QStringList oldNames;
        oldNames.reserve(group->childCount());
        for (const auto &child : group->children)
            oldNames.append(child->key);
        QStringList newNames;
        newNames.reserve(accounts.size());
        for (const AccountInfo &a : accounts)
            newNames.append(a.name);
        const AccountMergePlan plan = AccountMergePlan::make(oldNames, newNames);
        qsizetype places = plan.runCount();
        for (qsizetype i = 0; i < plan.kept.size() && places <= kMaxSignalGroups; ++i) {
            const AccountMergePlan::Kept &k = plan.kept[i];
            if (group->children[size_t(k.oldRow)]->childrenDigest != rows.digest(k.newRow))
                ++places;
        }
        if (places > kMaxSignalGroups)
            mergeAccountsInLayoutChange(group, rows, plan);
        else
            mergeAccountsByRows(group, rows, plan);
    }
    // The nodes point into this list from now on; the previous one (which kept and removed nodes
    // pointed into until here) is released (ClusterController frees its last reference on its pool).
    m_accounts = accounts;
    group->loaded = true;
    emitRowChanged(group);
}

void ClusterTreeModel::mergeAccountsByRows(Node *group, const AccountRows &rows, const AccountMergePlan &plan)
{
    const QList<AccountInfo> &accounts = rows.accounts();
    const QModelIndex groupIndex = indexOf(group);
    // The last run first, so the rows of the runs before it are still the planned ones.
    for (auto run = plan.removals.crbegin(); run != plan.removals.crend(); ++run) {
        beginRemoveRows(groupIndex, run->first, run->last);
        const auto first = group->children.begin() + run->first;
        const auto last = group->children.begin() + run->last + 1;
        for (auto it = first; it != last; ++it)
            m_accountNodes.remove((*it)->key);
        group->children.erase(first, last);
        group->renumber(size_t(run->first));
        endRemoveRows();
    }
    // The first run first: the rows before each run (staying or inserted) are then where the plan has them.
    for (const AccountMergePlan::Run &run : plan.insertions) {
        std::vector<std::unique_ptr<Node>> nodes;
        nodes.reserve(size_t(run.count()));
        for (int row = run.first; row <= run.last; ++row)
            nodes.push_back(Node::makeAccount(accounts[row], rows.digest(row)));
        beginInsertRows(groupIndex, run.first, run.last);
        for (const auto &node : nodes)
            m_accountNodes.insert(node->key, node.get());
        group->children.insert(group->children.begin() + run.first, std::make_move_iterator(nodes.begin()),
                               std::make_move_iterator(nodes.end()));
        group->renumber(size_t(run.first));
        endInsertRows();
    }
    if (plan.kept.isEmpty())
        return;
    for (const AccountMergePlan::Kept &k : plan.kept)
        updateAccountNode(group->children[size_t(k.newRow)].get(), accounts[k.newRow], rows.digest(k.newRow));
    // One range for every account row: a sorting proxy re-sorts once, not once per row.
    emit dataChanged(index(0, 0, groupIndex), index(group->childCount() - 1, ColumnCount - 1, groupIndex));
}

void ClusterTreeModel::mergeAccountsInLayoutChange(Node *group, const AccountRows &rows, const AccountMergePlan &plan)
{
    const QList<AccountInfo> &accounts = rows.accounts();
    emit layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    const QModelIndexList before = persistentIndexList();

    // Nodes that leave stay alive until the persistent indexes pointing at them are invalidated.
    std::vector<std::unique_ptr<Node>> removed;
    std::vector<std::unique_ptr<Node>> nodes(size_t(accounts.size()));
    for (const AccountMergePlan::Kept &k : plan.kept)
        nodes[size_t(k.newRow)] = std::move(group->children[size_t(k.oldRow)]);
    for (const AccountMergePlan::Run &run : plan.removals) {
        for (int row = run.first; row <= run.last; ++row) {
            m_accountNodes.remove(group->children[size_t(row)]->key);
            removed.push_back(std::move(group->children[size_t(row)]));
        }
    }
    for (const AccountMergePlan::Run &run : plan.insertions) {
        for (int row = run.first; row <= run.last; ++row) {
            nodes[size_t(row)] = Node::makeAccount(accounts[row], rows.digest(row));
            m_accountNodes.insert(nodes[size_t(row)]->key, nodes[size_t(row)].get());
        }
    }
    group->children = std::move(nodes);
    group->renumber();
    for (const AccountMergePlan::Kept &k : plan.kept)
        group->children[size_t(k.newRow)]->rebuildAccount(accounts[k.newRow], rows.digest(k.newRow), removed);

    QSet<const Node *> gone;
    for (const auto &node : removed)
        gone.insert(node.get());
    const auto alive = [&gone](const Node *node) {
        for (; node; node = node->parent)
            if (gone.contains(node))
                return false;
        return true;
    };
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex &index : before) {
        const Node *node = static_cast<const Node *>(index.internalPointer());
        after.append(alive(node) ? createIndex(node->row, index.column(), const_cast<Node *>(node)) : QModelIndex());
    }
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
}

void ClusterTreeModel::updateAccountNode(Node *node, const AccountInfo &account, size_t childrenDigest)
{
    node->account = &account;
    if (childrenDigest == node->childrenDigest) {
        // Same rows showing the same: the streams' other fields (read through streamAt()) change silently.
        node->repointStreams();
        return;
    }
    node->childrenDigest = childrenDigest;
    mergeChildren(
        node, Node::childrenOf(account),
        [node, &account](const Node::Child &c) {
            auto child = Node::makeChild(c, account);
            if (node->fullFindings && c.kind == NodeKind::Stream)
                child->health =
                    HealthBadge::worst(node->findings, [&](const Finding &f) { return f.account == account.name && f.stream == c.name; });
            return child;
        },
        [this, &account](Node *child, const Node::Child &c) {
            if (c.kind != NodeKind::Stream)
                return;
            // The old entry is still alive: the model's previous account list is released after the merge.
            const bool changed = Node::shownDifferently(*child->stream, account.streams.at(c.streamIndex));
            child->pointAt(account, c.streamIndex);
            if (changed)
                emitRowChanged(child);
        });
}

void ClusterTreeModel::setFindings(const QString &account, const FindingList &findings, const QList<CoverageGap> &gaps)
{
    Node *node = m_accountNodes.value(account);
    if (!node)
        return;
    node->fullFindings = true;
    node->findings = findings;
    node->badgeFromFindings();
    node->coverage = HealthBadge::Coverage::Full;
    node->coverageWhy.clear();
    for (const CoverageGap &g : gaps)
        if (g.leavesVerdictOpen() && g.account == account) {
            node->coverage = HealthBadge::Coverage::CouldNotCheck;
            node->coverageWhy = g.reason;
            break;
        }
    emitRowChanged(node);
    if (!node->children.empty()) {
        const QModelIndex parent = indexOf(node);
        emit dataChanged(index(0, 0, parent), index(node->childCount() - 1, ColumnCount - 1, parent), healthRoles());
    }
}

FindingList ClusterTreeModel::allFindings() const
{
    QList<Finding> out;
    QList<MissingConsumerFindings> apart;
    for (const Finding &f : m_streamFindings) {
        const Node *node = m_accountNodes.value(f.account);
        if (f.account.isEmpty() || (node && !node->fullFindings))
            out.append(f);
    }
    for (const Node *node : m_accountNodes)
        if (node->fullFindings) {
            for (const Finding &f : node->findings.listed())
                if (f.account == node->key)
                    out.append(f);
            for (const MissingConsumerFindings &m : node->findings.apart())
                if (m.summaryAt(0).account == node->key)
                    apart.append(m); // shared: neither the references nor the records are copied
        }
    Checks::sortFindings(out);
    return FindingList(std::move(out), std::move(apart));
}

QHash<HealthBadge::Coverage, int> ClusterTreeModel::coverageCounts() const
{
    QHash<HealthBadge::Coverage, int> counts;
    for (const Node *node : m_accountNodes)
        if (node->health != HealthBadge::Health::Unknown)
            ++counts[node->coverage];
    return counts;
}

void ClusterTreeModel::setCoverage(const QString &account, HealthBadge::Coverage coverage, const QString &why)
{
    Node *node = m_accountNodes.value(account);
    if (!node || node->fullFindings || (node->coverage == coverage && node->coverageWhy == why))
        return;
    node->coverage = coverage;
    node->coverageWhy = why;
    emitRowChanged(node);
}

namespace {

// What a stream-level badge of the account covers: everything, unless it has session records to read.
HealthBadge::Coverage systemViewCoverage(const AccountInfo &account)
{
    const bool records = account.jetstream && std::any_of(account.streams.cbegin(), account.streams.cend(), [](const StreamInfo &s) {
                             return s.name == MqttLayout::sessionsStream();
                         });
    return records ? HealthBadge::Coverage::StreamsOnly : HealthBadge::Coverage::Full;
}

} // namespace

void ClusterTreeModel::applyHealth(const HealthMap &health)
{
    m_streamFindings = health.findings();
    Node *group = groupNode(NodeKind::AccountGroup);
    if (!group || group->children.empty())
        return;
    // First what changes, then the change: a layout change must be announced before anything moves.
    std::vector<HealthBadge::Health> next;
    next.reserve(group->children.size() * 2);
    int firstAccount = -1;
    int lastAccount = -1;
    std::vector<Node *> streamParents;
    for (const auto &account : group->children) {
        if (account->fullFindings)
            continue;
        const HealthMap::Account *entry = health.find(account->key);
        const HealthBadge::Health a = entry ? entry->health : HealthBadge::Health::Unknown;
        next.push_back(a);
        const HealthBadge::Coverage coverage =
            entry && account->account ? systemViewCoverage(*account->account) : HealthBadge::Coverage::Full;
        // A sweep's answer (being read, not readable) stands until that account's findings arrive.
        const bool sweepSaid = !account->coverageWhy.isEmpty() || account->coverage == HealthBadge::Coverage::Checking;
        const bool coverageChanges = coverage != account->coverage && !sweepSaid;
        if (coverageChanges)
            account->coverage = coverage;
        if (a != account->health || coverageChanges) {
            if (firstAccount < 0)
                firstAccount = account->row;
            lastAccount = account->row;
        }
        bool streamsChange = false;
        for (const auto &child : account->children) {
            if (child->kind != NodeKind::Stream)
                continue;
            const HealthBadge::Health s = entry ? entry->stream(child->key) : HealthBadge::Health::Unknown;
            next.push_back(s);
            streamsChange = streamsChange || s != child->health;
        }
        if (streamsChange)
            streamParents.push_back(account.get());
    }
    const bool inLayoutChange = qsizetype(streamParents.size()) > kMaxSignalGroups;
    if (inLayoutChange)
        emit layoutAboutToBeChanged({}, QAbstractItemModel::NoLayoutChangeHint);
    auto value = next.cbegin();
    for (const auto &account : group->children) {
        if (account->fullFindings)
            continue;
        account->health = *value++;
        for (const auto &child : account->children)
            if (child->kind == NodeKind::Stream)
                child->health = *value++;
    }
    if (inLayoutChange) {
        emit layoutChanged({}, QAbstractItemModel::NoLayoutChangeHint);
        return;
    }
    const QModelIndex groupIndex = indexOf(group);
    if (firstAccount >= 0)
        emit dataChanged(index(firstAccount, 0, groupIndex), index(lastAccount, ColumnCount - 1, groupIndex), healthRoles());
    for (const Node *account : streamParents) {
        const QModelIndex parent = indexOf(account);
        emit dataChanged(index(0, 0, parent), index(account->childCount() - 1, ColumnCount - 1, parent), healthRoles());
    }
}

// Brings parent's children in line with items (same keys, same order) with the smallest set of
// row removals, insertions and moves; existing rows are updated in place. For short lists only (the
// servers, an account's children): each step renumbers and signals on its own.
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
    return indexOf(m_accountNodes.value(name));
}

QModelIndex ClusterTreeModel::streamIndex(const QString &account, const QString &stream) const
{
    const Node *node = m_accountNodes.value(account);
    if (!node)
        return {};
    for (const auto &child : node->children)
        if (child->kind == NodeKind::Stream && child->key == stream)
            return indexOf(child.get());
    return {};
}

QModelIndex ClusterTreeModel::dataIndex(const QString &account, NodeKind kind) const
{
    const Node *node = m_accountNodes.value(account);
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

const ClusterGroup *ClusterTreeModel::clusterAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->cluster.get() : nullptr;
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
        for (const auto &child : group->children) {
            if (child->kind == NodeKind::Server)
                out.append(*child->as<ServerInfo>());
            else
                for (const auto &server : child->children)
                    out.append(*server->as<ServerInfo>());
        }
    return out;
}

QList<ClusterGroup> ClusterTreeModel::clusters() const
{
    QList<ClusterGroup> out;
    if (const Node *group = groupNode(NodeKind::ServerGroup))
        for (const auto &child : group->children)
            if (child->cluster)
                out.append(*child->cluster);
    return out;
}

QList<AccountInfo> ClusterTreeModel::accounts() const
{
    return m_accounts;
}

int ClusterTreeModel::accountCount() const
{
    const Node *group = groupNode(NodeKind::AccountGroup);
    return group ? group->childCount() : 0;
}

int ClusterTreeModel::jetStreamAccountCount() const
{
    int count = 0;
    for (const AccountInfo &a : m_accounts)
        count += a.jetstream ? 1 : 0;
    return count;
}

ClusterTreeModel::NodeKind ClusterTreeModel::kindAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->kind : NodeKind::Profile;
}

QString ClusterTreeModel::nameAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->key : QString();
}

HealthBadge::Health ClusterTreeModel::healthAt(const QModelIndex &index) const
{
    const Node *node = nodeAt(index);
    return node ? node->health : HealthBadge::Health::Unknown;
}

void ClusterTreeModel::indexAccounts(const Node *group)
{
    m_accountNodes.clear();
    m_accountNodes.reserve(group->childCount());
    for (const auto &child : group->children)
        m_accountNodes.insert(child->key, child.get());
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
    const Node *node = nodeAt(index);
    if (!node)
        return Qt::NoItemFlags;
    switch (node->kind) {
    case NodeKind::Server:
    case NodeKind::Stream:
    case NodeKind::Sessions:
    case NodeKind::Retained:
    case NodeKind::Consumers:
        // Leaves: a tree view then never asks whether 10,000 of them have children.
        return Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
    default: return Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    }
}

QVariant ClusterTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn: return tr("Name");
    case SummaryColumn: return tr("Status");
    default: return {};
    }
}

QVariant ClusterTreeModel::data(const QModelIndex &index, int role) const
{
    const Node *node = nodeAt(index);
    if (!node)
        return {};
    switch (role) {
    case Qt::DisplayRole: return m_display.text(node, index.column(), m_profileDetail);
    case Qt::ToolTipRole: return m_display.toolTip(node, m_profileDetail);
    case Qt::DecorationRole:
        if (index.column() == NameColumn)
            return m_display.icon(node);
        if (index.column() == SummaryColumn
            && (node->health != HealthBadge::Health::Unknown || node->coverage != HealthBadge::Coverage::Full)) {
            return m_display.badge(node->health, node->coverage);
        }
        return {};
    case HealthRole:
        if (node->kind == NodeKind::Account || node->kind == NodeKind::Stream)
            return QVariant::fromValue(node->health);
        return {};
    case CoverageRole:
        if (node->kind == NodeKind::Account)
            return QVariant::fromValue(node->coverage);
        return {};
    case Qt::FontRole:
        if (node->kind == NodeKind::Profile || node->kind == NodeKind::ServerGroup || node->kind == NodeKind::AccountGroup) {
            QFont font;
            font.setBold(true);
            return font;
        }
        if (node->kind == NodeKind::Cluster && !node->cluster->problem.isEmpty()) {
            QFont font;
            font.setItalic(true);
            return font;
        }
        return {};
    case NodeKindRole: return QVariant::fromValue(node->kind);
    case NameRole: return node->key;
    case AccountNameRole:
        if (node->kind != NodeKind::Profile && node->kind != NodeKind::Server && node->kind != NodeKind::ServerGroup
            && node->kind != NodeKind::AccountGroup && node->kind != NodeKind::Cluster)
            return node->accountName();
        return {};
    case JetStreamRole:
        if (const AccountInfo *a = node->as<AccountInfo>()) {
            const JetStreamState state = !a->jetstreamKnown ? JetStreamState::Unknown
                : a->jetstream                              ? JetStreamState::Enabled
                                                            : JetStreamState::Disabled;
            return QVariant::fromValue(state);
        }
        return {};
    case MessagesRole:
        if (const StreamInfo *s = node->as<StreamInfo>())
            return DisplayFormat::messages(*s);
        return {};
    case LegacyRole:
        if (const StreamInfo *s = node->as<StreamInfo>())
            return s->isLegacySession();
        return {};
    case ServerRole:
        if (const ServerInfo *s = node->as<ServerInfo>())
            return QVariant::fromValue(*s);
        return {};
    case ClusterRole:
        if (node->cluster)
            return QVariant::fromValue(*node->cluster);
        return {};
    case AccountRole:
        if (const AccountInfo *a = node->as<AccountInfo>())
            return QVariant::fromValue(*a);
        return {};
    default: return {};
    }
}

} // namespace MqttDoctor
