#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <utility>

#include "common/result.h"

namespace MqttDoctor {

/**
 * A NATS message header block (`NATS/1.0[ <status>[ <description>]]\r\nKey:Value\r\n...\r\n`), as
 * stored with JetStream messages (the base64 `hdrs` of a `STREAM.MSG.GET` reply). Keys keep their
 * spelling and order; lookups are case-insensitive. A value type; pure and thread-safe.
 */
class NatsHeaders final
{
public:
    /**
     * Parses a header block. An empty block gives empty headers. Tolerates the extra blank lines
     * nats-server stores for an emptied block (`NATS/1.0\r\n\r\n\r\n`) and bare `\n` line ends.
     * Fails (InvalidInput) on a missing `NATS/1.0` line, a line without `:`, or more than 1 MiB.
     */
    static Result<NatsHeaders> parse(const QByteArray &block);

    /** `NATS/1.0\r\nK:V\r\n...\r\n` (compact `Key:Value`, as nats-server writes); `NATS/1.0\r\n\r\n` when empty. */
    QByteArray encode() const;

    bool isEmpty() const { return m_entries.isEmpty(); }
    bool contains(const QString &key) const;
    /** The first value of `key` (case-insensitive), or a null QString. */
    QString value(const QString &key) const;
    QStringList values(const QString &key) const;
    void append(const QString &key, const QString &value) { m_entries.append({key, value}); }
    const QList<std::pair<QString, QString>> &entries() const & { return m_entries; }
    /**
     * On a temporary (`for (auto &[k, v] : makeHeaders().entries())`) the list itself, not a reference
     * into an object that dies before the loop runs (found by ASan in a test).
     */
    QList<std::pair<QString, QString>> entries() && { return std::move(m_entries); }
    /** Inline status of the first line (e.g. 404), 0 when none. */
    int status() const { return m_status; }

    bool operator==(const NatsHeaders &other) const = default;

private:
    QList<std::pair<QString, QString>> m_entries;
    int m_status = 0;
};

} // namespace MqttDoctor
