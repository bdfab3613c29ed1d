#include "systemclient.h"

#include <QJsonDocument>
#include <QMutexLocker>
#include <QSet>

#include "nats/natsconnection.h"
#include "nats/replygatherer.h"

namespace MqttDoctor {

SystemClient::SystemClient(std::shared_ptr<NatsConnection> connection, std::shared_ptr<ServerRoster> roster, int quietMs)
    : m_connection(std::move(connection)), m_roster(roster ? std::move(roster) : std::make_shared<ServerRoster>()), m_quietMs(quietMs)
{}

namespace {

QString excerpt(const QByteArray &data)
{
    QString text = QString::fromUtf8(data.left(120)).simplified();
    if (data.size() > 120)
        text += QStringLiteral("... (%1 bytes)").arg(data.size());
    return text.isEmpty() ? QStringLiteral("(empty)") : text;
}

Error malformed(const QString &subject, const QString &what)
{
    return Error(Error::Kind::Protocol,
                 QStringLiteral("%1: malformed reply: %2").arg(subject.isEmpty() ? QStringLiteral("system request") : subject, what),
                 QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                "answers on $SYS.REQ subjects"));
}

} // namespace

Result<SystemClient::Reply> SystemClient::parse(const QByteArray &raw, const QString &subject)
{
    if (raw.trimmed().isEmpty())
        return malformed(subject, QStringLiteral("the reply is empty"));
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(raw, &err);
    if (err.error != QJsonParseError::NoError)
        return malformed(
            subject,
            QStringLiteral("the reply is not JSON (%1 at offset %2): %3").arg(err.errorString()).arg(err.offset).arg(excerpt(raw)));
    if (!doc.isObject())
        return malformed(subject, QStringLiteral("the reply is not a JSON object: ") + excerpt(raw));
    const QJsonObject obj = doc.object();
    Reply r;
    const QJsonValue server = obj.value(QLatin1String("server"));
    if (!server.isUndefined() && !server.isObject())
        return malformed(subject, QStringLiteral("\"server\" is not an object: ") + excerpt(raw));
    r.server = server.toObject();
    const QJsonValue error = obj.value(QLatin1String("error"));
    if (!error.isUndefined() && !error.isNull()) {
        if (!error.isObject())
            return malformed(subject, QStringLiteral("\"error\" is not an object: ") + excerpt(raw));
        r.error = error.toObject();
        if (r.error.isEmpty())
            r.error.insert(QStringLiteral("description"), QStringLiteral("an empty error"));
        return r;
    }
    const QJsonValue data = obj.contains(QLatin1String("data")) ? obj.value(QLatin1String("data")) : obj.value(QLatin1String("statsz"));
    if (!data.isObject())
        return malformed(subject,
                         data.isUndefined() ? QStringLiteral("neither \"data\" nor \"error\": ") + excerpt(raw)
                                            : QStringLiteral("\"data\" is not an object: ") + excerpt(raw));
    r.data = data.toObject();
    return r;
}

QString SystemClient::describeError(const QJsonObject &error)
{
    const qint64 code = error.value(QLatin1String("code")).toInteger();
    QString description = error.value(QLatin1String("description")).toString().left(300);
    if (description.isEmpty())
        description = QStringLiteral("no description");
    return code ? QStringLiteral("%1 (%2)").arg(description).arg(code) : description;
}

