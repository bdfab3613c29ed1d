#include "clustertreemodel.h"

#include <variant>
#include <vector>

#include <QFont>
#include <QSet>

#include "models/displayformat.h"
#include "models/iconfactory.h"

namespace MqttDoctor {

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

    void renumber()
    {
        for (size_t i = 0; i < children.size(); ++i) {
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
    case Qt::DisplayRole:
        return displayData(node, index.column());
    case Qt::ToolTipRole:
        return toolTip(node);
    case Qt::DecorationRole:
        if (index.column() == NameColumn)
            return icon(node);
        if (index.column() == SummaryColumn && node->health != HealthBadge::Health::Unknown) {
            auto it = m_icons.find(1000 + int(node->health));
            if (it == m_icons.end())
                it = m_icons.emplace(1000 + int(node->health), HealthBadge::icon(node->health)).first;
            return it->second;
        }
        return {};
    case HealthRole:
        if (node->kind == NodeKind::Account || node->kind == NodeKind::Stream)
            return QVariant::fromValue(node->health);
        return {};
    case Qt::FontRole:
        if (node->kind == NodeKind::Profile || node->kind == NodeKind::ServerGroup || node->kind == NodeKind::AccountGroup) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case NodeKindRole:
        return QVariant::fromValue(node->kind);
    case NameRole:
        return node->key;
    case AccountNameRole:
        if (node->kind != NodeKind::Profile && node->kind != NodeKind::Server && node->kind != NodeKind::ServerGroup
            && node->kind != NodeKind::AccountGroup)
            return node->accountName;
        return {};
    case JetStreamRole:
        if (const AccountInfo *a = node->as<AccountInfo>()) {
            const JetStreamState state = !a->jetstreamKnown ? JetStreamState::Unknown
                                         : a->jetstream      ? JetStreamState::Enabled
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
    case AccountRole:
        if (const AccountInfo *a = node->as<AccountInfo>())
            return QVariant::fromValue(*a);
        return {};
    default:
        return {};
    }
}

QVariant ClusterTreeModel::displayData(const Node *node, int column) const
{
    switch (node->kind) {
    case NodeKind::Profile:
        if (column == NameColumn)
            return node->key.isEmpty() ? tr("Cluster") : node->key;
        return m_profileDetail;
    case NodeKind::ServerGroup:
        if (column == NameColumn)
            return tr("Servers");
        return node->loaded ? DisplayFormat::serverCount(node->childCount()) : tr("not loaded");
    case NodeKind::AccountGroup:
        if (column == NameColumn)
            return tr("Accounts");
        return node->loaded ? DisplayFormat::accountCount(node->childCount()) : tr("not loaded");
    case NodeKind::Server: {
        const ServerInfo &s = *node->as<ServerInfo>();
        if (column == NameColumn)
            return node->key.isEmpty() ? tr("(unnamed server)") : node->key;
        QStringList parts;
        if (!s.version.isEmpty())
            parts << s.version;
        parts << (s.jetstream ? tr("JetStream") : tr("no JetStream"));
        if (s.mqttKnown)
            parts << (s.mqttPort > 0 ? tr("MQTT :%1").arg(s.mqttPort) : tr("no MQTT"));
        return parts.join(QStringLiteral(" · "));
    }
    case NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        if (column == NameColumn)
            return node->key.isEmpty() ? tr("(connected user's account)") : node->key;
        QStringList parts;
        if (a.isSystem) {
            // JetStream is off for the system account by design: not worth a word in the tree.
            if (!a.jetstream)
                return tr("system account");
            parts << tr("system account");
        }
        if (!a.jetstreamKnown)
            parts << tr("JetStream unknown");
        else if (!a.jetstream)
            parts << tr("JetStream disabled");
        else if (a.streamsKnown)
            parts << tr("JetStream") << DisplayFormat::mqttStreamCount(a.mqttStreams().size());
        else
            parts << tr("JetStream enabled");
        return parts.join(QStringLiteral(" · "));
    }
    case NodeKind::Stream: {
        const StreamInfo &s = *node->as<StreamInfo>();
        if (column == NameColumn)
            return node->key;
        const QString count = DisplayFormat::messageCount(DisplayFormat::messages(s));
        return s.isLegacySession() ? tr("legacy · %1").arg(count) : count;
    }
    case NodeKind::Sessions:
        return column == NameColumn ? tr("Sessions") : QVariant();
    case NodeKind::Retained:
        return column == NameColumn ? tr("Retained") : QVariant();
    case NodeKind::Consumers:
        return column == NameColumn ? tr("Consumers") : QVariant();
    }
    return {};
}

QVariant ClusterTreeModel::toolTip(const Node *node) const
{
    switch (node->kind) {
    case NodeKind::Profile:
        return tr("Profile %1: %2").arg(node->key, m_profileDetail);
    case NodeKind::Server: {
        const ServerInfo &s = *node->as<ServerInfo>();
        return tr("%1\nID: %2\nnats-server %3\nMQTT listener: %4")
            .arg(node->key, s.id.isEmpty() ? tr("unknown") : s.id, s.version.isEmpty() ? tr("(version unknown)") : s.version,
                 DisplayFormat::mqttListener(s));
    }
    case NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        if (a.jetstreamKnown && !a.jetstream)
            return tr("JetStream is disabled for %1: MQTT clients of this account cannot connect, because "
                      "nats-server keeps MQTT state in JetStream.").arg(node->key);
        return tr("Account %1: JetStream %2").arg(node->key, DisplayFormat::jetStreamState(a));
    }
    case NodeKind::Stream: {
        const StreamInfo &s = *node->as<StreamInfo>();
        QString tip = tr("%1\nSubjects: %2\n%3").arg(s.name, DisplayFormat::subjects(s),
                                                     DisplayFormat::messageCount(DisplayFormat::messages(s)));
        if (s.isLegacySession())
            tip += QLatin1Char('\n') + DisplayFormat::legacySessionStreamNote();
        if (node->health != HealthBadge::Health::Unknown)
            tip += QLatin1Char('\n') + tr("Health: %1").arg(HealthBadge::name(node->health));
        return tip;
    }
    case NodeKind::Sessions:
        return tr("The MQTT sessions of %1 ($MQTT_sess records)").arg(node->accountName);
    case NodeKind::Retained:
        return tr("The retained MQTT messages of %1 ($MQTT_rmsgs)").arg(node->accountName);
    case NodeKind::Consumers:
        return tr("The consumers of %1's $MQTT_msgs and $MQTT_out, with their owner sessions").arg(node->accountName);
    case NodeKind::ServerGroup:
    case NodeKind::AccountGroup:
        return {};
    }
    return {};
}

