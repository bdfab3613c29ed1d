#pragma once

#include <QList>

#include <algorithm>
#include <utility>

namespace MqttDoctor {

/**
 * A small sorted map in one contiguous list, with the part of QMap's interface the session records
 * use (value(), contains(), insert(), remove(), key()/value() iterators in key order, equality).
 * A session record holds one or two entries per map; 100,000 loaded records must not each carry a
 * tree (a QMap costs a shared header plus a node per entry; this costs one list allocation).
 * Lookups are binary searches. A value type; not thread-safe for writes, like QMap.
 */
template<typename Key, typename T>
class FlatMap
{
    using Entry = std::pair<Key, T>;
    using List = QList<Entry>;

public:
    template<typename ListIterator, typename Ref>
    class Iterator
    {
    public:
        Iterator() = default;
        explicit Iterator(ListIterator it) : m_it(it) {}
        const Key &key() const { return m_it->first; }
        Ref value() const { return m_it->second; }
        Ref operator*() const { return m_it->second; }
        auto *operator->() const { return &m_it->second; }
        Iterator &operator++()
        {
            ++m_it;
            return *this;
        }
        Iterator operator++(int)
        {
            Iterator old = *this;
            ++m_it;
            return old;
        }
        Iterator &operator--()
        {
            --m_it;
            return *this;
        }
        bool operator==(const Iterator &other) const { return m_it == other.m_it; }
        bool operator!=(const Iterator &other) const { return m_it != other.m_it; }
        ListIterator base() const { return m_it; }

    private:
        ListIterator m_it{};
    };
    using const_iterator = Iterator<typename List::const_iterator, const T &>;
    using iterator = Iterator<typename List::iterator, T &>;

    FlatMap() = default;

    qsizetype size() const { return m_entries.size(); }
    bool isEmpty() const { return m_entries.isEmpty(); }
    void clear() { m_entries.clear(); }

    bool contains(const Key &key) const { return find(key) != m_entries.cend(); }
    T value(const Key &key, const T &defaultValue = T()) const
    {
        const auto it = find(key);
        return it == m_entries.cend() ? defaultValue : it->second;
    }
    /** Inserts or replaces; keeps the keys sorted. */
    iterator insert(const Key &key, const T &value)
    {
        auto it = lowerBound(key);
        if (it != m_entries.end() && it->first == key) {
            it->second = value;
            return iterator(it);
        }
        const qsizetype at = it - m_entries.begin();
        if (m_entries.capacity() == 0)
            m_entries.reserve(1); // most maps here hold one entry: no growth (its work and spare room) for it
        m_entries.insert(at, Entry(key, value));
        return iterator(m_entries.begin() + at);
    }
    T &operator[](const Key &key)
    {
        auto it = lowerBound(key);
        if (it == m_entries.end() || it->first != key) {
            const qsizetype at = it - m_entries.begin();
            m_entries.insert(at, Entry(key, T()));
            it = m_entries.begin() + at;
        }
        return it->second;
    }
    qsizetype remove(const Key &key)
    {
        const auto it = find(key);
        if (it == m_entries.cend())
            return 0;
        m_entries.remove(it - m_entries.cbegin());
        return 1;
    }
    QList<Key> keys() const
    {
        QList<Key> out;
        out.reserve(m_entries.size());
        for (const Entry &e : m_entries)
            out.append(e.first);
        return out;
    }

    const_iterator constFind(const Key &key) const { return const_iterator(find(key)); }
    const_iterator begin() const { return const_iterator(m_entries.cbegin()); }
    const_iterator end() const { return const_iterator(m_entries.cend()); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    const_iterator constBegin() const { return begin(); }
    const_iterator constEnd() const { return end(); }
    iterator begin() { return iterator(m_entries.begin()); }
    iterator end() { return iterator(m_entries.end()); }
    /** `for (auto [key, value] : map.asKeyValueRange())`, as with QMap. */
    const List &asKeyValueRange() const { return m_entries; }

    bool operator==(const FlatMap &other) const { return m_entries == other.m_entries; }
    bool operator!=(const FlatMap &other) const { return !(*this == other); }

private:
    typename List::const_iterator find(const Key &key) const
    {
        const auto it =
            std::lower_bound(m_entries.cbegin(), m_entries.cend(), key, [](const Entry &e, const Key &k) { return e.first < k; });
        return it != m_entries.cend() && it->first == key ? it : m_entries.cend();
    }
    typename List::iterator lowerBound(const Key &key)
    {
        return std::lower_bound(m_entries.begin(), m_entries.end(), key, [](const Entry &e, const Key &k) { return e.first < k; });
    }

    List m_entries;
};

} // namespace MqttDoctor
