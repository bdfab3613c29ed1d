#pragma once

#include <QCoreApplication>
#include <QString>

#include "common/error.h"

namespace MqttDoctor {

/**
 * How the GUI words a core Error: its hint with the GUI's way to change the setting the error names
 * (Error::setting(): a field of the connection settings), and message and hint joined for a notice
 * or a status line. Every panel and dialog shows errors through these, so they all say the same.
 */
class ErrorText final
{
    Q_DECLARE_TR_FUNCTIONS(MqttDoctor::ErrorText)

public:
    /** The hint, with where in the GUI to change the setting it names; empty when there is none. */
    static QString hint(const Error &error);
    /** The message, then `separator` and hint() when there is one. */
    static QString withHint(const Error &error, const QString &separator = QStringLiteral("\n"));
    /** `separator` and hint(), or nothing: for a message that a caller words itself. */
    static QString hintSuffix(const Error &error, const QString &separator = QStringLiteral("\n"));
};

} // namespace MqttDoctor
