#include "clustertreemodel.h"

#include <QFont>

#include "models/clustertreenode.h"
#include "models/displayformat.h"
#include "models/iconfactory.h"

// How the tree's nodes look: the roles views read, the display text, tooltips and icons. The
// structure (merging rows by name, indexes) is in clustertreemodel.cpp.

namespace MqttDoctor {

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
        if (index.column() == SummaryColumn && (node->health != HealthBadge::Health::Unknown || node->coverage != HealthBadge::Coverage::Full)) {
            const int key = 1000 + int(node->health) + 100 * int(node->coverage);
            auto it = m_icons.find(key);
            if (it == m_icons.end())
                it = m_icons.emplace(key, HealthBadge::icon(node->health, node->coverage)).first;
            return it->second;
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
    case NodeKindRole:
        return QVariant::fromValue(node->kind);
    case NameRole:
        return node->key;
    case AccountNameRole:
        if (node->kind != NodeKind::Profile && node->kind != NodeKind::Server && node->kind != NodeKind::ServerGroup
            && node->kind != NodeKind::AccountGroup && node->kind != NodeKind::Cluster)
            return node->accountName();
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
    case ClusterRole:
        if (node->cluster)
            return QVariant::fromValue(*node->cluster);
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
        if (!node->loaded)
            return tr("not loaded");
        {
            // Grouped by cluster: count the servers, not the cluster rows.
            int servers = 0;
            for (const auto &child : node->children)
                servers += child->kind == NodeKind::Cluster ? child->childCount() : 1;
            return DisplayFormat::serverCount(servers);
        }
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
    case NodeKind::Cluster: {
        const ClusterGroup &c = *node->cluster;
        if (column == NameColumn)
            return c.name.isEmpty() ? tr("Not clustered") : tr("Cluster %1").arg(c.name);
        if (!c.problem.isEmpty())
            return tr("unreachable");
        QStringList parts{DisplayFormat::serverCount(int(c.servers.size()))};
        if (!c.gateways.isEmpty())
            parts << tr("gateways to %1").arg(c.gateways.join(QStringLiteral(", ")));
        return parts.join(QStringLiteral(" · "));
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
        QString tip = tr("Account %1: JetStream %2").arg(node->key, DisplayFormat::jetStreamState(a));
        if (const QString place = DisplayFormat::mqttStatePlace(a); !place.isEmpty())
            tip += QLatin1Char('\n') + tr("MQTT state in: %1").arg(place);
        if (node->health != HealthBadge::Health::Unknown) {
            tip += QLatin1Char('\n') + tr("Health: %1").arg(HealthBadge::name(node->health)) + QLatin1Char('\n')
                   + HealthBadge::coverageText(node->coverage);
            if (!node->coverageWhy.isEmpty())
                tip += QStringLiteral(": ") + node->coverageWhy;
        }
        return tip;
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
        return tr("The MQTT sessions of %1 ($MQTT_sess records)").arg(node->accountName());
    case NodeKind::Retained:
        return tr("The retained MQTT messages of %1 ($MQTT_rmsgs)").arg(node->accountName());
    case NodeKind::Consumers:
        return tr("The consumers of %1's $MQTT_msgs and $MQTT_out, with their owner sessions").arg(node->accountName());
    case NodeKind::Cluster: {
        const ClusterGroup &c = *node->cluster;
        if (!c.problem.isEmpty())
            return QString(c.problem + QLatin1Char('.'));
        QString tip = c.name.isEmpty() ? tr("Servers outside any cluster: %1").arg(c.servers.join(QStringLiteral(", ")))
                                       : tr("Cluster %1: %2").arg(c.name, c.servers.join(QStringLiteral(", ")));
        if (!c.gateways.isEmpty())
            tip += QLatin1Char('\n') + tr("Gateways to %1").arg(c.gateways.join(QStringLiteral(", ")));
        return tip;
    }
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
    case NodeKind::Cluster: kind = IconFactory::Kind::Cluster; break;
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
