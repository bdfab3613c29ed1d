#pragma once

#include <QString>

#include "models/healthbadge.h"

namespace MqttDoctor {

/**
 * The orders the cluster tree offers for its accounts. Pure; any thread.
 *
 * ByName: nameLess, which is also the order ClusterTreeModel keeps its account rows in, so
 * ClusterTreeProxyModel sorts by health with the source row as the tie-break and never compares
 * names while it sorts.
 */
namespace AccountSort {

enum class Mode {
    ByHealth, ///< problems first: critical, error, warning, then the rest (info, ok, not checked); ties by name
    ByName,
};

/** Case-insensitive, then case-sensitive for names that differ only in case: a strict total order. */
bool nameLess(const QString &a, const QString &b);
/** 0 critical, 1 error, 2 warning, 3 anything else: what "problems first" sorts on. */
int problemRank(HealthBadge::Health health);
/** The order of two accounts in `mode`. */
bool lessThan(Mode mode, HealthBadge::Health healthA, const QString &nameA, HealthBadge::Health healthB, const QString &nameB);

/** "health" or "name", as remembered in the settings. */
QString key(Mode mode);
/** The mode of key(); ByHealth for anything else. */
Mode fromKey(const QString &key);

} // namespace AccountSort
} // namespace MqttDoctor
