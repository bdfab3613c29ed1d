#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/jszmerge.h"

namespace MqttDoctor {

class SystemClient;

/**
 * Reads every JetStream account's JSZ details (streams, consumers, configs) from every server,
 * complete whatever order a server lists its accounts in, with a bounded number of requests in
 * flight and each page merged as it arrives.
 *
 * Why not offset pages from 0: before 2.11 a server sorts its accounts by name only when the request's
 * offset is not 0, so the page at offset 0 is an arbitrary slice of its account map and overlaps the
 * sorted pages that follow (2.9.10 with 600 accounts: pages of 256, 256 and 88, yet 144 accounts in
 * none). Here every page starts at offset 1 or later (sorted on every version), and the one account a
 * server sorts first is found apart: an offset-0 request for one account names it on servers that
 * sort (its name is below the first of the sorted pages), else it is among the ACCOUNTZ names below
 * that first name that no page listed, which are asked for by name, in parallel.
 *
 * Blocking: call on a worker thread.
 */
class JszCollector final
{
public:
    explicit JszCollector(SystemClient &system, int pageSize = kDefaultPageSize);

    static constexpr int kDefaultPageSize = 1024;

    /**
     * Every account of every server. `accountzByServer` is each server's ACCOUNTZ list (by server
     * key, see ServerRoster::Server::key()), `allNames` their union: they size the first requests and
     * name the candidates for each server's first account. A server that repeats a full page, or
     * lists more pages than any fleet has, is a Protocol error.
     */
    Result<JszMerge> collectAll(const QHash<QString, QStringList> &accountzByServer, const QStringList &allNames);
    /** One account's details from every server that has it (empty merge: no server has it as a JetStream account). */
    Result<JszMerge> collectOne(const QString &account);

private:
    SystemClient &m_system;
    int m_pageSize;
};

} // namespace MqttDoctor
