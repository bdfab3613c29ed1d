#include "serverversion.h"

#include <QStringList>

namespace MqttDoctor {

ServerVersion::ServerVersion(int majorVersion, int minorVersion, int patchVersion, QString preRelease)
    : m_major(majorVersion), m_minor(minorVersion), m_patch(patchVersion), m_preRelease(std::move(preRelease)), m_valid(true)
{}

Result<ServerVersion> ServerVersion::parse(const QString &text)
{
    QString s = text.trimmed();
    const auto invalid = [&text]() {
        return Error(Error::Kind::InvalidInput, QStringLiteral("\"%1\" is not a nats-server version").arg(text),
                     QStringLiteral("expected major.minor[.patch][-prerelease], e.g. 2.10.27"));
    };
    if (s.startsWith(QLatin1Char('v')) || s.startsWith(QLatin1Char('V')))
        s.remove(0, 1);
    // Build metadata ("+...") never takes part in ordering.
    const qsizetype plus = s.indexOf(QLatin1Char('+'));
    if (plus >= 0)
        s.truncate(plus);
    QString pre;
    const qsizetype dash = s.indexOf(QLatin1Char('-'));
    if (dash >= 0) {
        pre = s.mid(dash + 1);
        s.truncate(dash);
        if (pre.isEmpty())
            return invalid();
    }
    const QStringList parts = s.split(QLatin1Char('.'));
    if (parts.size() < 2 || parts.size() > 3)
        return invalid();
    int numbers[3] = {0, 0, 0};
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString &p = parts.at(i);
        if (p.isEmpty() || p.size() > 6)
            return invalid();
        for (const QChar c : p)
            if (!c.isDigit())
                return invalid();
        numbers[i] = p.toInt();
    }
    return ServerVersion(numbers[0], numbers[1], numbers[2], pre);
}

qint64 ServerVersion::number() const
{
    return qint64(m_major) * 1000000 + qint64(m_minor) * 1000 + m_patch;
}

bool ServerVersion::atLeast(int majorVersion, int minorVersion, int patchVersion) const
{
    return m_valid && *this >= ServerVersion(majorVersion, minorVersion, patchVersion);
}

QString ServerVersion::toString() const
{
    if (!m_valid)
        return {};
    QString s = QStringLiteral("%1.%2.%3").arg(m_major).arg(m_minor).arg(m_patch);
    if (!m_preRelease.isEmpty())
        s += QLatin1Char('-') + m_preRelease;
    return s;
}

int ServerVersion::compare(const ServerVersion &a, const ServerVersion &b)
{
    if (a.m_valid != b.m_valid)
        return a.m_valid ? 1 : -1;
    for (const auto &[x, y] : {std::pair{a.m_major, b.m_major}, std::pair{a.m_minor, b.m_minor}, std::pair{a.m_patch, b.m_patch}})
        if (x != y)
            return x < y ? -1 : 1;
    // A release sorts after its pre-releases.
    if (a.m_preRelease.isEmpty() || b.m_preRelease.isEmpty())
        return a.m_preRelease.isEmpty() == b.m_preRelease.isEmpty() ? 0 : (a.m_preRelease.isEmpty() ? 1 : -1);
    // Pre-release identifiers compare one by one: numeric ones numerically and before alphanumeric ones.
    const QStringList pa = a.m_preRelease.split(QLatin1Char('.'));
    const QStringList pb = b.m_preRelease.split(QLatin1Char('.'));
    for (qsizetype i = 0; i < qMin(pa.size(), pb.size()); ++i) {
        bool na = false;
        bool nb = false;
        const qlonglong ia = pa.at(i).toLongLong(&na);
        const qlonglong ib = pb.at(i).toLongLong(&nb);
        if (na && nb) {
            if (ia != ib)
                return ia < ib ? -1 : 1;
        } else if (na != nb) {
            return na ? -1 : 1;
        } else {
            const int c = QString::compare(pa.at(i), pb.at(i), Qt::CaseInsensitive);
            if (c != 0)
                return c < 0 ? -1 : 1;
        }
    }
    if (pa.size() != pb.size())
        return pa.size() < pb.size() ? -1 : 1;
    return 0;
}

} // namespace MqttDoctor
