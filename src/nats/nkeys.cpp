#include "nkeys.h"

#include <openssl/evp.h>

#include <QList>
#include <QRegularExpression>

namespace MqttDoctor::NKeys {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr quint8 kPrefixSeed = 18 << 3; // 'S'
constexpr quint8 kPrefixUser = 20 << 3; // 'U'

quint16 crc16(const QByteArray &data)
{
    // CRC-16/XMODEM (polynomial 0x1021, initial 0), as used by the NKeys encoding.
    quint16 crc = 0;
    for (char c : data) {
        crc ^= static_cast<quint16>(static_cast<quint8>(c) << 8);
        for (int i = 0; i < 8; ++i)
            crc = (crc & 0x8000) ? static_cast<quint16>((crc << 1) ^ 0x1021) : static_cast<quint16>(crc << 1);
    }
    return crc;
}

QByteArray base32Encode(const QByteArray &in)
{
    QByteArray out;
    quint32 buffer = 0;
    int bits = 0;
    for (char c : in) {
        buffer = (buffer << 8) | static_cast<quint8>(c);
        bits += 8;
        while (bits >= 5) {
            out.append(kAlphabet[(buffer >> (bits - 5)) & 31]);
            bits -= 5;
        }
    }
    if (bits > 0)
        out.append(kAlphabet[(buffer << (5 - bits)) & 31]);
    return out;
}

std::optional<QByteArray> base32Decode(const QByteArray &in)
{
    QByteArray out;
    quint32 buffer = 0;
    int bits = 0;
    for (char c : in) {
        const char *p = std::char_traits<char>::find(kAlphabet, 32, c);
        if (!p)
            return std::nullopt;
        buffer = (buffer << 5) | static_cast<quint32>(p - kAlphabet);
        bits += 5;
        if (bits >= 8) {
            out.append(static_cast<char>((buffer >> (bits - 8)) & 0xff));
            bits -= 8;
        }
    }
    return out;
}

QByteArray withCrc(QByteArray raw)
{
    const quint16 crc = crc16(raw);
    raw.append(static_cast<char>(crc & 0xff));
    raw.append(static_cast<char>(crc >> 8));
    return raw;
}

} // namespace

Result<QByteArray> publicKeyFromSeed(const QByteArray &seed)
{
    const Error bad(Error::Kind::InvalidInput, QStringLiteral("the NKey seed is not valid"),
                    QStringLiteral("a user seed starts with \"SU\"; check the seed file"));
    const auto raw = base32Decode(seed.trimmed());
    if (!raw || raw->size() != 36)
        return bad;
    const QByteArray body = raw->left(34);
    const quint16 crc = static_cast<quint16>(static_cast<quint8>(raw->at(34)) | (static_cast<quint8>(raw->at(35)) << 8));
    if (crc16(body) != crc)
        return bad;
    const auto b0 = static_cast<quint8>(body.at(0));
    const auto b1 = static_cast<quint8>(body.at(1));
    if ((b0 & 0xf8) != kPrefixSeed)
        return bad;
    const quint8 type = static_cast<quint8>(((b0 & 7) << 5) | ((b1 & 0xf8) >> 3));
    const QByteArray privateSeed = body.mid(2, 32);

    EVP_PKEY *key =
        EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char *>(privateSeed.constData()), 32);
    if (!key)
        return bad;
    unsigned char pub[32];
    size_t len = sizeof pub;
    const int ok = EVP_PKEY_get_raw_public_key(key, pub, &len);
    EVP_PKEY_free(key);
    if (ok != 1 || len != 32)
        return bad;
    QByteArray publicRaw(1, static_cast<char>(type));
    publicRaw.append(reinterpret_cast<const char *>(pub), 32);
    return base32Encode(withCrc(publicRaw));
}

QByteArray encodeUserSeed(const QByteArray &raw32)
{
    QByteArray raw;
    raw.append(static_cast<char>(kPrefixSeed | (kPrefixUser >> 5)));
    raw.append(static_cast<char>((kPrefixUser & 31) << 3));
    raw.append(raw32.left(32));
    return base32Encode(withCrc(raw));
}

QByteArray findSeed(const QByteArray &text)
{
    static const QRegularExpression re(QStringLiteral("\\bS[A-Z][A-Z2-7]{56}\\b"));
    const auto m = re.match(QString::fromLatin1(text));
    return m.hasMatch() ? m.captured(0).toLatin1() : QByteArray();
}

QByteArray findUserJwt(const QByteArray &text)
{
    static const QRegularExpression re(QStringLiteral("\\beyJ[A-Za-z0-9_\\-]+\\.[A-Za-z0-9_\\-]+\\.[A-Za-z0-9_\\-]+"));
    const auto m = re.match(QString::fromLatin1(text));
    return m.hasMatch() ? m.captured(0).toLatin1() : QByteArray();
}

} // namespace MqttDoctor::NKeys
