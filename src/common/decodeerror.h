#pragma once

#include <QString>

#include "common/error.h"

namespace MqttDoctor {

/**
 * Why a stored record (an MQTT session or retained message, a NATS header block...) could not be decoded.
 * A value type; pure and thread-safe. Decoders return it inside a Result as an
 * Error of kind Error::Kind::InvalidInput whose message is toString().
 */
struct DecodeError final
{
    QString record; ///< "session record", "retained message", ...
    QString field; ///< JSON key or header name at fault; empty for the whole record
    QString reason; ///< what is wrong, e.g. "expected an object, got a string"

    /** "session record: field 'subs': expected an object, got a string". */
    QString toString() const
    {
        QString s = record + QStringLiteral(": ");
        if (!field.isEmpty())
            s += QStringLiteral("field '") + field + QStringLiteral("': ");
        return s + reason;
    }

    /** An Error of kind InvalidInput carrying toString(). */
    Error toError() const { return Error(Error::Kind::InvalidInput, toString()); }
};

} // namespace MqttDoctor
