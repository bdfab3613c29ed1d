#pragma once

#include <QString>
#include <QStringBuilder>
#include <QStringList>
#include <QStringView>

#include <variant>

#include "diagnosis/findingpattern.h"

class QTextStream;

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * A finding's title or detail: a plain text, or a FindingPattern with its arguments, rendered only when
 * the text is read (displayed, written, compared). A check that makes a finding per session (a hundred
 * thousand of them) keeps a pointer and a few shared strings per finding instead of its sentences.
 *
 * Reads like the QString it replaces (toString(), implicit conversion, isEmpty(), contains()); assigning
 * or appending a QString makes it plain text. Relocatable; immutable values shared across threads.
 */
class FindingText final
{
public:
    FindingText() = default;
    FindingText(const QString &text) : m_value(text) {} // NOLINT(google-explicit-constructor): a text is a QString
    FindingText(QString &&text) : m_value(std::move(text)) {} // NOLINT(google-explicit-constructor)
    template<typename A, typename B>
    FindingText(const QStringBuilder<A, B> &text) : m_value(QString(text)) // NOLINT(google-explicit-constructor)
    {}
    /** `pattern` (which must outlive the text: a static) filled from `args` when read. */
    FindingText(const FindingPattern &pattern, const QStringList &args) : m_value(Deferred{&pattern, args}) {}

    QString toString() const;
    operator QString() const { return toString(); } // NOLINT(google-explicit-constructor)
    /** Appends the text to `out` (no temporary string for a pattern). */
    void appendTo(QString &out) const;
    /** The text as the string `key` (JsonStreamWriter::string()), a pattern's without making the text first. */
    void writeJson(JsonStreamWriter &w, const QString &key) const;
    /** Whether the text is rendered from a pattern when read. */
    bool isDeferred() const { return std::holds_alternative<Deferred>(m_value); }

    bool isEmpty() const;
    qsizetype size() const;
    bool contains(QStringView text, Qt::CaseSensitivity cs = Qt::CaseSensitive) const;
    bool contains(const QString &text, Qt::CaseSensitivity cs = Qt::CaseSensitive) const { return contains(QStringView(text), cs); }
    bool contains(QChar c, Qt::CaseSensitivity cs = Qt::CaseSensitive) const;
    bool startsWith(QStringView text, Qt::CaseSensitivity cs = Qt::CaseSensitive) const;
    /** The rendered text with `more` appended, as plain text from then on. */
    FindingText &operator+=(const QString &more);

    friend bool operator==(const FindingText &a, const FindingText &b);
    friend bool operator!=(const FindingText &a, const FindingText &b) { return !(a == b); }
    friend bool operator==(const FindingText &a, const QString &b) { return a.equals(b); }
    friend bool operator==(const QString &a, const FindingText &b) { return b.equals(a); }
    friend bool operator!=(const FindingText &a, const QString &b) { return !a.equals(b); }
    friend bool operator!=(const QString &a, const FindingText &b) { return !b.equals(a); }
    friend QString operator+(const FindingText &a, const QString &b) { return a.toString() + b; }
    friend QString operator+(const QString &a, const FindingText &b) { return a + b.toString(); }
    friend QTextStream &operator<<(QTextStream &out, const FindingText &text);

private:
    struct Deferred
    {
        const FindingPattern *pattern = nullptr;
        QStringList args;
    };
    bool equals(QStringView text) const;

    std::variant<QString, Deferred> m_value;
};

} // namespace MqttDoctor

Q_DECLARE_TYPEINFO(MqttDoctor::FindingText, Q_RELOCATABLE_TYPE);
