#pragma once

#include <QIcon>
#include <QString>
#include <QVariant>

#include <map>

#include "models/healthbadge.h"

namespace MqttDoctor {

struct ClusterTreeNode;

/**
 * How the cluster tree's nodes look: each node's text per column, its tooltip, its icon and its health
 * badge. ClusterTreeModel keeps the structure (nodes merged by name, indexes) and asks this for what a
 * view shows. GUI thread only (icons are painted on first use, which needs the GUI application).
 */
class ClusterTreeDisplay final
{
public:
    /** The text of `column` (ClusterTreeModel's columns); `profileDetail` is the profile row's summary. */
    QVariant text(const ClusterTreeNode *node, int column, const QString &profileDetail) const;
    QVariant toolTip(const ClusterTreeNode *node, const QString &profileDetail) const;
    QIcon icon(const ClusterTreeNode *node) const;
    /** The summary column's health dot, ring or crossed ring. */
    QIcon badge(HealthBadge::Health health, HealthBadge::Coverage coverage) const;

private:
    mutable std::map<int, QIcon> m_icons; ///< painted on first use
};

} // namespace MqttDoctor
