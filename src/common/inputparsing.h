#pragma once

#include <QChar>
#include <QString>

#include "common/error.h"

namespace MqttDoctor::InputParsing {

/** What the parsers of profiles, natscli contexts and URLs share: quoting a value in a message, the InvalidInput error, ASCII classes. Pure, any thread. */

inline QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

inline Error invalid(const QString &message, const QString &hint = {})
{
    return Error(Error::Kind::InvalidInput, message, hint);
}

inline bool isAsciiLetter(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('A') && c <= QLatin1Char('Z'));
}

inline bool isAsciiDigit(QChar c)
{
    return c >= QLatin1Char('0') && c <= QLatin1Char('9');
}

} // namespace MqttDoctor::InputParsing
