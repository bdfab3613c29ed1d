#pragma once

#include <QByteArray>
#include <QString>

namespace MqttDoctor {

/**
 * A JSON object written member by member in the order given, the way Go's encoding/json writes a
 * struct: compact, values already encoded (GoJson), `omitempty` members skipped by the caller or by
 * stringIfSet(). The one writer behind the records this tool re-encodes (session and retained
 * records), so they look like the ones nats-server writes.
 */
class GoJsonObject final
{
public:
    /** A member whose value is already JSON. */
    void member(const char *name, const QByteArray &json);
    /** A member whose key is a runtime string (map entries, unknown fields kept as they were). */
    void member(const QString &name, const QByteArray &json);
    /** A string member, left out when empty (Go's `omitempty`). */
    void stringIfSet(const char *name, const QString &value);
    /** The object, `{...}`. */
    QByteArray finish() const { return m_out + '}'; }

private:
    void separate();

    QByteArray m_out{"{"};
};

} // namespace MqttDoctor
