#include "nats/internal/natsmessagecopy.h"

#include <cstdlib>
#include <cstring>

#include <QVarLengthArray>

namespace MqttDoctor {

namespace {

// The header block exactly as received, without nats.c parsing it. nats.c 3.x keeps a received
// message in one allocation laid out as `subject\0 reply\0 headers\0 data\0` and exposes no getter
// for the raw block; this reads it between the reply and the data, only when that region has the
// exact shape of a header block (`NATS/1.0...\r\n\r\n` followed by the terminating NUL, no NUL
// inside). Anything else (another layout, no reply subject) returns false and the caller rebuilds
// the block from nats.c's parsed headers.
bool layoutAsExpected()
{
    // Only on the nats.c release this was verified against (3.4.x, the same at build and run time),
    // checked once on a message of our own: subject, reply and data back to back.
    static const bool ok = [] {
        if (std::strcmp(nats_GetVersion(), NATS_VERSION_STRING) != 0)
            return false;
        natsMsg *probe = nullptr;
        if (natsMsg_Create(&probe, "s", "r", "dd", 2) != NATS_OK || !probe)
            return false;
        const bool same = natsMsg_GetSubject(probe) + 2 == natsMsg_GetReply(probe) && natsMsg_GetReply(probe) + 2 == natsMsg_GetData(probe);
        natsMsg_Destroy(probe);
        return same;
    }();
    return ok;
}

bool rawHeaderBlock(natsMsg *m, const char *data, QByteArray &out)
{
#if NATS_VERSION_MAJOR == 3 && NATS_VERSION_MINOR == 4
    if (!layoutAsExpected())
        return false;
    const char *reply = natsMsg_GetReply(m);
    if (!reply || !data)
        return false;
    const char *start = reply + std::strlen(reply) + 1;
    if (start == data)
        return true; // no header block
    if (start > data || data - start > 1024 * 1024 || data - start < 13 || data[-1] != '\0')
        return false;
    const qsizetype len = qsizetype(data - start - 1);
    if (std::memcmp(start, "NATS/1.0", 8) != 0 || std::memcmp(start + len - 4, "\r\n\r\n", 4) != 0
        || std::memchr(start, '\0', size_t(len)) != nullptr)
        return false;
    out = QByteArray(start, len);
    return true;
#else
    Q_UNUSED(m);
    Q_UNUSED(data);
    Q_UNUSED(out);
    return false;
#endif
}

// The subject as a QString, shared with the previous message's when the bytes are the same (2.9's
// retained messages all sit on `$MQTT.rmsgs`; a stream read on one thread repeats its subjects in runs).
QString subjectOf(const char *subject)
{
    struct Last
    {
        char bytes[128];
        size_t size = 0;
        QString text;
    };
    thread_local Last last;
    const size_t size = std::strlen(subject);
    if (size == last.size && size != 0 && std::memcmp(subject, last.bytes, size) == 0)
        return last.text;
    QString text = QString::fromUtf8(subject, qsizetype(size));
    if (size <= sizeof last.bytes) {
        std::memcpy(last.bytes, subject, size);
        last.size = size;
        last.text = text;
    }
    return text;
}

} // namespace

void copyNatsMessage(natsMsg *m, StreamMessage &out)
{
    out.subject = subjectOf(natsMsg_GetSubject(m));
    const char *data = natsMsg_GetData(m);
    const int len = natsMsg_GetDataLength(m);
    if (data && len > 0)
        out.data = QByteArray(data, len);
    if (rawHeaderBlock(m, data, out.headers))
        return;
    const char **keys = nullptr;
    int count = 0;
    if (natsMsgHeader_Keys(m, &keys, &count) == NATS_OK && keys) {
        // Built on the stack, then one exact allocation: 100,000 kept values must not carry spare capacity.
        QVarLengthArray<char, 512> block;
        auto add = [&block](const char *text, qsizetype n) { block.append(text, n); };
        add("NATS/1.0\r\n", 10);
        for (int i = 0; i < count; ++i) {
            const char **values = nullptr;
            int n = 0;
            if (natsMsgHeader_Values(m, keys[i], &values, &n) == NATS_OK && values) {
                const qsizetype keyLen = qsizetype(std::strlen(keys[i]));
                for (int j = 0; j < n; ++j) {
                    add(keys[i], keyLen);
                    add(":", 1);
                    add(values[j], qsizetype(std::strlen(values[j])));
                    add("\r\n", 2);
                }
                free(static_cast<void *>(values));
            }
        }
        add("\r\n", 2);
        free(static_cast<void *>(keys));
        out.headers = QByteArray(block.constData(), block.size());
    }
}

} // namespace MqttDoctor
