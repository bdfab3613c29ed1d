#pragma once

#include <memory>
#include <optional>

namespace MqttDoctor {

/**
 * An optional value kept on the heap and shared between copies (copy-on-assign: it is never changed
 * in place), in 16 bytes instead of the value's size. For a field most records leave empty, like a
 * session record's `pubrel` config (2.10+ only): 100,000 loaded records should not each carry its room.
 * Reads like std::optional: `if (x)`, `*x`, `x->`, `value()`, `reset()`, assignment of a value or
 * std::nullopt; equality compares values. A value type.
 */
template<typename T>
class SharedOptional
{
public:
    SharedOptional() = default;
    SharedOptional(std::nullopt_t) {} // NOLINT(google-explicit-constructor)
    SharedOptional(const T &value) : m_value(std::make_shared<const T>(value)) {} // NOLINT(google-explicit-constructor)
    SharedOptional(T &&value) : m_value(std::make_shared<const T>(std::move(value))) {} // NOLINT(google-explicit-constructor)
    SharedOptional(const std::optional<T> &value) // NOLINT(google-explicit-constructor)
        : m_value(value ? std::make_shared<const T>(*value) : nullptr)
    {}

    SharedOptional &operator=(std::nullopt_t)
    {
        m_value.reset();
        return *this;
    }
    SharedOptional &operator=(const T &value)
    {
        m_value = std::make_shared<const T>(value);
        return *this;
    }
    SharedOptional &operator=(T &&value)
    {
        m_value = std::make_shared<const T>(std::move(value));
        return *this;
    }

    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    const T &operator*() const { return *m_value; }
    const T *operator->() const { return m_value.get(); }
    /** The value; must be set. */
    const T &value() const { return *m_value; }
    T value_or(const T &fallback) const { return m_value ? *m_value : fallback; }
    void reset() { m_value.reset(); }
    std::optional<T> toOptional() const { return m_value ? std::optional<T>(*m_value) : std::nullopt; }

    bool operator==(const SharedOptional &other) const
    {
        if (!m_value || !other.m_value)
            return !m_value && !other.m_value;
        return m_value == other.m_value || *m_value == *other.m_value;
    }

private:
    std::shared_ptr<const T> m_value;
};

} // namespace MqttDoctor
