#include "common/rfc3339time.h"

#include <QDateTime>
#include <QtNumeric>

namespace MqttDoctor::Rfc3339Time {

std::optional<qint64> parseNs(const QString &input)
{
    QString text = input.trimmed();
    if (text.size() < 20 || text.at(10) != QLatin1Char('T'))
        return std::nullopt;
    qint64 fractionNs = 0;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot > 0) {
        qsizetype end = dot + 1;
        while (end < text.size() && text.at(end).isDigit())
            ++end;
        const QString digits = text.mid(dot + 1, end - dot - 1);
        if (digits.isEmpty() || digits.size() > 9)
            return std::nullopt;
        fractionNs = digits.leftJustified(9, QLatin1Char('0')).toLongLong();
        text.remove(dot, end - dot);
    }
    const QDateTime dt = QDateTime::fromString(text, Qt::ISODate);
    if (!dt.isValid())
        return std::nullopt;
    // Nanoseconds since 1970 fit in 64 bits from 1677-09-21 to 2262-04-11 only: any other time is not one here.
    // Before 1970 the fraction counts from the next second down, so the earliest second still fits.
    qint64 secs = dt.toSecsSinceEpoch();
    if (secs < 0 && fractionNs > 0) {
        ++secs;
        fractionNs -= 1000000000;
    }
    qint64 ns = 0;
    if (qMulOverflow(secs, qint64(1000000000), &ns) || qAddOverflow(ns, fractionNs, &ns))
        return std::nullopt;
    return ns;
}

} // namespace MqttDoctor::Rfc3339Time
