#include "findinglist.h"

#include <algorithm>

#include "diagnosis/checks.h"

namespace MqttDoctor {

FindingList::FindingList(QList<Finding> findings) : m_listed(std::move(findings)) {}

FindingList::FindingList(QList<Finding> listed, QList<MissingConsumerFindings> apart)
    : m_listed(std::move(listed)), m_apart(std::move(apart))
{
    m_apart.removeIf([](const MissingConsumerFindings &m) { return m.isEmpty(); });
    MissingConsumerFindings::sortGroups(m_apart);
    placeGroups();
}

void FindingList::placeGroups()
{
    // The groups are in their findings' order, so each one's place among the listed findings is at or
    // after the one before's.
    m_groups.clear();
    m_apartSize = 0;
    for (qsizetype g = 0; g < m_apart.size(); ++g) {
        m_groups.push_back({m_apart.at(g).placeIn(m_listed) + m_apartSize, g});
        m_apartSize += m_apart.at(g).size();
    }
}

const FindingList::Group *FindingList::locate(qsizetype &i) const
{
    qsizetype before = 0; // findings of the groups before `i`
    for (const Group &g : m_groups) {
        if (i < g.start)
            break;
        const qsizetype n = m_apart.at(g.apart).size();
        if (i < g.start + n) {
            i -= g.start;
            return &g;
        }
        before += n;
    }
    i -= before;
    return nullptr;
}

Finding FindingList::at(qsizetype i) const
{
    if (const Group *g = locate(i))
        return m_apart.at(g->apart).at(i);
    return m_listed.at(i);
}

const Finding &FindingList::summaryAt(qsizetype i) const
{
    if (const Group *g = locate(i))
        return m_apart.at(g->apart).summaryAt(i);
    return m_listed.at(i);
}

QList<Finding> FindingList::toList() const
{
    if (m_groups.empty())
        return m_listed;
    QList<Finding> out;
    out.reserve(size());
    qsizetype listed = 0;
    for (const Group &g : m_groups) {
        const qsizetype upTo = g.start - (out.size() - listed); // listed findings before this group
        out.append(m_listed.mid(listed, upTo - listed));
        listed = upTo;
        m_apart.at(g.apart).appendTo(out);
    }
    out.append(m_listed.mid(listed));
    return out;
}

QList<Finding> FindingList::withCode(const QString &code) const
{
    QList<Finding> out;
    for (const Finding &f : m_listed)
        if (f.code == code)
            out.append(f);
    for (const Group &g : m_groups) {
        const MissingConsumerFindings &group = m_apart.at(g.apart);
        if (group.summaryAt(0).code == code)
            group.appendTo(out);
    }
    if (!m_groups.empty() && out.size() > 1)
        Checks::sortFindings(out);
    return out;
}

void FindingList::writeJson(JsonStreamWriter &w) const
{
    qsizetype listed = 0;
    qsizetype written = 0; // of the groups
    for (const Group &g : m_groups) {
        for (const qsizetype upTo = g.start - written; listed < upTo; ++listed)
            m_listed.at(listed).writeJson(w);
        const MissingConsumerFindings &group = m_apart.at(g.apart);
        group.writeJson(w);
        written += group.size();
    }
    for (; listed < m_listed.size(); ++listed)
        m_listed.at(listed).writeJson(w);
}

FindingList FindingList::ofAccount(const QString &account) const
{
    QList<Finding> listed = m_listed;
    listed.removeIf([&account](const Finding &f) { return !f.account.isEmpty() && f.account != account; });
    QList<MissingConsumerFindings> apart = m_apart;
    apart.removeIf([&account](const MissingConsumerFindings &m) { return m.summaryAt(0).account != account; });
    return FindingList(std::move(listed), std::move(apart));
}

} // namespace MqttDoctor