Error SystemClient::mapNoAnswer(const Error &e, const QString &subject) const
{
    // Every server answers $SYS.REQ.SERVER.PING.* in the system account: "nobody answers" (no responders)
    // means the user is not in it. A timeout is not that: the servers were slow or hung, or something else
    // took the request and kept silent; and a permission denial is the user's permissions. Both keep
    // their own kind.
    const QString role = m_connection->settings().role.isEmpty() ? QStringLiteral("connection") : m_connection->settings().role;
    if (e.kind() == Error::Kind::Timeout)
        return Error(e).withHint(QStringLiteral("no server answered the system request in time: the servers may be overloaded "
                                                "or hung; retry, or raise the timeout. Check also that the %1's user is a "
                                                "user of the system account")
                                     .arg(role));
    if (e.kind() != Error::Kind::NoResponders)
        return e;
    return Error(Error::Kind::NoSystemAccess,
                 QStringLiteral("no system-account access: nobody answers %1 for the %2 (no responders), so its user is not a "
                                "user of the system account")
                     .arg(subject, role),
                 QStringLiteral("the %1 needs a user of the system account (system_account in the server's configuration) "
                                "allowed to publish to $SYS.REQ.>: give that user's credentials")
                     .arg(role))
        .withNatsStatus(e.natsStatus());
}

namespace {

ServerRoster::Server serverOf(const SystemClient::Reply &reply)
{
    return {reply.server.value(QLatin1String("name")).toString(), reply.server.value(QLatin1String("id")).toString()};
}

// The replies one request got so far: which servers (by id, then by key) and how many were errors.
struct Tally
{
    QSet<QString> ids;
    QSet<QString> keys;
    QList<ServerRoster::Server> servers;
    int replies = 0;
    int errors = 0;
    QString firstError;

    // A server answers a PING once; the same id twice is a responder that is not nats-server (or a
    // page served twice), and its data must not be merged twice.
    Result<void> add(const SystemClient::Reply &reply, const QString &subject)
    {
        const ServerRoster::Server s = serverOf(reply);
        ++replies;
        if (!s.id.isEmpty()) {
            if (ids.contains(s.id))
                return Error(Error::Kind::Protocol,
                             QStringLiteral("%1: malformed reply: server %2 answered twice").arg(subject, s.key().left(100)),
                             QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                            "answers on $SYS.REQ subjects"));
            ids.insert(s.id);
        }
        if (!keys.contains(s.key())) {
            keys.insert(s.key());
            servers.append(s);
        }
        if (!reply.error.isEmpty()) {
            if (errors++ == 0)
                firstError = SystemClient::describeError(reply.error);
        }
        return {};
    }
};

} // namespace

Result<void> SystemClient::learnRoster()
{
    QMutexLocker learning(&m_roster->learningMutex());
    if (m_roster->isLearnt())
        return {};
    // Every server counts the servers it hears on the system account (itself included): the ping
    // is complete when the largest count has answered.
    const QString subject = QStringLiteral("$SYS.REQ.SERVER.PING.STATSZ");
    Tally tally;
    int active = 0;
    ReplyGatherer gatherer(*m_connection, m_quietMs);
    auto done = gatherer.run({{subject, {}}}, [&](int, NatsReply &&raw) -> Result<ReplyGatherer::Verdict> {
        auto reply = parse(raw.data, subject);
        if (!reply)
            return reply.error();
        if (auto added = tally.add(*reply, subject); !added)
            return added.error();
        active = std::max(active, int(reply->data.value(QLatin1String("active_servers")).toInteger()));
        return tally.keys.size() >= active ? ReplyGatherer::Verdict::Enough : ReplyGatherer::Verdict::More;
    });
    if (!done) {
        // An account's user reaches the PING subjects it imports (CONNZ), not STATSZ: count the servers
        // the client knows of instead.
        if (done.error().kind() == Error::Kind::NoResponders) {
            m_roster->learnCount(m_connection->knownServerCount());
            return {};
        }
        return mapNoAnswer(done.error(), subject);
    }
    if (tally.errors == tally.replies)
        return Error(Error::Kind::Protocol, QStringLiteral("%1 was answered with an error: %2").arg(subject, tally.firstError));
    m_roster->learn(tally.servers, active);
    return {};
}

