#include "mqtt/gojson.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace MqttDoctor {

QByteArray GoJson::string(const QString &s)
{
    static constexpr char kHex[] = "0123456789abcdef";
    QByteArray out;
    out.reserve(s.size() + 2);
    out += '"';
    const QByteArray utf8 = s.toUtf8();
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const auto c = static_cast<unsigned char>(utf8.at(i));
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '<':
        case '>':
        case '&':
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 0xF];
            } else if (c == 0xE2 && i + 2 < utf8.size() && static_cast<unsigned char>(utf8.at(i + 1)) == 0x80
                       && (static_cast<unsigned char>(utf8.at(i + 2)) == 0xA8 || static_cast<unsigned char>(utf8.at(i + 2)) == 0xA9)) {
                out += static_cast<unsigned char>(utf8.at(i + 2)) == 0xA8 ? "\\u2028" : "\\u2029";
                i += 2;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
    return out;
}

QByteArray GoJson::value(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined: return QByteArrayLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QByteArrayLiteral("true") : QByteArrayLiteral("false");
    case QJsonValue::Double: {
        const double d = v.toDouble();
        if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) < 9.2e18)
            return QByteArray::number(v.toInteger(static_cast<qint64>(d)));
        return QByteArray::number(d, 'g', 17);
    }
    case QJsonValue::String: return string(v.toString());
    case QJsonValue::Array: {
        QByteArray out("[");
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (i)
                out += ',';
            out += value(a.at(i));
        }
        return out + ']';
    }
    case QJsonValue::Object: {
        QByteArray out("{");
        const QJsonObject o = v.toObject();
        bool first = true;
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (!first)
                out += ',';
            first = false;
            out += string(it.key()) + ':' + value(it.value());
        }
        return out + '}';
    }
    }
    return QByteArrayLiteral("null");
}

} // namespace MqttDoctor
