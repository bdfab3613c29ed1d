// disconnect_client (an operator's `disconnect`): closes one MQTT connection. Through the server's kick request
// (`$SYS.REQ.SERVER.<id>.KICK {"cid":N}`, 2.10.0+, the system account's connection), or, where the server has
// none or no system connection exists, by a takeover through the account's MQTT listener: a client with the same
// ID and a persistent session connects (the server closes the older connection, the session is kept) and
// disconnects. The precondition asks CONNZ whether the connection is still open; verify() asks again.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>

#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttwireclient.h"
#include "nats/natsconnection.h"
#include "records/mqttconnections.h"
#include "repair/actions/actionfamilies.h"
#include "repair/paramkey.h"
#include "repair/repairaction.h"

namespace MqttDoctor {

namespace {

/** The open connections of the step's client, through the system connection or the account's CONNZ import. */
Result<QList<MqttConnection>> connectionsNow(const ExecContext &ctx, const QString &clientId)
{
    const std::shared_ptr<NatsConnection> &conn = ctx.target.system ? ctx.target.system : ctx.target.connection;
    SystemClient sys(conn);
    return MqttConnections::find(sys, ctx.target.account, {clientId});
}

/** Whether connection `cid` of the step is open on its server now. */
Result<bool> stillOpen(const RepairStep &step, const ExecContext &ctx)
{
    auto conns = connectionsNow(ctx, step.params.value(paramKey("client_id")).toString());
    if (!conns)
        return conns.error();
    const QString server = step.params.value(paramKey("server_id")).toString();
    const quint64 cid = quint64(step.params.value(paramKey("cid")).toInteger());
    for (const MqttConnection &c : *conns)
        if (c.serverId == server && c.cid == cid)
            return true;
    return false;
}

class DisconnectClient final : public RepairAction
{
public:
    QString name() const override { return RepairActions::disconnectClient(); }

    QList<RepairStep> plan(const Finding &f, const PlanContext &, QString *note) const override
    {
        *note = QStringLiteral("%1: disconnect_client is an operator action (disconnect), not a finding's repair").arg(f.code);
        return {};
    }

    Result<Precondition> precondition(const RepairStep &step, const ExecContext &ctx) const override
    {
        auto open = stillOpen(step, ctx);
        if (!open)
            return open.error();
        if (!*open)
            return Precondition::alreadyDone(QStringLiteral("connection %1 of \"%2\" is closed already")
                                                 .arg(step.params.value(paramKey("cid")).toInteger())
                                                 .arg(step.params.value(paramKey("client_id")).toString()));
        if (step.params.value(paramKey("method")).toString() == QLatin1String("kick") && !ctx.target.system)
            return Error(Error::Kind::NoSystemAccess, QStringLiteral("the kick request needs the system account's connection"),
                         QStringLiteral("give the system account's credentials (--system-user/--system-creds or the profile's)"));
        if (step.params.value(paramKey("method")).toString() == QLatin1String("takeover") && !ctx.target.mqtt)
            return Error(Error::Kind::InvalidInput, QStringLiteral("a takeover needs the account's MQTT user in the profile (mqtt_probe)"));
        return Precondition::run();
    }

    Result<QJsonArray> apply(const RepairStep &step, const ExecContext &ctx) const override
    {
        if (auto w = ctx.target.checkWritable(QStringLiteral("disconnect")); !w)
            return w.error();
        const QString clientId = step.params.value(paramKey("client_id")).toString();
        if (step.params.value(paramKey("method")).toString() == QLatin1String("kick")) {
            // The kick reply is the server's envelope alone ({"server": {...}}) or an "error": not a SystemClient reply.
            const QString subject = QStringLiteral("$SYS.REQ.SERVER.%1.KICK").arg(step.params.value(paramKey("server_id")).toString());
            auto reply = ctx.target.system->request(
                subject, QJsonDocument(QJsonObject{{paramKey("cid"), step.params.value(paramKey("cid"))}}).toJson(QJsonDocument::Compact));
            if (!reply)
                return Error(reply.error())
                    .prefixed(QStringLiteral("kicking connection %1 of \"%2\"")
                                  .arg(step.params.value(paramKey("cid")).toInteger())
                                  .arg(clientId));
            const QJsonObject body = QJsonDocument::fromJson(reply->data).object();
            if (body.contains(paramKey("error")))
                return Error(Error::Kind::Internal,
                             QStringLiteral("the server refused to kick connection %1 of \"%2\": %3")
                                 .arg(step.params.value(paramKey("cid")).toInteger())
                                 .arg(clientId, SystemClient::describeError(body.value(paramKey("error")).toObject())));
            return QJsonArray{QJsonObject{{paramKey("kicked"), step.params.value(paramKey("cid"))},
                                          {paramKey("server"), step.params.value(paramKey("server"))}}};
        }
        MqttWireClient takeover(*ctx.target.mqtt, clientId, false);
        QString why;
        if (!takeover.connect(&why))
            return Error(Error::Kind::Internal, QStringLiteral("the takeover connect as \"%1\" failed: %2").arg(clientId, why));
        takeover.disconnect();
        return QJsonArray{QJsonObject{{paramKey("taken_over"), clientId}, {paramKey("server"), step.params.value(paramKey("server"))}}};
    }

    Result<void> verify(const RepairStep &step, const ExecContext &ctx) const override
    {
        // The server closes the connection right after its reply; CONNZ may list it for a moment longer.
        QElapsedTimer t;
        t.start();
        for (;;) {
            auto open = stillOpen(step, ctx);
            if (!open)
                return open.error();
            if (!*open)
                return {};
            if (t.elapsed() > 3000)
                return Error(
                    Error::Kind::Internal,
                    QStringLiteral("connection %1 of \"%2\" is still open on %3")
                        .arg(step.params.value(paramKey("cid")).toInteger())
                        .arg(step.params.value(paramKey("client_id")).toString(), step.params.value(paramKey("server")).toString()));
            QThread::msleep(100);
        }
    }
};

} // namespace

namespace RepairActionFamilies {

const RepairAction *disconnectClientAction()
{
    static const DisconnectClient action;
    return &action;
}

} // namespace RepairActionFamilies
} // namespace MqttDoctor
