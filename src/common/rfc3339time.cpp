#include "common/rfc3339time.h"

#include <QDateTime>

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
    return dt.toSecsSinceEpoch() * 1000000000LL + fractionNs;
}

} // namespace MqttDoctor::Rfc3339Time
