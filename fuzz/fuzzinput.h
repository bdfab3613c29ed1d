#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

#include "mqtt/storedmessage.h"

// Helpers shared by the fuzz targets: how raw fuzz bytes become the inputs of our decoders.
namespace MqttDoctor::Fuzz {

inline QByteArray bytes(const uint8_t *data, size_t size)
{
    // The fuzz inputs are small (libFuzzer's -max_len); a QByteArray holds up to 2 GiB.
    return QByteArray(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
}

/**
 * A stored JetStream message from `<subject>\n<header block><body>`: the first line is the subject;
 * when the rest starts with `NATS/1.0`, the header block runs up to and including the first blank
 * line (`\r\n\r\n`, or to the end when there is none) and the body follows. This keeps the corpus
 * readable and lets the fuzzer reach broken header blocks as well as broken bodies.
 */
inline StoredMessage storedMessage(const QByteArray &input, const QString &stream)
{
    StoredMessage m;
    m.stream = stream;
    m.seq = 1;
    const qsizetype lineEnd = input.indexOf('\n');
    const QByteArray rest = lineEnd < 0 ? QByteArray() : input.mid(lineEnd + 1);
    m.subject = QString::fromUtf8(lineEnd < 0 ? input : input.left(lineEnd));
    if (rest.startsWith("NATS/1.0")) {
        const qsizetype blank = rest.indexOf("\r\n\r\n");
        const qsizetype end = blank < 0 ? rest.size() : blank + 4;
        m.headers = rest.left(end);
        m.data = rest.mid(end);
    } else {
        m.data = rest;
    }
    return m;
}

} // namespace MqttDoctor::Fuzz

/** A failed property of a fuzz target: print it and abort, so libFuzzer (and the replay test) report it. */
#define MQTTDOCTOR_FUZZ_CHECK(condition, what)                                            \
    do {                                                                                  \
        if (!(condition)) {                                                               \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", what, __FILE__, __LINE__); \
            abort();                                                                      \
        }                                                                                 \
    } while (false)
