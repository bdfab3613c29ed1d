#pragma once

#include <memory>

#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Requests to the system account (`$SYS.REQ.*`). PING subjects are answered once per server, so
 * replies are gathered until a quiet period. Blocking: call on a worker thread.
 */
class SystemClient final
{
public:
    explicit SystemClient(std::shared_ptr<NatsConnection> connection, int quietMs = 300);

    /** A parsed reply: the answering server's envelope and the data. */
    struct Reply
    {
        QJsonObject server;  ///< {name, host, id, ver, cluster?, jetstream, ...}
        QJsonObject data;    ///< "data" (or "statsz")
        QJsonObject error;   ///< non-empty when the server answered with an error
    };

    /** `$SYS.REQ.SERVER.PING.<what>` (VARZ, ACCOUNTZ, JSZ, CONNZ, ...). */
    Result<QList<Reply>> ping(const QString &what, const QJsonObject &options = {});
    /** `$SYS.REQ.ACCOUNT.<account>.<what>`. */
    Result<QList<Reply>> account(const QString &account, const QString &what, const QJsonObject &options = {});

    /**
     * Parses one raw reply; a reply that is not a JSON object with an object "data" (or "statsz")
     * or an object "error" is a Protocol error naming `subject`. Replies that are errors are kept
     * (`error` set) unless every server answered with one, which makes the request fail.
     */
    static Result<Reply> parse(const QByteArray &raw, const QString &subject = {});
    /** "description (code)" of an error reply. */
    static QString describeError(const QJsonObject &error);

private:
    Result<QList<Reply>> gather(const QString &subject, const QJsonObject &options);
    std::shared_ptr<NatsConnection> m_connection;
    int m_quietMs;
};

} // namespace MqttDoctor
