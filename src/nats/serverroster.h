#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QMap>
#include <QMutex>
#include <QSet>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * The servers that answer the system PING requests (`$SYS.REQ.SERVER.PING.*`) of one connection set,
 * so that such a request ends as soon as each of them has answered instead of after a quiet period.
 *
 * It is learnt once, from the first STATSZ ping: every server reports how many servers it hears on
 * the system account (`active_servers`), and the ping ends when that many have answered. From then
 * on a reply from a server not seen before adds it (a server came); a server that did not answer a
 * request is marked silent: it is named in every result from then on (see unanswered()) but no
 * longer waited for, until it answers again. JetStream peers that the meta leader lists as offline
 * (JSZ `meta_cluster.replicas`) are named as well, even when no server counts them any more (a
 * server stopped cleanly leaves the others' count at once).
 *
 * A reply that comes after every known server has answered is not waited for, so a server that joins
 * later is seen only when the roster is learnt again: it is, at the first request after kRelearnAfterMs
 * (a long-running GUI session), or after forget().
 *
 * Servers are known by name (stable across restarts; the id is not) and replies are told apart by
 * server id. Thread-safe: the requests of several worker threads share one roster.
 */
class ServerRoster final
{
public:
    static constexpr int kRelearnAfterMs = 30000;

    /** A server as a reply's envelope names it. */
    struct Server
    {
        QString name;
        QString id;
        /** name, else id: the key a server is known by. */
        QString key() const { return name.isEmpty() ? id : name; }
    };

    /** A server whose view is missing from results, and why. */
    struct Unanswered
    {
        QString name; ///< empty: a server counted by the others whose name is unknown
        QString reason;
    };

    /** What one request waits for: the servers that answered before and not gone silent. */
    struct Expectation
    {
        QSet<QString> servers;
        int atLeast = 0; ///< and at least this many replies (a count without names, see learnCount())
        bool learnt = false; ///< false: the roster is not learnt yet; wait for the quiet period
    };

    /** Learnt, and not longer than kRelearnAfterMs ago. */
    bool isLearnt() const;
    /** Held while one request learns the roster, so that concurrent first requests learn it once. */
    QMutex &learningMutex() { return m_learning; }
    /**
     * The outcome of the learning ping: the servers that answered and the largest `active_servers`
     * any of them reported (servers beyond those that answered are named in unanswered() as unknown).
     */
    void learn(const QList<Server> &answered, int activeServers);
    /**
     * Where the servers cannot be counted (a connection that reaches the PING subjects only through
     * its account's imports): expect `servers` replies, names unknown until they answer.
     */
    void learnCount(int servers);

    Expectation expectation() const;
    /** True when every expected server is among `answered` (server keys). */
    static bool isComplete(const Expectation &expected, const QSet<QString> &answered);
    /** After a request: who answered (added or back from silence) and who was expected but did not. */
    void finish(const Expectation &expected, const QList<Server> &answered);
    /** JetStream meta-group peers the meta leader reported: name and whether it is offline. */
    void notePeers(const QList<QPair<QString, bool>> &peers);
    /** Learn again at the next request (a refresh: servers may have come or gone for good). */
    void forget();

    /** Servers whose view is missing, sorted by name; the unknown ones last. */
    QList<Unanswered> unanswered() const;
    /** The servers that answer, sorted. */
    QStringList answering() const;
    /**
     * Bumped whenever who answers changes: a server came, went silent, came back or went offline (or
     * the count without names changed). Learning the same servers again (after forget()) is no change.
     * What was found about the servers (ConnectionSet::knownServers) holds while it stays the same.
     */
    quint64 generation() const;

private:
    enum class State { Answering, Silent, Offline };
    /** Under m_mutex, after a change: bumps the generation when the membership differs from the last one published. */
    void publish();
    mutable QMutex m_mutex;
    QMutex m_learning;
    bool m_learnt = false;
    QMap<QString, State> m_servers;
    int m_unknownMissing = 0; ///< counted by active_servers, never answered, name unknown
    int m_atLeast = 0; ///< learnCount()
    QElapsedTimer m_learntAt;
    quint64 m_generation = 0;
    QMap<QString, State> m_published; ///< the membership at the last bump
    int m_publishedMissing = 0;
    int m_publishedAtLeast = 0;
};

} // namespace MqttDoctor
