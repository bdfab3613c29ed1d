#include "mqtt/storedmessage.h"

#include "common/decodeerror.h"

namespace MqttDoctor {

namespace {
Error msgError(const QString &field, const QString &reason)
{
    return DecodeError{QStringLiteral("stored message"), field, reason}.toError();
}

Result<QByteArray> base64Field(const QJsonObject &o, const QString &key)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() || v.isNull())
        return QByteArray();
    if (!v.isString())
        return msgError(key, QStringLiteral("expected a base64 string"));
    auto decoded = QByteArray::fromBase64Encoding(v.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return msgError(key, QStringLiteral("invalid base64"));
    return *decoded;
}
} // namespace

Result<StoredMessage> StoredMessage::fromJson(const QJsonObject &object)
{
    QJsonObject m = object;
    if (object.contains(QStringLiteral("error"))) {
        const QJsonObject e = object.value(QStringLiteral("error")).toObject();
        return Error(Error::Kind::JetStream, QStringLiteral("message get: ") + e.value(QStringLiteral("description")).toString())
            .withJsErrCode(e.value(QStringLiteral("err_code")).toInt());
    }
    if (object.value(QStringLiteral("message")).isObject())
        m = object.value(QStringLiteral("message")).toObject();
    StoredMessage out;
    const QJsonValue subject = m.value(QStringLiteral("subject"));
    if (!subject.isString() || subject.toString().isEmpty())
        return msgError(QStringLiteral("subject"), QStringLiteral("missing or not a string"));
    out.subject = subject.toString();
    out.stream = m.value(QStringLiteral("stream")).toString();
    const QJsonValue seq = m.value(QStringLiteral("seq"));
    if (!seq.isUndefined()) {
        const double d = seq.toDouble(-1);
        if (!seq.isDouble() || d < 0 || d > 9007199254740992.0 || d != static_cast<double>(static_cast<qint64>(d)))
            return msgError(QStringLiteral("seq"), QStringLiteral("expected a non-negative integer"));
        out.seq = static_cast<quint64>(seq.toInteger());
    }
    auto hdrs = base64Field(m, QStringLiteral("hdrs"));
    if (!hdrs)
        return hdrs.error();
    auto data = base64Field(m, QStringLiteral("data"));
    if (!data)
        return data.error();
    out.headers = *hdrs;
    out.data = *data;
    return out;
}

} // namespace MqttDoctor
