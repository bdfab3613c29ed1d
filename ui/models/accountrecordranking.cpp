#include "accountrecordranking.h"

#include <algorithm>
#include <vector>

#include "models/accountsort.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {

constexpr qsizetype kUnknownSample = 5;

/** The stream's message count; kUnknown when its state says none. */
qint64 messagesIn(const StreamInfo &stream)
{
    const auto it = stream.state.constFind(QLatin1String("messages"));
    if (it == stream.state.constEnd() || !it->isDouble())
        return AccountRecordRanking::kUnknown;
    return std::max<qint64>(0, it->toInteger());
}

/** Descending, an unknown count below every known one. */
int compareCounts(qint64 a, qint64 b)
{
    return a == b ? 0 : a > b ? -1 : 1;
}

} // namespace

AccountRecordRanking::Entry AccountRecordRanking::countsOf(const AccountInfo &account)
{
    Entry e{account.name, kUnknown, kUnknown};
    if (account.jetstreamKnown && !account.jetstream) {
        e.sessions = e.retained = 0; // no JetStream, no MQTT state
        return e;
    }
    if (!account.jetstreamKnown || !account.streamsKnown)
        return e;
    // A stream the account lacks holds nothing (its findings say why); one without a state is unknown.
    e.sessions = e.retained = 0;
    const QString sessions = MqttLayout::sessionsStream();
    const QString retained = MqttLayout::retainedStream();
    for (const StreamInfo &s : account.streams) {
        if (s.name == sessions)
            e.sessions = messagesIn(s);
        else if (s.name == retained)
            e.retained = messagesIn(s);
    }
    return e;
}

qint64 AccountRecordRanking::rankedCount(const Entry &entry) const
{
    return m_key == Key::Sessions ? entry.sessions : entry.retained;
}

AccountRecordRanking AccountRecordRanking::withKey(Key key) const
{
    AccountRecordRanking r = *this;
    r.m_key = key;
    return r;
}

AccountRecordRanking AccountRecordRanking::rank(const QList<AccountInfo> &accounts, Key key, int top, bool wholeCluster)
{
    AccountRecordRanking r;
    r.m_key = key;
    r.m_wholeCluster = wholeCluster;
    std::vector<Entry> ranked;
    for (const AccountInfo &a : accounts) {
        if (a.jetstreamKnown && !a.jetstream)
            continue;
        ++r.m_considered;
        Entry e = countsOf(a);
        const bool sessionsKnown = e.sessions != kUnknown;
        const bool retainedKnown = e.retained != kUnknown;
        if (sessionsKnown)
            r.m_totalSessions += e.sessions;
        if (retainedKnown)
            r.m_totalRetained += e.retained;
        if (std::max(e.sessions, e.retained) > 0) {
            if (!sessionsKnown || !retainedKnown)
                ++r.m_partlyUnknown;
            ranked.push_back(std::move(e));
        } else if (!sessionsKnown || !retainedKnown) {
            ++r.m_unknown;
            if (r.m_unknownSample.size() < kUnknownSample)
                r.m_unknownSample << a.name;
        }
    }
    const size_t keep = std::min(ranked.size(), size_t(std::max(0, top)));
    r.m_more = int(ranked.size() - keep);
    for (const Key by : {Key::Sessions, Key::Retained}) {
        const bool bySessions = by == Key::Sessions;
        const auto before = [bySessions](const Entry &a, const Entry &b) {
            if (const int c = compareCounts(bySessions ? a.sessions : a.retained, bySessions ? b.sessions : b.retained))
                return c < 0;
            if (const int c = compareCounts(bySessions ? a.retained : a.sessions, bySessions ? b.retained : b.sessions))
                return c < 0;
            return AccountSort::nameLess(a.account, b.account);
        };
        // Only the kept entries end sorted (n log top comparisons).
        std::partial_sort(ranked.begin(), ranked.begin() + qsizetype(keep), ranked.end(), before);
        QList<Entry> &out = r.m_top[bySessions ? 0 : 1];
        out = QList<Entry>(ranked.begin(), ranked.begin() + qsizetype(keep));
    }
    return r;
}

} // namespace MqttDoctor
