#pragma once

#include <functional>
#include <memory>

#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "nats/serverroster.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * Requests to the system account (`$SYS.REQ.*`). PING subjects are answered once per server: a
 * request ends as soon as every server of the roster has answered (the first request of a roster
 * learns it, see ServerRoster), and waits `quietMs` after the last reply only when one of them does
 * not answer. Servers that did not answer are named by roster()->unanswered().
 *
 * Blocking: call on a worker thread. Several threads may use SystemClients that share one
 * connection and roster at once.
 */
class SystemClient final
{
public:
    static constexpr int kDefaultQuietMs = 300;

    /** Without a roster the client learns one of its own (tests, one-off requests). */
    explicit SystemClient(std::shared_ptr<NatsConnection> connection, std::shared_ptr<ServerRoster> roster = {},
                          int quietMs = kDefaultQuietMs);

    /** A parsed reply: the answering server's envelope and the data. */
    struct Reply
    {
        QJsonObject server; ///< {name, host, id, ver, cluster?, jetstream, ...}
        QJsonObject data; ///< "data" (or "statsz")
        QJsonObject error; ///< non-empty when the server answered with an error
    };

    /** One `$SYS.REQ.SERVER.PING.<what>` request of several sent at once (pingEach). */
    struct Request
    {
        QString what;
        QJsonObject options;
    };
    /** Handles one parsed reply of request `index` (error replies included, see Reply::error). */
    using ReplyHandler = std::function<Result<void>(int index, Reply &&reply)>;

    /** `$SYS.REQ.SERVER.PING.<what>` (VARZ, ACCOUNTZ, JSZ, CONNZ, ...). */
    Result<QList<Reply>> ping(const QString &what, const QJsonObject &options = {});
    /**
     * Several pings at once (at most `window` in flight), each reply handed to `handler` as soon as
     * it is parsed, so that big replies (JSZ pages) need not all be held. Fails as ping() does for
     * any of them: a request no server answers, a server answering one request twice, a request
     * every server answered with an error, or the handler's error.
     */
    Result<void> pingEach(const QList<Request> &requests, const ReplyHandler &handler, int window = 4);
    /** `$SYS.REQ.ACCOUNT.<account>.<what>`. */
    Result<QList<Reply>> account(const QString &account, const QString &what, const QJsonObject &options = {});
    /**
     * `$SYS.REQ.SERVER.<serverId>.<what>`: one server's answer, without waiting for the others. An error
     * reply is an error naming the subject.
     */
    Result<Reply> server(const QString &serverId, const QString &what, const QJsonObject &options = {});

    /**
     * Parses one raw reply; a reply that is not a JSON object with an object "data" (or "statsz")
     * or an object "error" is a Protocol error naming `subject`. Replies that are errors are kept
     * (`error` set) unless every server answered with one, which makes the request fail.
     */
    static Result<Reply> parse(const QByteArray &raw, const QString &subject = {});
    /** "description (code)" of an error reply. */
    static QString describeError(const QJsonObject &error);

    /** The servers this client's requests expect, and those that did not answer. */
    const std::shared_ptr<ServerRoster> &roster() const { return m_roster; }

private:
    struct Subject
    {
        QString subject;
        QByteArray payload;
    };
    Result<void> learnRoster();
    Result<void> gatherEach(const QList<Subject> &subjects, const ReplyHandler &handler, int window);
    Result<QList<Reply>> gather(const QString &subject, const QJsonObject &options);
    Error mapNoAnswer(const Error &e, const QString &subject) const;

    std::shared_ptr<NatsConnection> m_connection;
    std::shared_ptr<ServerRoster> m_roster;
    int m_quietMs;
};

} // namespace MqttDoctor
