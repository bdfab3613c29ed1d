#pragma once

#include <QList>

#include <iterator>

#include "records/sessionloader.h"

namespace MqttDoctor {

/**
 * Session entries kept as the batches they were read in. A batch appended with appendBatch() is shared
 * with whoever else holds that list (the GUI's table gets the same batches): a million sessions exist
 * once, not once per view. Iterates over every entry in order. A value type; not thread-safe for
 * writes, like QList.
 */
class SessionBatches final
{
public:
    SessionBatches() = default;
    SessionBatches(std::initializer_list<SessionEntry> entries);

    /** Appends a whole batch; no entry is copied (the list's data is shared). */
    void appendBatch(const QList<SessionEntry> &batch);
    /** Appends one entry (to a batch of this object's own, never to a shared one). */
    void append(const SessionEntry &entry);
    void append(SessionEntry &&entry);

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    const QList<QList<SessionEntry>> &batches() const { return m_batches; }

    class const_iterator
    {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = SessionEntry;
        using difference_type = qsizetype;
        using pointer = const SessionEntry *;
        using reference = const SessionEntry &;

        const_iterator() = default;
        reference operator*() const { return (*m_batches)[m_batch][m_entry]; }
        pointer operator->() const { return &**this; }
        const_iterator &operator++();
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++*this;
            return before;
        }
        bool operator==(const const_iterator &other) const { return m_batch == other.m_batch && m_entry == other.m_entry; }

    private:
        friend class SessionBatches;
        const_iterator(const QList<QList<SessionEntry>> *batches, qsizetype batch) : m_batches(batches), m_batch(batch) { skipEmpty(); }
        void skipEmpty();

        const QList<QList<SessionEntry>> *m_batches = nullptr;
        qsizetype m_batch = 0;
        qsizetype m_entry = 0;
    };

    const_iterator begin() const { return const_iterator(&m_batches, 0); }
    const_iterator end() const { return const_iterator(&m_batches, m_batches.size()); }

private:
    QList<QList<SessionEntry>> m_batches;
    qsizetype m_size = 0;
    bool m_ownTail = false; ///< the last batch is this object's own (append() may grow it)
};

} // namespace MqttDoctor
