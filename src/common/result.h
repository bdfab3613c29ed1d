#pragma once

#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "error.h"

namespace MqttDoctor {

/**
 * Either a value or an Error (an expected-style type; std::expected is C++23). Core functions return
 * it instead of throwing, so it can cross threads, futures and C callbacks.
 */
template<typename T>
class [[nodiscard]] Result final
{
public:
    Result(const T &value) : m_data(value) {}
    Result(T &&value) : m_data(std::move(value)) {}
    Result(const Error &error) : m_data(error) {}
    Result(Error &&error) : m_data(std::move(error)) {}
    /** From anything that converts to T (a QStringBuilder expression, a derived value...). */
    template<typename U>
        requires(std::is_convertible_v<U, T> && !std::is_same_v<std::decay_t<U>, T>
                 && !std::is_same_v<std::decay_t<U>, Error>)
    Result(U &&value) : m_data(std::in_place_index<0>, T(std::forward<U>(value))) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T &value() const & { return std::get<0>(m_data); }
    T &value() & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    const Error &error() const { return std::get<1>(m_data); }
    Error &error() { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

/** Result of an operation that yields nothing but may fail. */
template<>
class [[nodiscard]] Result<void> final
{
public:
    Result() = default;
    Result(const Error &error) : m_error(error) {}
    Result(Error &&error) : m_error(std::move(error)) {}

    bool ok() const { return !m_error.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const { return *m_error; }

private:
    std::optional<Error> m_error;
};

} // namespace MqttDoctor
