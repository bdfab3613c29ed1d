#include "clienteventfeed.h"

#include <QElapsedTimer>

#include "nats/connectionset.h"
#include "nats/natssubscription.h"

namespace MqttDoctor {

ClientEventFeed::ClientEventFeed(std::unique_ptr<NatsSubscription> subscription, Filter filter)
    : m_subscription(std::move(subscription)), m_filter(std::move(filter))
{}

ClientEventFeed::~ClientEventFeed() = default;
ClientEventFeed::ClientEventFeed(ClientEventFeed &&) noexcept = default;
ClientEventFeed &ClientEventFeed::operator=(ClientEventFeed &&) noexcept = default;

Result<ClientEventFeed> ClientEventFeed::open(ConnectionSet &connections, const Filter &filter)
{
    if (!connections.hasSystem())
        return Error(Error::Kind::InvalidInput, QStringLiteral("following client events needs a system connection"),
                     QStringLiteral("give the system account's credentials"))
            .withSetting(Error::Setting::SystemCredentials);
    auto system = connections.system();
    if (!system)
        return system.error();
    // Two tokens after the account: CONNECT and DISCONNECT (and the account's connection counts, skipped).
    const QString subject = QStringLiteral("$SYS.ACCOUNT.%1.*").arg(filter.account.isEmpty() ? QStringLiteral("*") : filter.account);
    return NatsSubscription::subscribe(*system, subject).transform([&](std::unique_ptr<NatsSubscription> &&value) {
        return ClientEventFeed(std::move(value), filter);
    });
}

Result<std::optional<MqttClientEvent>> ClientEventFeed::next(int timeoutMs)
{
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        const int left = int(std::max<qint64>(1, timeoutMs - waited.elapsed()));
        auto message = m_subscription->next(left);
        if (!message)
            return message.error();
        if (!*message)
            return std::optional<MqttClientEvent>();
        const QString &subject = (*message)->subject;
        if (!subject.endsWith(QLatin1String(".CONNECT")) && !subject.endsWith(QLatin1String(".DISCONNECT")))
            continue;
        auto event = MqttClientEvent::fromAdvisory((*message)->data);
        if (event && (m_filter.clientId.isEmpty() || event->clientId == m_filter.clientId)
            && (m_filter.account.isEmpty() || event->account == m_filter.account))
            return event;
        if (waited.elapsed() >= timeoutMs)
            return std::optional<MqttClientEvent>();
    }
}

qint64 ClientEventFeed::dropped()
{
    return m_subscription->droppedSinceLast();
}

} // namespace MqttDoctor
