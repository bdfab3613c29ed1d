#include "duration.h"

namespace MqttDoctor {

std::optional<double> parseDurationMs(QStringView text, bool allowDays);

// Go-style durations as natscli takes them: "5s", "500ms", "1m30s", "1.5h"; returns milliseconds. */
std::optional<double> parseGoDurationMs(QStringView text)
{
    return parseDurationMs(text, false);
}

std::optional<double> parseAgeMs(QStringView text)
{
    return parseDurationMs(text, true);
}

QString formatAge(qint64 seconds)
{
    if (seconds < 0)
        seconds = 0;
    const qint64 days = seconds / 86400;
    const qint64 hours = (seconds % 86400) / 3600;
    const qint64 minutes = (seconds % 3600) / 60;
    if (days > 0)
        return hours > 0 ? QStringLiteral("%1d %2h").arg(days).arg(hours) : QStringLiteral("%1d").arg(days);
    if (hours > 0)
        return minutes > 0 ? QStringLiteral("%1h %2m").arg(hours).arg(minutes) : QStringLiteral("%1h").arg(hours);
    if (minutes > 0)
        return QStringLiteral("%1m").arg(minutes);
    return QStringLiteral("%1s").arg(seconds);
}

std::optional<double> parseDurationMs(QStringView text, bool allowDays)
{
    text = text.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (text == u"0")
        return 0.0;
    double total = 0;
    qsizetype i = 0;
    while (i < text.size()) {
        const qsizetype numberStart = i;
        while (i < text.size() && ((text[i] >= QLatin1Char('0') && text[i] <= QLatin1Char('9')) || text[i] == QLatin1Char('.')))
            ++i;
        const QStringView number = text.sliced(numberStart, i - numberStart);
        bool ok = false;
        const double n = number.toDouble(&ok);
        if (number.isEmpty() || !ok)
            return std::nullopt;
        const qsizetype unitStart = i;
        while (i < text.size()
               && (((text[i] >= QLatin1Char('a') && text[i] <= QLatin1Char('z'))
                    || (text[i] >= QLatin1Char('A') && text[i] <= QLatin1Char('Z')))
                   || text[i] == QChar(0xb5) || text[i] == QChar(0x3bc)))
            ++i;
        const QStringView unit = text.sliced(unitStart, i - unitStart);
        double factor = 0;
        if (unit == u"ns")
            factor = 1e-6;
        else if (unit == u"us" || unit == u"\u00b5s" || unit == u"\u03bcs")
            factor = 1e-3;
        else if (unit == u"ms")
            factor = 1;
        else if (unit == u"s")
            factor = 1000;
        else if (unit == u"m")
            factor = 60 * 1000;
        else if (unit == u"h")
            factor = 60 * 60 * 1000;
        else if (allowDays && unit == u"d")
            factor = 24.0 * 60 * 60 * 1000;
        else
            return std::nullopt;
        total += n * factor;
    }
    return total;
}

} // namespace MqttDoctor
