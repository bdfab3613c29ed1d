#pragma once

#include <QList>
#include <QString>

#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Which accounts hold the most MQTT state: the session records (messages in `$MQTT_sess`) and retained
 * messages (messages in `$MQTT_rmsgs`: one per retained topic, as 2.9 deletes a topic's older message and
 * 2.10+ keeps one per subject; a delete marker of 2.11.12+ counts until the server removes it) of each
 * account, read from the stream infos discovery already has: no request of its own. The top accounts by one of
 * the two counts (the other as the tie-break, then the name), how many more hold records, and which
 * accounts' counts are unknown (their streams or the streams' state could not be read), so a chart never
 * draws a zero for what nobody counted. One pass over the accounts ranks both ways (two stream states read
 * per account: 10,000 accounts took 4-18 ms in a Debug build on a busy 2-core VM).
 * Pure value; any thread.
 */
class AccountRecordRanking final
{
public:
    /** What the accounts are ranked by. */
    enum class Key { Sessions, Retained };

    /** A count no one could read. */
    static constexpr qint64 kUnknown = -1;
    static constexpr int kDefaultTop = 8;

    struct Entry
    {
        QString account;
        qint64 sessions = kUnknown; ///< messages in `$MQTT_sess`; 0 without the stream; kUnknown
        qint64 retained = kUnknown; ///< messages in `$MQTT_rmsgs`; 0 without the stream; kUnknown

        bool operator==(const Entry &) const = default;
    };

    AccountRecordRanking() = default;

    /**
     * Ranks `accounts` by both counts in one pass over them (top() by `key`; withKey() for the other
     * order), keeping the first `top` of each. Accounts without JetStream hold nothing and are left out;
     * so are accounts whose known counts are both 0. `wholeCluster`: the accounts are every account of
     * the cluster (a system connection listed them), not only those the profile's credentials reach.
     */
    static AccountRecordRanking rank(const QList<AccountInfo> &accounts, Key key = Key::Sessions, int top = kDefaultTop,
                                     bool wholeCluster = true);
    /** One account's counts (kUnknown where they cannot be read). */
    static Entry countsOf(const AccountInfo &account);

    /** The same ranking shown by `key` (no new pass over the accounts). */
    AccountRecordRanking withKey(Key key) const;
    Key key() const { return m_key; }
    /** The top accounts by key(), most first; an entry may have one count unknown. */
    const QList<Entry> &top() const { return top(m_key); }
    const QList<Entry> &top(Key key) const { return m_top[key == Key::Sessions ? 0 : 1]; }
    /** Accounts with records (or one count known and above 0) beyond top() (the same for either key). */
    int moreAccounts() const { return m_more; }
    /**
     * Accounts left out because a count is unknown and the other is unknown or 0; and the accounts ranked
     * with one of the two unknown (maybe in top()).
     */
    int unknownAccounts() const { return m_unknown; }
    int partlyUnknownAccounts() const { return m_partlyUnknown; }
    /** A few of the accounts with unknown counts, by name, for the tooltip. */
    const QStringList &unknownSample() const { return m_unknownSample; }
    /** Accounts that could hold MQTT state (JetStream enabled or unknown). */
    int consideredAccounts() const { return m_considered; }
    /** Sums over the accounts whose count is known. */
    qint64 totalSessions() const { return m_totalSessions; }
    qint64 totalRetained() const { return m_totalRetained; }
    bool wholeCluster() const { return m_wholeCluster; }
    /** No account's counts could be read, yet there are accounts that may hold some. */
    bool allUnknown() const { return m_considered > 0 && m_unknown == m_considered; }

    /** The ranked count of `entry` (sessions or retained by key()). */
    qint64 rankedCount(const Entry &entry) const;

private:
    Key m_key = Key::Sessions;
    QList<Entry> m_top[2]; ///< by sessions, by retained
    int m_more = 0;
    int m_unknown = 0;
    int m_partlyUnknown = 0;
    QStringList m_unknownSample;
    int m_considered = 0;
    qint64 m_totalSessions = 0;
    qint64 m_totalRetained = 0;
    bool m_wholeCluster = true;
};

} // namespace MqttDoctor
