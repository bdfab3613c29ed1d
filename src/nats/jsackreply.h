#pragma once

#include <QtGlobal>

namespace MqttDoctor {

/**
 * What StreamReader needs from the reply subject of a message a JetStream consumer delivers:
 * `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time ns>.<pending>` (9 tokens) or
 * `$JS.ACK.<domain>.<account hash>.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time ns>.
 * <pending>[.<random>...]` (11 or more; what follows the pending count is ignored). Parsed in place, without the
 * allocations of nats.c's natsMsg_GetMetaData() (a struct and copies of the stream, consumer and domain
 * names per message), with the same rules: a reply it does not accept is left to natsMsg_GetMetaData.
 * Pure, any thread.
 */
struct JsAckReply
{
    quint64 streamSequence = 0;
    quint64 consumerSequence = 0; ///< counts the consumer's deliveries from 1: a gap means a message was lost
    qint64 timeNs = 0;
    quint64 pending = 0;

    /** Parses `reply`; false (and `out` unchanged) when it is not a JetStream ack subject of either form. */
    static bool parse(const char *reply, JsAckReply &out);
};

} // namespace MqttDoctor
