#pragma once

#include <QString>

/**
 * The exact format strings nats-server logs for MQTT stream, session and retained problems
 * (checked against the 2.9.10 source where it has them), and the
 * JetStream error texts that fill their "%v". Used by the finding catalogue to say which server log
 * lines a finding explains. Header-only constants; any thread.
 */
namespace MqttDoctor::MqttLogFormats {

// Account session manager setup (docs/internals.md, "Server log lines: account setup").
inline QString lookupStream()
{
    return QStringLiteral("lookup %s stream for account %q: %v");
}
inline QString replicasMismatch()
{
    return QStringLiteral("MQTT %s stream replicas mismatch: current is %v but configuration is %v for '%s > %s'");
}
inline QString createSessionsStream()
{
    return QStringLiteral("create sessions stream for account %q: %v");
}
inline QString createMessagesStream()
{
    return QStringLiteral("create messages stream for account %q: %v");
}
inline QString createQos2InStream()
{
    return QStringLiteral("create QoS2 incoming messages stream for account %q: %v");
} // 2.10+
inline QString createOutStream()
{
    return QStringLiteral("create QoS2 outgoing PUBREL stream for account %q: %v");
} // 2.10+
inline QString createRetainedStream()
{
    return QStringLiteral("create retained messages stream for account %q: %v");
}
inline QString lookupOrCreateRetainedStream()
{
    return QStringLiteral("could not look up or create the retained messages stream for account %q");
} // 2.12.14+, 2.14.4+
inline QString lookupRetainedStream()
{
    return QStringLiteral("could not look up the retained messages stream for account %q");
} // 2.12.14+, 2.14.4+
inline QString updateStreamConfig()
{
    return QStringLiteral("failed to update stream config: %w");
} // 2.10+
inline QString createRetainedConsumer()
{
    return QStringLiteral("create retained messages consumer for account %q: %v");
}
inline QString retainedLoadTimeout()
{
    return QStringLiteral("Timing out waiting to load %v retained messages");
} // 2.9.10-2.10.29
inline QString requestTimeoutOld()
{
    return QStringLiteral("timeout for request type %q on %q (reply=%q)");
} // up to 2.10.7
inline QString requestTimeout()
{
    return QStringLiteral("timeout after %v: request type %q on %q (reply=%q)");
} // 2.10.8+

// Session records (docs/internals.md, "Server log lines: session records and the connect path").
inline QString loadSessionOld()
{
    return QStringLiteral("loading session record for account %q, session %q: %v");
} // up to 2.11.14, 2.12.5
inline QString loadSession()
{
    return QStringLiteral("loading session record: %w");
} // 2.11.15+, 2.12.6+, 2.14.0+
inline QString unmarshalSessionOld()
{
    return QStringLiteral("unmarshal of session record at sequence %v for account %q, session %q: %v");
}
inline QString unmarshalSession()
{
    return QStringLiteral("unmarshal of session record at sequence %v: %w");
}
inline QString sessionCollision()
{
    return QStringLiteral("stored session does not match client ID");
} // 2.11.15+, 2.12.6+, 2.14.0+
inline QString replacingOldClient()
{
    return QStringLiteral("Replacing old client %q since both have the same client ID %q");
}
inline QString remoteTakeover()
{
    return QStringLiteral("Closing because a remote connection has started with the same client ID: %q");
}
inline QString persistSession()
{
    return QStringLiteral("unable to persist session %q (seq=%v): %v");
}
inline QString deleteSessionConsumer()
{
    return QStringLiteral("unable to delete consumer %q for session %q: %v");
}
inline QString addSubscriptionConsumer()
{
    return QStringLiteral("Unable to add JetStream consumer for subscription on %q: err=%v");
}
inline QString addPubRelConsumer()
{
    return QStringLiteral("Unable to add JetStream consumer for PUBREL for client %q: err=%v");
} // 2.10+
inline QString storeRetained()
{
    return QStringLiteral("unable to store retained message for account %q, subject %q: %v");
}
inline QString invalidClientIdCharacter()
{
    return QStringLiteral("invalid character in client ID %q");
} // 2.11.15+, 2.12.6+, 2.14.0+
inline QString invalidUtf8()
{
    return QStringLiteral("invalid utf8 for %s %q");
} // 2.11.15+, 2.12.6+, 2.14.0+
inline QString invalidNullCharacter()
{
    return QStringLiteral("invalid null character in %s %q");
} // 2.11.15+, 2.12.6+, 2.14.0+
inline QString topicCharacterUnsupported()
{
    return QStringLiteral("character not supported for MQTT topics");
}
inline QString retainedSkippedDelCharacter()
{
    return QStringLiteral("Skipping retained message for subject %q: unsupported character 0x7f");
} // 2.14.0+
inline QString accountResourcesExceeded()
{
    return QStringLiteral("JetStream resource limits exceeded for account: %q");
}

// Legacy per-session streams → $MQTT_sess (docs/internals.md, "Legacy per-session streams: migration to $MQTT_sess").
inline QString transferSessionsStart()
{
    return QStringLiteral("Transferring %v MQTT session streams...");
}
inline QString transferSessionsList()
{
    return QStringLiteral("Unable to transfer MQTT session streams: %v");
}
inline QString transferSessionLoad()
{
    return QStringLiteral("   Unable to load session record: %v");
}
inline QString transferSessionUnmarshal()
{
    return QStringLiteral("    Unable to unmarshal the content of this stream, may not be a legitimate MQTT session stream, skipping");
}
inline QString transferSessionStore()
{
    return QStringLiteral("    Unable to transfer the session record: %v");
}
inline QString transferSessionsRetry()
{
    return QStringLiteral("Failed to transfer all MQTT session streams, will try again in %v");
}

// Retained messages $MQTT.rmsgs → $MQTT.rmsgs.<subject>, 2.10+ (docs/internals.md, "Retained messages: the 2.10 migration").
inline QString transferRetainedDone()
{
    return QStringLiteral("Processed %d messages from '$MQTT.rmsgs', successfully transferred %d in %v");
}
inline QString transferRetainedTimeout()
{
    return QStringLiteral(
        "timed out while transferring retained messages from '$MQTT.rmsgs' after %v, %d processed, %d successfully transferred");
}
inline QString transferRetainedStore()
{
    return QStringLiteral("    Unable to transfer the retained message with sequence %d: %v");
}
inline QString transferRetainedUnmarshal()
{
    return QStringLiteral("    Unable to unmarshal retained message with sequence %d, skipping");
}
inline QString transferRetainedRetry()
{
    return QStringLiteral("Failed to transfer %d MQTT retained messages, will try again in %v");
} // 2.10.0-2.10.5

// JetStream error texts found in the "%v" of the lines above.
inline QString errNotEnabledForAccount()
{
    return QStringLiteral("JetStream not enabled for account (10039)");
}
inline QString errStreamNotFound()
{
    return QStringLiteral("stream not found (10059)");
}
inline QString errNoMessageFound()
{
    return QStringLiteral("no message found (10037)");
}
inline QString errSubjectsOverlap()
{
    return QStringLiteral("subjects overlap with an existing stream (10065)");
}
inline QString errMaxStreams()
{
    return QStringLiteral("maximum number of streams reached (10027)");
}
inline QString errMaxBytesRequired()
{
    return QStringLiteral("account requires a stream config to have max bytes set (10113)");
}
inline QString errAccountResources()
{
    return QStringLiteral("resource limits exceeded for account (10002)");
}
inline QString errReplicasNotSupported()
{
    return QStringLiteral("replicas > 1 not supported in non-clustered mode (10074)");
}
inline QString errNoSuitablePeers()
{
    return QStringLiteral("no suitable peers for placement (10005)");
}
inline QString errFilterNotSubset()
{
    return QStringLiteral("consumer filter subject is not a valid subset of the interest subjects (10093)");
}
inline QString errTimeout()
{
    return QStringLiteral("timeout");
}

} // namespace MqttDoctor::MqttLogFormats