QIcon ClusterTreeModel::icon(const Node *node) const
{
    IconFactory::Kind kind = IconFactory::Kind::Cluster;
    switch (node->kind) {
    case NodeKind::Profile: kind = IconFactory::Kind::Cluster; break;
    case NodeKind::ServerGroup:
    case NodeKind::Server: kind = IconFactory::Kind::Server; break;
    case NodeKind::AccountGroup: kind = IconFactory::Kind::Account; break;
    case NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        kind = (a.jetstreamKnown && !a.jetstream) ? IconFactory::Kind::AccountWithoutJetStream : IconFactory::Kind::Account;
        break;
    }
    case NodeKind::Stream:
        kind = node->as<StreamInfo>()->isLegacySession() ? IconFactory::Kind::LegacyStream : IconFactory::Kind::Stream;
        break;
    case NodeKind::Sessions: kind = IconFactory::Kind::Sessions; break;
    case NodeKind::Retained: kind = IconFactory::Kind::Retained; break;
    case NodeKind::Consumers: kind = IconFactory::Kind::Consumers; break;
    }
    auto it = m_icons.find(int(kind));
    if (it == m_icons.end())
        it = m_icons.emplace(int(kind), IconFactory::icon(kind)).first;
    return it->second;
}

} // namespace MqttDoctor
