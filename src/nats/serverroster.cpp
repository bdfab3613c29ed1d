#include "serverroster.h"

#include <QMutexLocker>

namespace MqttDoctor {

bool ServerRoster::isLearnt() const
{
    QMutexLocker lock(&m_mutex);
    return m_learnt && !m_learntAt.hasExpired(kRelearnAfterMs);
}

void ServerRoster::learn(const QList<Server> &answered, int activeServers)
{
    QMutexLocker lock(&m_mutex);
    QSet<QString> keys;
    for (const Server &s : answered)
        keys.insert(s.key());
    m_unknownMissing = std::max(0, activeServers - int(keys.size()));
    // Learnt again: servers known before that did not answer now keep their names while the others
    // still count servers that did not answer; peers named offline by the meta group stay named.
    for (auto it = m_servers.begin(); it != m_servers.end();) {
        if (keys.contains(it.key())) {
            it = m_servers.erase(it);
        } else if (*it == State::Offline) {
            ++it;
        } else if (m_unknownMissing > 0) {
            *it = State::Silent;
            --m_unknownMissing;
            ++it;
        } else {
            it = m_servers.erase(it);
        }
    }
    for (const QString &k : std::as_const(keys))
        m_servers.insert(k, State::Answering);
    m_atLeast = 0;
    m_learnt = true;
    m_learntAt.start();
    publish();
}

void ServerRoster::learnCount(int servers)
{
    QMutexLocker lock(&m_mutex);
    m_servers.clear();
    m_unknownMissing = 0;
    m_atLeast = std::max(0, servers);
    m_learnt = true;
    m_learntAt.start();
    publish();
}

ServerRoster::Expectation ServerRoster::expectation() const
{
    QMutexLocker lock(&m_mutex);
    Expectation e;
    e.learnt = m_learnt;
    e.atLeast = m_atLeast;
    for (auto it = m_servers.cbegin(); it != m_servers.cend(); ++it)
        if (*it == State::Answering)
            e.servers.insert(it.key());
    return e;
}

bool ServerRoster::isComplete(const Expectation &expected, const QSet<QString> &answered)
{
    if (!expected.learnt || (expected.servers.isEmpty() && expected.atLeast <= 0) || answered.size() < expected.atLeast)
        return false;
    for (const QString &k : expected.servers)
        if (!answered.contains(k))
            return false;
    return true;
}

void ServerRoster::finish(const Expectation &expected, const QList<Server> &answered)
{
    QMutexLocker lock(&m_mutex);
    QSet<QString> keys;
    for (const Server &s : answered) {
        const QString k = s.key();
        keys.insert(k);
        auto it = m_servers.find(k);
        if (it == m_servers.end()) {
            m_servers.insert(k, State::Answering);
            // Most likely one of the servers the others counted that had not answered yet.
            if (m_unknownMissing > 0)
                --m_unknownMissing;
        } else {
            *it = State::Answering;
        }
    }
    // Expected by count only: the shortfall has no names.
    if (expected.atLeast > 0 && keys.size() < expected.atLeast && expected.servers.isEmpty())
        m_unknownMissing = std::max(m_unknownMissing, int(expected.atLeast - keys.size()));
    for (const QString &k : expected.servers) {
        if (keys.contains(k))
            continue;
        auto it = m_servers.find(k);
        if (it != m_servers.end() && *it == State::Answering)
            *it = State::Silent;
    }
    publish();
}

void ServerRoster::notePeers(const QList<QPair<QString, bool>> &peers)
{
    QMutexLocker lock(&m_mutex);
    for (const auto &[name, offline] : peers) {
        if (name.isEmpty())
            continue;
        auto it = m_servers.find(name);
        if (offline) {
            if (it == m_servers.end()) {
                m_servers.insert(name, State::Offline);
                // Most likely one of the servers the others still counted: now it has a name.
                if (m_unknownMissing > 0)
                    --m_unknownMissing;
            } else if (*it == State::Silent)
                *it = State::Offline;
        } else if (it == m_servers.end()) {
            // A member of the meta group that is not marked offline yet (a server stopped a moment
            // ago, or whose shutdown the leader has not heard of) and did not answer: name it.
            m_servers.insert(name, State::Silent);
            if (m_unknownMissing > 0)
                --m_unknownMissing;
        } else if (*it == State::Offline) {
            *it = State::Silent; // back in the meta group, but it has not answered a request yet
        }
    }
    publish();
}

void ServerRoster::forget()
{
    QMutexLocker lock(&m_mutex);
    m_learnt = false;
    m_servers.clear();
    m_unknownMissing = 0;
    m_atLeast = 0;
}

void ServerRoster::publish()
{
    if (m_servers == m_published && m_unknownMissing == m_publishedMissing && m_atLeast == m_publishedAtLeast)
        return;
    m_published = m_servers;
    m_publishedMissing = m_unknownMissing;
    m_publishedAtLeast = m_atLeast;
    ++m_generation;
}

quint64 ServerRoster::generation() const
{
    QMutexLocker lock(&m_mutex);
    return m_generation;
}

QList<ServerRoster::Unanswered> ServerRoster::unanswered() const
{
    QMutexLocker lock(&m_mutex);
    QList<Unanswered> out;
    for (auto it = m_servers.cbegin(); it != m_servers.cend(); ++it) {
        if (*it == State::Silent)
            out.append({it.key(), QStringLiteral("did not answer; what it alone holds is missing from this result")});
        else if (*it == State::Offline)
            out.append({it.key(), QStringLiteral("offline: the JetStream meta leader lists it as an offline peer")});
    }
    if (m_unknownMissing > 0)
        out.append({QString(),
                    QStringLiteral("%1 more %2 that the other servers count did not answer (name unknown)")
                        .arg(m_unknownMissing)
                        .arg(m_unknownMissing == 1 ? QStringLiteral("server") : QStringLiteral("servers"))});
    return out;
}

QStringList ServerRoster::answering() const
{
    QMutexLocker lock(&m_mutex);
    QStringList out;
    for (auto it = m_servers.cbegin(); it != m_servers.cend(); ++it)
        if (*it == State::Answering)
            out.append(it.key());
    return out;
}

} // namespace MqttDoctor
