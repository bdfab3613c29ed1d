#pragma once

#include <QByteArray>

#include "common/result.h"

namespace MqttDoctor::NKeys {

/**
 * NATS NKeys: Ed25519 keys written in base32 with a type prefix and a CRC16 (the public format of
 * the NATS ecosystem). nats.c 3.4.1 needs the public key next to a seed and cannot derive it, so
 * we do. Thread-safe.
 */

/** The public key ("U...", "A...", ...) that belongs to an encoded seed ("SU...", "SA..."). */
Result<QByteArray> publicKeyFromSeed(const QByteArray &seed);
/** Encodes a 32-byte Ed25519 private seed as a user seed ("SU..."); used by tests and tools. */
QByteArray encodeUserSeed(const QByteArray &raw32);
/** Picks the first seed found in a text (a seed file, or a .creds file's NKEY SEED block). */
QByteArray findSeed(const QByteArray &text);
/** Picks the JWT out of a .creds file's "BEGIN NATS USER JWT" block (or a bare JWT). */
QByteArray findUserJwt(const QByteArray &text);

} // namespace MqttDoctor::NKeys
