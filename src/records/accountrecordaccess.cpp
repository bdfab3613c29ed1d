#include "accountrecordaccess.h"

#include "mqtt/layouts.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/jetstreamclient.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

/**
 * A 2.9 server serving streams that a 2.10+ server wrote (their `$MQTT_rmsgs` has the per-subject
 * layout): lab-observed, a consumer with a wildcard filter on such a store sends 2.9.10's file store
 * into an endless scan that wedges the account's JetStream API until restart. Non-empty: the reason.
 */
QString downgradeHazard(const AccountRecordAccess &src, const QList<StreamInfo> *knownStreams)
{
    QJsonObject config;
    if (knownStreams) {
        for (const StreamInfo &s : *knownStreams)
            if (s.name == MqttLayout::retainedStream())
                config = s.config;
    } else {
        JetStreamClient js(src.connection, src.apiDomain);
        auto info = js.streamInfo(MqttLayout::retainedStream());
        if (!info)
            return {}; // no retained stream (or no answer): nothing points at a downgrade
        config = info->value(QLatin1String("config")).toObject();
    }
    const QJsonArray subjects = config.value(QLatin1String("subjects")).toArray();
    if (subjects.size() != 1 || subjects.first().toString() != MqttLayout::retainedSubjects())
        return {};
    return QStringLiteral("a 2.9 server serves streams in the 2.10+ layout (a downgrade), and reading them with a consumer can "
                          "hang a 2.9.10 server's JetStream API");
}

} // namespace

bool AccountRecordAccess::canResolve(const ConnectionSet &connections, const QString &accountName)
{
    return (!accountName.isEmpty() && connections.hasAccountCredentials(accountName)) || connections.profile().auth.isSet();
}

Result<AccountRecordAccess> AccountRecordAccess::resolve(ConnectionSet &connections, const QString &accountName)
{
    auto servers = Discovery::knownServers(connections);
    return resolve(connections, accountName, servers ? *servers : QList<ServerInfo>());
}

Result<AccountRecordAccess> AccountRecordAccess::resolve(ConnectionSet &connections, const QString &accountName,
                                                         const QList<ServerInfo> &servers, const QList<StreamInfo> *knownStreams)
{
    AccountRecordAccess src;
    src.apiDomain = connections.profile().jsDomain;
    const QString needCreds = QStringLiteral("reading the MQTT records of account %1 needs the account's credentials")
                                  .arg(accountName.isEmpty() ? QStringLiteral("(none given)") : accountName);
    const QString hint = QStringLiteral("connect as a user of the account or add the account's credentials to the profile; "
                                        "the system connection only sees summaries");
    if (!accountName.isEmpty() && connections.hasAccountCredentials(accountName)) {
        auto conn = connections.account(accountName);
        if (!conn)
            return conn.error();
        src.connection = *conn;
        src.account = accountName;
    } else if (connections.profile().auth.isSet()) {
        auto primaryName = connections.primaryAccountName();
        if (!accountName.isEmpty() && primaryName && !primaryName->isEmpty() && *primaryName != accountName)
            return Error(Error::Kind::InvalidInput,
                         needCreds + QStringLiteral(" (the connected user belongs to account %1)").arg(*primaryName), hint)
                .withSetting(Error::Setting::AccountCredentials);
        auto conn = connections.primary();
        if (!conn)
            return conn.error();
        src.connection = *conn;
        src.account = accountName.isEmpty() && primaryName ? *primaryName : accountName;
    } else {
        return Error(Error::Kind::InvalidInput, needCreds + QStringLiteral(": only a system connection was given"), hint)
            .withSetting(Error::Setting::AccountCredentials);
    }
    if (!servers.isEmpty()) {
        const LayoutChoice choice = Layouts::choose(servers);
        src.dialect = choice.layout.kind() == MqttLayout::Kind::V2_9 ? TopicMapping::Dialect::V2_9 : TopicMapping::Dialect::V2_10;
        src.sessionDomain = Layouts::domainFor(servers, {});
        if (choice.layout.kind() == MqttLayout::Kind::V2_9 || choice.mixed()) {
            if (auto hazard = downgradeHazard(src, knownStreams); !hazard.isEmpty())
                return Error(Error::Kind::InvalidInput,
                             QStringLiteral("not reading the MQTT records of account %1: %2").arg(src.account, hazard),
                             QStringLiteral("repair the downgrade first (run check: RETAINED_DOWNGRADE), or read the records "
                                            "once the account is served by 2.10+ servers again"));
        }
    }
    return src;
}

std::optional<SessionLoader::ConnectedClients> AccountRecordAccess::connectedClients(ConnectionSet &connections, const QString &clientId,
                                                                                     QString *why, QList<MqttClientEvent> *closed) const
{
    const auto note = [why](const QString &text) {
        if (why)
            *why = text;
    };
    if (!connections.hasSystem()) {
        note(QStringLiteral("connected state unknown without a system connection"));
        return std::nullopt;
    }
    if (account.isEmpty()) {
        note(QStringLiteral("connected state unknown: the server did not say which account the user belongs to"));
        return std::nullopt;
    }
    auto sys = connections.systemClient();
    if (!sys) {
        note(QStringLiteral("connected state unknown: ") + sys.error().toString());
        return std::nullopt;
    }
    auto connected = SessionLoader::loadConnected(*sys, account, clientId, 5000, closed);
    if (!connected) {
        note(QStringLiteral("connected state unknown: ") + connected.error().toString());
        return std::nullopt;
    }
    return *connected;
}

} // namespace MqttDoctor
