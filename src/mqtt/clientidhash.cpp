#include "mqtt/clientidhash.h"

#include <openssl/evp.h>
#include <openssl/sha.h>

namespace MqttDoctor {

namespace {
constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
constexpr int kBase = 62;

// SHA-256 through a digest fetched once and a context kept per thread: the one-shot SHA256() looks
// the algorithm up on every call, which costs more than hashing a client ID (one hash per loaded session).
bool sha256(const char *data, size_t size, unsigned char (&digest)[SHA256_DIGEST_LENGTH])
{
    static EVP_MD *const md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    struct Context
    {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        ~Context() { EVP_MD_CTX_free(ctx); }
    };
    thread_local Context context;
    unsigned int length = 0;
    return md && context.ctx && EVP_DigestInit_ex2(context.ctx, md, nullptr) == 1 && EVP_DigestUpdate(context.ctx, data, size) == 1
        && EVP_DigestFinal_ex(context.ctx, digest, &length) == 1 && length == SHA256_DIGEST_LENGTH;
}

void hashInto(const char *data, size_t size, char (&out)[ClientIdHash::length])
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    if (!sha256(data, size, digest))
        SHA256(reinterpret_cast<const unsigned char *>(data), size, digest); // the slower lookup still works
    for (int i = 0; i < ClientIdHash::length; ++i)
        out[i] = kDigits[digest[i] % kBase];
}

// Client IDs are usually short ASCII: hashed from a stack copy; others through their UTF-8 bytes.
void hashOfId(const QString &clientId, char (&out)[ClientIdHash::length])
{
    char ascii[128];
    if (clientId.size() <= qsizetype(sizeof ascii)) {
        qsizetype n = 0;
        for (const QChar c : clientId) {
            if (c.unicode() >= 0x80)
                break;
            ascii[n++] = char(c.unicode());
        }
        if (n == clientId.size()) {
            hashInto(ascii, size_t(n), out);
            return;
        }
    }
    const QByteArray utf8 = clientId.toUtf8();
    hashInto(utf8.constData(), size_t(utf8.size()), out);
}

} // namespace

QString ClientIdHash::hash(const QString &clientId)
{
    char out[length];
    hashOfId(clientId, out);
    return QString::fromLatin1(out, length);
}

bool ClientIdHash::hashEquals(const QString &clientId, QStringView hash)
{
    if (hash.size() != length)
        return false;
    char out[length];
    hashOfId(clientId, out);
    for (int i = 0; i < length; ++i)
        if (hash.at(i) != QLatin1Char(out[i]))
            return false;
    return true;
}

QString ClientIdHash::hashBytes(const QByteArray &bytes)
{
    char out[length];
    hashInto(bytes.constData(), size_t(bytes.size()), out);
    return QString::fromLatin1(out, length);
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
