#include "records/sessionbatches.h"

namespace MqttDoctor {

SessionBatches::SessionBatches(std::initializer_list<SessionEntry> entries)
{
    for (const SessionEntry &e : entries)
        append(e);
}

void SessionBatches::appendBatch(const QList<SessionEntry> &batch)
{
    if (batch.isEmpty())
        return;
    m_batches.append(batch);
    m_size += batch.size();
    m_ownTail = false;
}

void SessionBatches::append(const SessionEntry &entry)
{
    append(SessionEntry(entry));
}

void SessionBatches::append(SessionEntry &&entry)
{
    if (!m_ownTail) {
        m_batches.append(QList<SessionEntry>());
        m_ownTail = true;
    }
    m_batches.last().append(std::move(entry));
    ++m_size;
}

SessionBatches::const_iterator &SessionBatches::const_iterator::operator++()
{
    ++m_entry;
    skipEmpty();
    return *this;
}

void SessionBatches::const_iterator::skipEmpty()
{
    while (m_batch < m_batches->size() && m_entry >= (*m_batches)[m_batch].size()) {
        ++m_batch;
        m_entry = 0;
    }
}

} // namespace MqttDoctor
