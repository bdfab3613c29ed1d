#include "models/clustertreedisplay.h"

#include "models/clustertreemodel.h"
#include "models/clustertreenode.h"
#include "models/displayformat.h"
#include "models/iconfactory.h"

namespace MqttDoctor {

QVariant ClusterTreeDisplay::text(const ClusterTreeNode *node, int column, const QString &profileDetail) const
{
    switch (node->kind) {
    case ClusterTreeModel::NodeKind::Profile:
        if (column == ClusterTreeModel::NameColumn)
            return node->key.isEmpty() ? ClusterTreeModel::tr("Cluster") : node->key;
        return profileDetail;
    case ClusterTreeModel::NodeKind::ServerGroup:
        if (column == ClusterTreeModel::NameColumn)
            return ClusterTreeModel::tr("Servers");
        if (!node->loaded)
            return ClusterTreeModel::tr("not loaded");
        {
            // Grouped by cluster: count the servers, not the cluster rows.
            int servers = 0;
            for (const auto &child : node->children)
                servers += child->kind == ClusterTreeModel::NodeKind::Cluster ? child->childCount() : 1;
            return DisplayFormat::serverCount(servers);
        }
    case ClusterTreeModel::NodeKind::AccountGroup:
        if (column == ClusterTreeModel::NameColumn)
            return ClusterTreeModel::tr("Accounts");
        return node->loaded ? DisplayFormat::accountCount(node->childCount()) : ClusterTreeModel::tr("not loaded");
    case ClusterTreeModel::NodeKind::Server: {
        const ServerInfo &s = *node->as<ServerInfo>();
        if (column == ClusterTreeModel::NameColumn)
            return node->key.isEmpty() ? ClusterTreeModel::tr("(unnamed server)") : node->key;
        QStringList parts;
        if (!s.version.isEmpty())
            parts << s.version;
        parts << (s.jetstream ? ClusterTreeModel::tr("JetStream") : ClusterTreeModel::tr("no JetStream"));
        if (s.mqttKnown)
            parts << (s.mqttPort > 0 ? ClusterTreeModel::tr("MQTT :%1").arg(s.mqttPort) : ClusterTreeModel::tr("no MQTT"));
        return parts.join(QStringLiteral(" · "));
    }
    case ClusterTreeModel::NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        if (column == ClusterTreeModel::NameColumn)
            return node->key.isEmpty() ? ClusterTreeModel::tr("(connected user's account)") : node->key;
        QStringList parts;
        if (a.isSystem) {
            // JetStream is off for the system account by design: not worth a word in the tree.
            if (!a.jetstream)
                return ClusterTreeModel::tr("system account");
            parts << ClusterTreeModel::tr("system account");
        }
        if (!a.jetstreamKnown)
            parts << ClusterTreeModel::tr("JetStream unknown");
        else if (!a.jetstream)
            parts << ClusterTreeModel::tr("JetStream disabled");
        else if (a.streamsKnown)
            parts << ClusterTreeModel::tr("JetStream") << DisplayFormat::mqttStreamCount(a.mqttStreams().size());
        else
            parts << ClusterTreeModel::tr("JetStream enabled");
        return parts.join(QStringLiteral(" · "));
    }
    case ClusterTreeModel::NodeKind::Stream: {
        const StreamInfo &s = *node->as<StreamInfo>();
        if (column == ClusterTreeModel::NameColumn)
            return node->key;
        const QString count = DisplayFormat::messageCount(DisplayFormat::messages(s));
        return s.isLegacySession() ? ClusterTreeModel::tr("legacy · %1").arg(count) : count;
    }
    case ClusterTreeModel::NodeKind::Cluster: {
        const ClusterGroup &c = *node->cluster;
        if (column == ClusterTreeModel::NameColumn)
            return c.name.isEmpty() ? ClusterTreeModel::tr("Not clustered") : ClusterTreeModel::tr("Cluster %1").arg(c.name);
        if (!c.problem.isEmpty())
            return ClusterTreeModel::tr("unreachable");
        QStringList parts{DisplayFormat::serverCount(int(c.servers.size()))};
        if (!c.gateways.isEmpty())
            parts << ClusterTreeModel::tr("gateways to %1").arg(c.gateways.join(QStringLiteral(", ")));
        return parts.join(QStringLiteral(" · "));
    }
    case ClusterTreeModel::NodeKind::Sessions:
        return column == ClusterTreeModel::NameColumn ? ClusterTreeModel::tr("Sessions") : QVariant();
    case ClusterTreeModel::NodeKind::Retained:
        return column == ClusterTreeModel::NameColumn ? ClusterTreeModel::tr("Retained") : QVariant();
    case ClusterTreeModel::NodeKind::Consumers:
        return column == ClusterTreeModel::NameColumn ? ClusterTreeModel::tr("Consumers") : QVariant();
    }
    return {};
}

