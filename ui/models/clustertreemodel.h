#pragma once

#include <map>
#include <memory>

#include <QAbstractItemModel>
#include <QIcon>
#include <QList>

#include "diagnosis/finding.h"
#include "models/healthbadge.h"
#include "nats/clusterinfo.h"

namespace MqttDoctor {

/**
 * The cluster as a tree: the profile at the top, then "Servers" (one row per server) and
 * "Accounts" (one row per account; under an account with MQTT streams those streams `$MQTT_*`, then
 * "Sessions", "Retained" and "Consumers", the record views). setFindings() gives the streams (and the
 * account) a health badge: the worst severity of their findings.
 * Filled from Discovery results; setServers()/setAccounts() merge by name (rows are inserted,
 * removed, moved and changed, never reset), so selection and expansion survive a refresh.
 * Views read the typed roles, never display strings. GUI thread only.
 */
class ClusterTreeModel final : public QAbstractItemModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ClusterTreeModel)

public:
    enum Column { NameColumn, SummaryColumn, ColumnCount };

    enum class NodeKind { Profile, ServerGroup, AccountGroup, Server, Account, Stream, Sessions, Retained, Consumers };
    Q_ENUM(NodeKind)

    enum class JetStreamState { Unknown, Enabled, Disabled };
    Q_ENUM(JetStreamState)

    enum Role {
        NodeKindRole = Qt::UserRole + 1, ///< NodeKind
        NameRole,                        ///< the raw name (server, account, stream; profile name)
        AccountNameRole,                 ///< accounts and streams: the account's name
        JetStreamRole,                   ///< accounts: JetStreamState
        MessagesRole,                    ///< streams: qint64 message count
        LegacyRole,                      ///< streams: bool, a legacy `$MQTT_sess_*` stream
        ServerRole,                      ///< servers: ServerInfo
        AccountRole,                     ///< accounts: AccountInfo
        HealthRole,                      ///< accounts and streams: HealthBadge::Health (Unknown before setFindings)
    };

    explicit ClusterTreeModel(QObject *parent = nullptr);
    ~ClusterTreeModel() override;

    /** Shows the profile row (with empty groups the first time); detail is e.g. the server URLs. */
    void setProfile(const QString &name, const QString &detail);
    /** Removes everything (no profile). */
    void clear();
    void setServers(const QList<ServerInfo> &servers);
    void setAccounts(const QList<AccountInfo> &accounts);
    /** The account's findings: badges for its streams (worst severity of each) and for the account. */
    void setFindings(const QString &account, const QList<Finding> &findings);

    QModelIndex profileIndex() const;
    QModelIndex serverGroupIndex() const;
    QModelIndex accountGroupIndex() const;
    QModelIndex accountIndex(const QString &name) const;
    QModelIndex streamIndex(const QString &account, const QString &stream) const;
    /** The account's "Sessions", "Retained" or "Consumers" node (invalid for other kinds or none). */
    QModelIndex dataIndex(const QString &account, NodeKind kind) const;

    /** The payloads behind an index (nullptr when it is not that kind). */
    const ServerInfo *serverAt(const QModelIndex &index) const;
    const AccountInfo *accountAt(const QModelIndex &index) const;
    const StreamInfo *streamAt(const QModelIndex &index) const;
    QList<ServerInfo> servers() const;
    QList<AccountInfo> accounts() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

private:
    struct Node;
    struct AccountChild;

    Node *nodeAt(const QModelIndex &index) const;
    QModelIndex indexOf(const Node *node, int column = 0) const;
    Node *groupNode(NodeKind kind) const;
    void emitRowChanged(const Node *node);
    template<typename Info, typename Make, typename Update>
    void mergeChildren(Node *parent, const QList<Info> &items, Make make, Update update);
    std::unique_ptr<Node> makeAccountNode(const AccountInfo &account) const;
    void updateAccountNode(Node *node, const AccountInfo &account);
    /** Streams, then the record views when the account has MQTT streams. */
    static QList<AccountChild> accountChildren(const AccountInfo &account);
    static std::unique_ptr<Node> makeAccountChild(const AccountChild &child, const QString &accountName);

    QVariant displayData(const Node *node, int column) const;
    QVariant toolTip(const Node *node) const;
    QIcon icon(const Node *node) const;

    std::unique_ptr<Node> m_root;
    QString m_profileDetail;
    mutable std::map<int, QIcon> m_icons; ///< painted on first use (needs the GUI application)
};

} // namespace MqttDoctor
