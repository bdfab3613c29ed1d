#pragma once

#include <QList>
#include <QString>

#include "common/result.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"
#include "nats/systemclient.h"

namespace MqttDoctor {

class ConnectionSet;

/**
 * Finds the servers and accounts of a cluster and the streams of an account.
 * The network functions block: call them on a worker thread (AsyncRunner). The parsing and merging
 * functions are pure and unit-testable with captured replies.
 */
namespace Discovery {

/**
 * Servers: VARZ from every server with a system connection; else what the account can see. Always
 * asks (a refresh of the cluster), and keeps the answer in the set for knownServers().
 */
Result<QList<ServerInfo>> servers(ConnectionSet &connections);
/**
 * The servers as the set knows them (ConnectionSet::knownServers): found once and asked again only
 * when the roster changed since; loads that run at once wait for one discovery. What a load of one
 * account uses (AccountSnapshotLoader, AccountRecordAccess::resolve).
 */
Result<QList<ServerInfo>> knownServers(ConnectionSet &connections);

/** Whether accounts() also reads each account's JetStream limits through the account's own connection. */
enum class AccountLimits { Read, Skip };

/**
 * Accounts: with a system connection ACCOUNTZ, then every server's JSZ listing (accounts, streams,
 * consumers, configs; see JszCollector) merged; an account no server lists has no JetStream. With
 * AccountLimits::Read, the limits of the accounts the profile has credentials for are read through
 * their own connections, a few at once. Without a system connection: the connected user's own
 * account through its JetStream API.
 */
Result<QList<AccountInfo>> accounts(ConnectionSet &connections, AccountLimits limits);
/** accounts() with AccountLimits::Read. */
Result<QList<AccountInfo>> accounts(ConnectionSet &connections);

/**
 * One account with all its streams: through the account's own JetStream API when the profile has
 * its credentials (or it is the primary connection's account), else through the system JSZ view.
 * An empty name means the primary connection's account.
 */
Result<AccountInfo> account(ConnectionSet &connections, const QString &name);

// Pure helpers (no network).
ServerInfo serverFromVarz(const SystemClient::Reply &reply);
ServerInfo serverFromEnvelope(const QJsonObject &server);
/** Merges JSZ replies of several servers: one entry per account, one per stream (leader's view preferred; see JszMerge). */
QList<AccountInfo> accountsFromJsz(const QList<SystemClient::Reply> &replies);
/** Builds a StreamInfo from a STREAM.INFO/LIST object or a JSZ stream_detail. */
StreamInfo streamFromJson(const QJsonObject &json, const QString &source);

} // namespace Discovery
} // namespace MqttDoctor
