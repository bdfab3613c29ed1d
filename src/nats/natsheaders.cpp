#include "nats/natsheaders.h"

#include "common/decodeerror.h"

namespace MqttDoctor {

namespace {
constexpr qsizetype kMaxHeaderBytes = 1024 * 1024;

Error headerError(const QString &reason)
{
    return DecodeError{QStringLiteral("NATS headers"), QString(), reason}.toError();
}
} // namespace

Result<NatsHeaders> NatsHeaders::parse(const QByteArray &block)
{
    NatsHeaders h;
    if (block.isEmpty())
        return h;
    if (block.size() > kMaxHeaderBytes)
        return headerError(QStringLiteral("header block larger than 1 MiB (%1 bytes)").arg(block.size()));
    QList<QByteArray> lines = block.split('\n');
    for (QByteArray &l : lines) {
        if (l.endsWith('\r'))
            l.chop(1);
    }
    const QByteArray first = lines.first();
    if (!first.startsWith("NATS/1.0"))
        return headerError(QStringLiteral("the block does not start with NATS/1.0"));
    const QByteArray rest = first.mid(8).trimmed();
    if (!rest.isEmpty()) {
        bool ok = false;
        const int status = rest.left(3).toInt(&ok);
        if (!ok || status < 100 || status > 999)
            return headerError(QStringLiteral("bad status on the first line"));
        h.m_status = status;
    }
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray &line = lines.at(i);
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return headerError(QStringLiteral("line %1 has no 'key:value' form").arg(i + 1));
        const QString key = QString::fromUtf8(line.left(colon)).trimmed();
        const QString value = QString::fromUtf8(line.mid(colon + 1)).trimmed();
        if (key.isEmpty())
            return headerError(QStringLiteral("line %1 has an empty key").arg(i + 1));
        h.m_entries.append({key, value});
    }
    return h;
}

QByteArray NatsHeaders::encode() const
{
    QByteArray out("NATS/1.0");
    if (m_status != 0)
        out += ' ' + QByteArray::number(m_status);
    out += "\r\n";
    for (const auto &[k, v] : m_entries)
        out += k.toUtf8() + ':' + v.toUtf8() + "\r\n";
    out += "\r\n";
    return out;
}

bool NatsHeaders::contains(const QString &key) const
{
    for (const auto &e : m_entries) {
        if (e.first.compare(key, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

QString NatsHeaders::value(const QString &key) const
{
    for (const auto &e : m_entries) {
        if (e.first.compare(key, Qt::CaseInsensitive) == 0)
            return e.second;
    }
    return {};
}

QStringList NatsHeaders::values(const QString &key) const
{
    QStringList out;
    for (const auto &e : m_entries) {
        if (e.first.compare(key, Qt::CaseInsensitive) == 0)
            out.append(e.second);
    }
    return out;
}

} // namespace MqttDoctor
