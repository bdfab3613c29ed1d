#include "error.h"

namespace MqttDoctor {

QString Error::kindName(Kind kind)
{
    switch (kind) {
    case Kind::None: return QStringLiteral("none");
    case Kind::InvalidInput: return QStringLiteral("invalid_input");
    case Kind::ConnectionRefused: return QStringLiteral("connection_refused");
    case Kind::Dns: return QStringLiteral("dns");
    case Kind::NotNatsServer: return QStringLiteral("not_nats_server");
    case Kind::AuthFailed: return QStringLiteral("auth_failed");
    case Kind::Tls: return QStringLiteral("tls");
    case Kind::Timeout: return QStringLiteral("timeout");
    case Kind::NoSystemAccess: return QStringLiteral("no_system_access");
    case Kind::NoResponders: return QStringLiteral("no_responders");
    case Kind::PermissionDenied: return QStringLiteral("permission_denied");
    case Kind::JetStream: return QStringLiteral("jetstream");
    case Kind::NotFound: return QStringLiteral("not_found");
    case Kind::ReadOnly: return QStringLiteral("read_only");
    case Kind::Protocol: return QStringLiteral("protocol");
    case Kind::Io: return QStringLiteral("io");
    case Kind::Internal: return QStringLiteral("internal");
    }
    return QStringLiteral("unknown");
}

} // namespace MqttDoctor
