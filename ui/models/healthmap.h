#pragma once

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>

#include "diagnosis/finding.h"
#include "models/healthbadge.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * The health badge of every account and of each of its streams, from one list of findings: the
 * worst severity of the findings about the account (about the stream), "ok" for a known account (or
 * a stream of it) that none concerns, "unknown" for an account the findings did not cover.
 *
 * Made where the findings are (ClusterController computes the stream-level diagnosis of every
 * account on its worker pool), so the GUI thread only looks badges up when it applies them to the
 * tree: one pass over the findings to build, O(1) per account and stream to read. Pure value type
 * (implicitly shared); build on any thread, then read on any one thread.
 */
class HealthMap
{
public:
    using Health = HealthBadge::Health;

    /** One account's badges. */
    struct Account
    {
        Health health = Health::Ok;
        QHash<QString, Health> streams; ///< only streams with a finding (the others are Ok)

        Health stream(const QString &stream) const { return streams.value(stream, Health::Ok); }
    };

    HealthMap() = default;

    /**
     * The badges `findings` give `accounts` (by name; findings about other accounts, or about no
     * account such as the cluster-level MIXED_SERVER_VERSIONS, badge nothing).
     */
    static HealthMap fromFindings(const QList<Finding> &findings, const QList<AccountInfo> &accounts);
    /**
     * Checks::diagnose of every account (stream-level checks from discovery, no network; the
     * system account's badge is "ok", as it is not checked), turned into badges. Any thread.
     */
    static HealthMap diagnose(const QList<ServerInfo> &servers, const QList<AccountInfo> &accounts);

    bool isEmpty() const { return m_accounts.isEmpty(); }
    qsizetype size() const { return m_accounts.size(); }
    bool contains(const QString &account) const { return m_accounts.contains(account); }
    /** Unknown for an account the map does not cover. */
    Health account(const QString &account) const;
    /** Ok for a stream of a covered account without findings; Unknown for an account not covered. */
    Health stream(const QString &account, const QString &stream) const;
    /** The account's badges (one lookup for the account and all its streams); nullptr when not covered. */
    const Account *find(const QString &account) const;

    /** The findings the map was made from (fromFindings, diagnose); empty for a map built with raise(). */
    const QList<Finding> &findings() const { return m_findings; }

    /** Raises the badge of `account` (and its `stream`, when given) to at least `health`; adds the account. */
    void raise(const QString &account, const QString &stream, Health health);

private:
    QHash<QString, Account> m_accounts;
    QList<Finding> m_findings;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::HealthMap)