Result<void> SystemClient::gatherEach(const QList<Subject> &subjects, const ReplyHandler &handler, int window)
{
    if (subjects.isEmpty())
        return {};
    if (auto learnt = learnRoster(); !learnt)
        return learnt;
    const ServerRoster::Expectation expected = m_roster->expectation();
    QList<Tally> tallies(subjects.size());
    QList<ReplyGatherer::Request> requests;
    requests.reserve(subjects.size());
    for (const Subject &s : subjects)
        requests.append({s.subject, s.payload});
    ReplyGatherer gatherer(*m_connection, m_quietMs);
    gatherer.setWindow(window);
    auto done = gatherer.run(requests, [&](int i, NatsReply &&raw) -> Result<ReplyGatherer::Verdict> {
        auto reply = parse(raw.data, subjects[i].subject);
        raw.data = QByteArray(); // the parsed form is what is kept
        if (!reply)
            return reply.error();
        Tally &tally = tallies[i];
        if (auto added = tally.add(*reply, subjects[i].subject); !added)
            return added.error();
        if (auto handled = handler(i, std::move(reply).value()); !handled)
            return handled.error();
        return ServerRoster::isComplete(expected, tally.keys) ? ReplyGatherer::Verdict::Enough : ReplyGatherer::Verdict::More;
    });
    if (!done)
        return mapNoAnswer(done.error(), subjects.first().subject);
    for (qsizetype i = 0; i < tallies.size(); ++i) {
        m_roster->finish(expected, tallies[i].servers);
        if (tallies[i].errors == tallies[i].replies)
            return Error(Error::Kind::Protocol,
                         QStringLiteral("%1 was answered with an error: %2").arg(subjects[i].subject, tallies[i].firstError));
    }
    return {};
}

Result<QList<SystemClient::Reply>> SystemClient::gather(const QString &subject, const QJsonObject &options)
{
    const QByteArray payload = options.isEmpty() ? QByteArray() : QJsonDocument(options).toJson(QJsonDocument::Compact);
    QList<Reply> replies;
    auto done = gatherEach(
        {{subject, payload}},
        [&replies](int, Reply &&r) -> Result<void> {
            replies.append(std::move(r));
            return {};
        },
        1);
    if (!done)
        return done.error();
    return replies;
}

Result<void> SystemClient::pingEach(const QList<Request> &requests, const ReplyHandler &handler, int window)
{
    QList<Subject> subjects;
    subjects.reserve(requests.size());
    for (const Request &r : requests)
        subjects.append({QStringLiteral("$SYS.REQ.SERVER.PING.") + r.what,
                         r.options.isEmpty() ? QByteArray() : QJsonDocument(r.options).toJson(QJsonDocument::Compact)});
    return gatherEach(subjects, handler, window);
}

Result<QList<SystemClient::Reply>> SystemClient::ping(const QString &what, const QJsonObject &options)
{
    return gather(QStringLiteral("$SYS.REQ.SERVER.PING.") + what, options);
}

Result<QList<SystemClient::Reply>> SystemClient::account(const QString &account, const QString &what, const QJsonObject &options)
{
    return gather(QStringLiteral("$SYS.REQ.ACCOUNT.") + account + QLatin1Char('.') + what, options);
}

Result<SystemClient::Reply> SystemClient::server(const QString &serverId, const QString &what, const QJsonObject &options)
{
    const QString subject = QStringLiteral("$SYS.REQ.SERVER.") + serverId + QLatin1Char('.') + what;
    auto raw = m_connection->request(subject, options.isEmpty() ? QByteArray() : QJsonDocument(options).toJson(QJsonDocument::Compact));
    if (!raw)
        return raw.error().prefixed(subject);
    auto reply = parse(raw->data, subject);
    if (!reply)
        return reply.error();
    if (!reply->error.isEmpty())
        return Error(Error::Kind::Protocol, QStringLiteral("%1 was answered with an error: %2").arg(subject, describeError(reply->error)));
    return reply;
}

} // namespace MqttDoctor
