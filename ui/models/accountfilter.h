#pragma once

#include <QString>

namespace MqttDoctor {

/**
 * What the cluster tree's filter box matches: an account whose name contains the typed text,
 * ignoring case and the text's surrounding blanks (an empty text matches every account). Pure; any
 * thread. ClusterTreeProxyModel applies it to account rows only: servers and groups stay visible.
 */
namespace AccountFilter {

/** `text` as the filter uses it: trimmed. */
QString normalized(const QString &text);
/** True when `accountName` contains `text` (already normalized()), ignoring case. */
bool matches(const QString &accountName, const QString &text);

} // namespace AccountFilter
} // namespace MqttDoctor
