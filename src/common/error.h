#pragma once

#include <QMetaType>
#include <QString>

namespace MqttDoctor {

/**
 * What went wrong, in the terms an operator acts on. Every user-facing message names what failed,
 * why (with the server's code where there is one) and what to do.
 */
class Error final
{
public:
    enum class Kind {
        None,
        InvalidInput, ///< bad option, bad profile file, bad URL
        ConnectionRefused, ///< nothing listens at the URL(s), the host cannot be reached, or the server closed the connection
        Dns, ///< the URL's host name does not resolve
        NotNatsServer, ///< something answers at the URL, but not a NATS client port (MQTT, HTTP monitoring, ...)
        AuthFailed, ///< wrong user, password, token, NKey or creds
        Tls, ///< TLS: handshake or certificate problem, the server requires TLS, or does not offer it
        Timeout, ///< the server did not answer in time (connect, handshake or request)
        NoSystemAccess, ///< the connection has no system-account privileges
        NoResponders, ///< nobody serves the subject (e.g. JetStream off for the account)
        PermissionDenied, ///< the server refused a publish or subscribe
        JetStream, ///< the JetStream API answered with an error (see jsErrCode())
        NotFound, ///< the thing asked for does not exist
        ReadOnly, ///< a change was refused because the profile does not allow changes
        Protocol, ///< unexpected reply shape
        Io, ///< local file problem
        Internal,
    };

    /**
     * The connection setting that would resolve the error. The core's hint names what to do in words
     * that fit every front end; each front end adds how its user changes that setting (a CLI flag, a
     * field of the connection dialog).
     */
    enum class Setting {
        None,
        AccountCredentials, ///< a user of the account itself (user/password, token, NKey or creds), or its entry in the profile's accounts
        AllowChanges, ///< the profile's allow_changes switch
        SystemCredentials, ///< a user of the system account (user/password or creds), or the profile's "system" entry
    };

    Error() = default;
    Error(Kind kind, QString message, QString hint = {}) : m_kind(kind), m_message(std::move(message)), m_hint(std::move(hint)) {}

    Kind kind() const { return m_kind; }
    /** One sentence: what failed and why. */
    QString message() const { return m_message; }
    /** What the operator can do about it; may be empty. */
    QString hint() const { return m_hint; }
    /** The nats.c status (natsStatus) behind the error, 0 when none. */
    int natsStatus() const { return m_natsStatus; }
    /** The JetStream API err_code (e.g. 10059), 0 when none. */
    int jsErrCode() const { return m_jsErrCode; }

    Error &withNatsStatus(int s)
    {
        m_natsStatus = s;
        return *this;
    }
    Error &withJsErrCode(int c)
    {
        m_jsErrCode = c;
        return *this;
    }
    Error &withHint(QString h)
    {
        m_hint = std::move(h);
        return *this;
    }
    /** The setting that would resolve this error (None when no setting does). */
    Setting setting() const { return m_setting; }
    Error &withSetting(Setting s)
    {
        m_setting = s;
        return *this;
    }
    /**
     * A usage error: the request itself is wrong (an option or argument that is missing, unknown or out
     * of range), not a server, file or profile. Its kind stays what it is (InvalidInput); the CLI exits 64.
     */
    bool isUsage() const { return m_usage; }
    Error &asUsage()
    {
        m_usage = true;
        return *this;
    }
    /** Prefixes the message with what was being done ("listing streams: ..."). */
    Error &prefixed(const QString &context)
    {
        m_message = context + QStringLiteral(": ") + m_message;
        return *this;
    }

    /** Message and hint together, for a terminal or a status line. */
    QString toString() const { return m_hint.isEmpty() ? m_message : m_message + QStringLiteral(" (") + m_hint + QLatin1Char(')'); }

    static QString kindName(Kind kind);

private:
    Kind m_kind = Kind::None;
    QString m_message;
    QString m_hint;
    int m_natsStatus = 0;
    int m_jsErrCode = 0;
    Setting m_setting = Setting::None;
    bool m_usage = false;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::Error)
