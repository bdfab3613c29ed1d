#include "mqtt/clientidhash.h"

#include <QCryptographicHash>

namespace MqttDoctor {

namespace {
constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr int kBase = 62;
} // namespace

QString ClientIdHash::hash(const QString &clientId)
{
    return hashBytes(clientId.toUtf8());
}

QString ClientIdHash::hashBytes(const QByteArray &bytes)
{
    const QByteArray digest = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
    QString out;
    out.reserve(length);
    for (int i = 0; i < length; ++i) {
        const auto b = static_cast<unsigned char>(digest.at(i));
        out.append(QLatin1Char(kDigits[b % kBase]));
    }
    return out;
}

bool ClientIdHash::isHashToken(QStringView token)
{
    if (token.size() != length)
        return false;
    for (QChar c : token) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'0' && u <= u'9') || (u >= u'A' && u <= u'Z') || (u >= u'a' && u <= u'z');
        if (!ok)
            return false;
    }
    return true;
}

} // namespace MqttDoctor
