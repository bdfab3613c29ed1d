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
    requires(std::is_convertible_v<U, T> && !std::is_same_v<std::decay_t<U>, T> && !std::is_same_v<std::decay_t<U>, Error>)
        Result(U &&value)
        : m_data(std::in_place_index<0>, T(std::forward<U>(value)))
    {}

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

    /** The value, or `fallback` when this holds an error. */
    template<typename U>
    T value_or(U &&fallback) const &
    {
        return ok() ? value() : T(std::forward<U>(fallback));
    }
    template<typename U>
    T value_or(U &&fallback) &&
    {
        return ok() ? std::move(*this).value() : T(std::forward<U>(fallback));
    }

    /** `f(value)` wrapped in a Result (Result<void> when f returns nothing); the error passes through. */
    template<typename F>
    auto transform(F &&f) const &
    {
        return transformImpl(*this, std::forward<F>(f));
    }
    template<typename F>
    auto transform(F &&f) &&
    {
        return transformImpl(std::move(*this), std::forward<F>(f));
    }

    /** `f(value)`, itself a Result, or the error: chains steps that can each fail. */
    template<typename F>
    auto and_then(F &&f) const & -> std::invoke_result_t<F, const T &>
    {
        if (!ok())
            return error();
        return std::forward<F>(f)(value());
    }
    template<typename F>
    auto and_then(F &&f) && -> std::invoke_result_t<F, T &&>
    {
        if (!ok())
            return std::move(error());
        return std::forward<F>(f)(std::move(*this).value());
    }

private:
    template<typename Self, typename F>
    static auto transformImpl(Self &&self, F &&f)
    {
        using V = decltype(std::forward<Self>(self).value());
        using U = std::remove_cvref_t<std::invoke_result_t<F, V>>;
        if (!self.ok())
            return Result<U>(std::forward<Self>(self).error());
        if constexpr (std::is_void_v<U>) {
            std::forward<F>(f)(std::forward<Self>(self).value());
            return Result<U>();
        } else {
            return Result<U>(std::forward<F>(f)(std::forward<Self>(self).value()));
        }
    }

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

    /** `f()`, itself a Result, when this succeeded; else the error. */
    template<typename F>
    auto and_then(F &&f) const -> std::invoke_result_t<F>
    {
        if (!ok())
            return error();
        return std::forward<F>(f)();
    }
    /** `f()` wrapped in a Result when this succeeded; else the error. */
    template<typename F>
    auto transform(F &&f) const
    {
        using U = std::remove_cvref_t<std::invoke_result_t<F>>;
        if (!ok())
            return Result<U>(error());
        if constexpr (std::is_void_v<U>) {
            std::forward<F>(f)();
            return Result<U>();
        } else {
            return Result<U>(std::forward<F>(f)());
        }
    }

private:
    std::optional<Error> m_error;
};

} // namespace MqttDoctor