QVariant ClusterTreeDisplay::toolTip(const ClusterTreeNode *node, const QString &profileDetail) const
{
    switch (node->kind) {
    case ClusterTreeModel::NodeKind::Profile: return ClusterTreeModel::tr("Profile %1: %2").arg(node->key, profileDetail);
    case ClusterTreeModel::NodeKind::Server: {
        const ServerInfo &s = *node->as<ServerInfo>();
        return ClusterTreeModel::tr("%1\nID: %2\nnats-server %3\nMQTT listener: %4")
            .arg(node->key, s.id.isEmpty() ? ClusterTreeModel::tr("unknown") : s.id,
                 s.version.isEmpty() ? ClusterTreeModel::tr("(version unknown)") : s.version, DisplayFormat::mqttListener(s));
    }
    case ClusterTreeModel::NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        if (a.jetstreamKnown && !a.jetstream)
            return ClusterTreeModel::tr("JetStream is disabled for %1: MQTT clients of this account cannot connect, because "
                                        "nats-server keeps MQTT state in JetStream.")
                .arg(node->key);
        QString tip = ClusterTreeModel::tr("Account %1: JetStream %2").arg(node->key, DisplayFormat::jetStreamState(a));
        if (const QString place = DisplayFormat::mqttStatePlace(a); !place.isEmpty())
            tip += QLatin1Char('\n') + ClusterTreeModel::tr("MQTT state in: %1").arg(place);
        if (node->health != HealthBadge::Health::Unknown) {
            tip += QLatin1Char('\n') + ClusterTreeModel::tr("Health: %1").arg(HealthBadge::name(node->health)) + QLatin1Char('\n')
                + HealthBadge::coverageText(node->coverage);
            if (!node->coverageWhy.isEmpty())
                tip += QStringLiteral(": ") + node->coverageWhy;
        }
        return tip;
    }
    case ClusterTreeModel::NodeKind::Stream: {
        const StreamInfo &s = *node->as<StreamInfo>();
        QString tip = ClusterTreeModel::tr("%1\nSubjects: %2\n%3")
                          .arg(s.name, DisplayFormat::subjects(s), DisplayFormat::messageCount(DisplayFormat::messages(s)));
        if (s.isLegacySession())
            tip += QLatin1Char('\n') + DisplayFormat::legacySessionStreamNote();
        if (node->health != HealthBadge::Health::Unknown)
            tip += QLatin1Char('\n') + ClusterTreeModel::tr("Health: %1").arg(HealthBadge::name(node->health));
        return tip;
    }
    case ClusterTreeModel::NodeKind::Sessions:
        return ClusterTreeModel::tr("The MQTT sessions of %1 ($MQTT_sess records)").arg(node->accountName());
    case ClusterTreeModel::NodeKind::Retained:
        return ClusterTreeModel::tr("The retained MQTT messages of %1 ($MQTT_rmsgs)").arg(node->accountName());
    case ClusterTreeModel::NodeKind::Consumers:
        return ClusterTreeModel::tr("The consumers of %1's $MQTT_msgs and $MQTT_out, with their owner sessions").arg(node->accountName());
    case ClusterTreeModel::NodeKind::Cluster: {
        const ClusterGroup &c = *node->cluster;
        if (!c.problem.isEmpty())
            return QString(c.problem + QLatin1Char('.'));
        QString tip = c.name.isEmpty() ? ClusterTreeModel::tr("Servers outside any cluster: %1").arg(c.servers.join(QStringLiteral(", ")))
                                       : ClusterTreeModel::tr("Cluster %1: %2").arg(c.name, c.servers.join(QStringLiteral(", ")));
        if (!c.gateways.isEmpty())
            tip += QLatin1Char('\n') + ClusterTreeModel::tr("Gateways to %1").arg(c.gateways.join(QStringLiteral(", ")));
        return tip;
    }
    case ClusterTreeModel::NodeKind::ServerGroup:
    case ClusterTreeModel::NodeKind::AccountGroup: return {};
    }
    return {};
}

QIcon ClusterTreeDisplay::icon(const ClusterTreeNode *node) const
{
    IconFactory::Kind kind = IconFactory::Kind::Cluster;
    switch (node->kind) {
    case ClusterTreeModel::NodeKind::Profile: kind = IconFactory::Kind::Cluster; break;
    case ClusterTreeModel::NodeKind::ServerGroup:
    case ClusterTreeModel::NodeKind::Server: kind = IconFactory::Kind::Server; break;
    case ClusterTreeModel::NodeKind::Cluster: kind = IconFactory::Kind::Cluster; break;
    case ClusterTreeModel::NodeKind::AccountGroup: kind = IconFactory::Kind::Account; break;
    case ClusterTreeModel::NodeKind::Account: {
        const AccountInfo &a = *node->as<AccountInfo>();
        kind = (a.jetstreamKnown && !a.jetstream) ? IconFactory::Kind::AccountWithoutJetStream : IconFactory::Kind::Account;
        break;
    }
    case ClusterTreeModel::NodeKind::Stream:
        kind = node->as<StreamInfo>()->isLegacySession() ? IconFactory::Kind::LegacyStream : IconFactory::Kind::Stream;
        break;
    case ClusterTreeModel::NodeKind::Sessions: kind = IconFactory::Kind::Sessions; break;
    case ClusterTreeModel::NodeKind::Retained: kind = IconFactory::Kind::Retained; break;
    case ClusterTreeModel::NodeKind::Consumers: kind = IconFactory::Kind::Consumers; break;
    }
    auto it = m_icons.find(int(kind));
    if (it == m_icons.end())
        it = m_icons.emplace(int(kind), IconFactory::icon(kind)).first;
    return it->second;
}

QIcon ClusterTreeDisplay::badge(HealthBadge::Health health, HealthBadge::Coverage coverage) const
{
    const int key = 1000 + int(health) + 100 * int(coverage);
    auto it = m_icons.find(key);
    if (it == m_icons.end())
        it = m_icons.emplace(key, HealthBadge::icon(health, coverage)).first;
    return it->second;
}

} // namespace MqttDoctor
