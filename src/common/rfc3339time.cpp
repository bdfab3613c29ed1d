#include "common/rfc3339time.h"

#include <QDateTime>
#include <QtNumeric>

#include <chrono>

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

QString formatMs(const QDateTime &utc)
{
    using namespace std::chrono;
    if (!utc.isValid() || utc.timeSpec() != Qt::UTC)
        return utc.toString(Qt::ISODateWithMs);
    const qint64 ms = utc.toMSecsSinceEpoch();
    const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(ms)));
    const year_month_day date(day);
    const int year = int(date.year());
    if (year < 1 || year > 9999)
        return utc.toString(Qt::ISODateWithMs); // Qt's own form for years it writes otherwise
    qint64 inDay = ms - duration_cast<milliseconds>(day.time_since_epoch()).count();
    char16_t text[24];
    auto put = [&text](int at, int value, int digits) {
        for (int i = digits - 1; i >= 0; --i, value /= 10)
            text[at + i] = char16_t(u'0' + value % 10);
    };
    put(0, year, 4);
    text[4] = u'-';
    put(5, int(unsigned(date.month())), 2);
    text[7] = u'-';
    put(8, int(unsigned(date.day())), 2);
    text[10] = u'T';
    put(11, int(inDay / 3600000), 2);
    text[13] = u':';
    put(14, int(inDay / 60000 % 60), 2);
    text[16] = u':';
    put(17, int(inDay / 1000 % 60), 2);
    text[19] = u'.';
    put(20, int(inDay % 1000), 3);
    text[23] = u'Z';
    return QString(reinterpret_cast<const QChar *>(text), 24);
}

} // namespace MqttDoctor::Rfc3339Time
