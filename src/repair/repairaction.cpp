#include "repairaction.h"

#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "nats/replygatherer.h"

#include <QJsonDocument>
#include "repair/actions/actionfamilies.h"

namespace MqttDoctor {

QString PlanContext::apiSubject(const QString &op) const
{
    return JetStreamClient::apiSubject(apiDomain, op);
}

const StreamInfo *PlanContext::stream(const QString &name) const
{
    if (!account)
        return nullptr;
    for (const StreamInfo &s : account->streams)
        if (s.name == name)
            return &s;
    return nullptr;
}

Result<QJsonObject> ExecContext::api(const QString &op, const QJsonObject &body) const
{
    JetStreamClient js(target.connection, target.apiDomain);
    return js.call(op, body);
}

Result<QList<Result<QJsonObject>>> ExecContext::apiEach(const QList<ApiCall> &calls, int window) const
{
    QList<Result<QJsonObject>> out;
    out.reserve(calls.size());
    for (qsizetype i = 0; i < calls.size(); ++i)
        out.append(Error(Error::Kind::Internal, QStringLiteral("no reply")));
    if (calls.isEmpty())
        return out;
    QList<ReplyGatherer::Request> requests;
    requests.reserve(calls.size());
    for (const ApiCall &c : calls)
        requests.append({JetStreamClient::apiSubject(target.apiDomain, c.op),
                         c.body.isEmpty() ? QByteArray() : QJsonDocument(c.body).toJson(QJsonDocument::Compact)});
    ReplyGatherer gatherer(*target.connection, 1000);
    gatherer.setWindow(window);
    auto ran = gatherer.run(requests, [&](int index, NatsReply &&reply) -> Result<ReplyGatherer::Verdict> {
        out[index] = JetStreamClient::parseReply(reply.data, calls.at(index).op, requests.at(index).subject);
        return ReplyGatherer::Verdict::Enough;
    });
    if (!ran)
        return ran.error();
    return out;
}

Result<std::optional<QJsonObject>> ExecContext::streamInfo(const QString &stream) const
{
    auto info = api(QStringLiteral("STREAM.INFO.") + stream);
    if (!info) {
        if (info.error().jsErrCode() == JsErrors::StreamNotFound)
            return std::optional<QJsonObject>();
        return info.error();
    }
    return std::optional<QJsonObject>(*info);
}

Result<std::optional<QJsonObject>> ExecContext::consumerInfo(const QString &stream, const QString &consumer) const
{
    auto info = api(QStringLiteral("CONSUMER.INFO.%1.%2").arg(stream, consumer));
    if (!info) {
        const int code = info.error().jsErrCode();
        if (code == JsErrors::ConsumerNotFound || code == JsErrors::StreamNotFound)
            return std::optional<QJsonObject>();
        return info.error();
    }
    return std::optional<QJsonObject>(*info);
}

namespace RepairActionFamilies {

QList<const RepairAction *> operatorActions()
{
    return {deleteSessionsAction(), disconnectClientAction(), clearRetainedAction(), dropBacklogAction()};
}

} // namespace RepairActionFamilies

namespace RepairActionRegistry {

namespace {
const QList<const RepairAction *> &all()
{
    static const QList<const RepairAction *> actions = RepairActionFamilies::streamActions() + RepairActionFamilies::retainedActions()
        + RepairActionFamilies::sessionActions() + RepairActionFamilies::qos2Actions() + RepairActionFamilies::operatorActions();
    return actions;
}
} // namespace

const RepairAction *find(const QString &name)
{
    for (const RepairAction *a : all())
        if (a->name() == name)
            return a;
    return nullptr;
}

QStringList names()
{
    QStringList out;
    for (const RepairAction *a : all())
        out << a->name();
    return out;
}

} // namespace RepairActionRegistry
} // namespace MqttDoctor
