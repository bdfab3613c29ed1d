#include "accountcoverage.h"

#include <algorithm>

#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {

const QString checked = QStringLiteral("checked");
const QString systemView = QStringLiteral("system_view");
const QString notChecked = QStringLiteral("not_checked");
const QString notApplicable = QStringLiteral("not_applicable");

} // namespace

bool AccountCoverage::complete() const
{
    const auto done = [](const QString &level) { return level == checked || level == notApplicable; };
    return (streams == checked || streams == systemView || streams == notApplicable) && done(records) && done(connections);
}

QJsonObject AccountCoverage::toJson() const
{
    return QJsonObject{
        {QStringLiteral("connections"), connections}, {QStringLiteral("records"), records}, {QStringLiteral("streams"), streams}};
}

QList<AccountCoverage> AccountCoverage::of(const DiagnosisInput &input)
{
    QList<AccountCoverage> out;
    for (const AccountInfo &a : input.accounts) {
        if (a.isSystem && !input.includeSystemAccount)
            continue;
        AccountCoverage c;
        c.account = a.name;
        const bool streamsFailed = std::any_of(input.gaps.cbegin(), input.gaps.cend(), [&a](const CoverageGap &g) {
            return g.account == a.name && g.level == CoverageGap::Level::Streams;
        });
        if (a.jetstreamKnown && !a.jetstream)
            c.streams = notApplicable;
        else if (!a.streamsKnown)
            c.streams = notChecked;
        else
            c.streams = (a.source == QLatin1String("api") && !streamsFailed) ? checked : systemView;
        const bool hasSessions =
            std::any_of(a.streams.cbegin(), a.streams.cend(), [](const StreamInfo &s) { return s.name == MqttLayout::sessionsStream(); });
        const auto sessions = input.sessions.constFind(a.name);
        if (!a.jetstream || (a.streamsKnown && !hasSessions)) {
            c.records = notApplicable;
            c.connections = notApplicable;
        } else if (sessions == input.sessions.cend()) {
            c.records = notChecked;
            c.connections = notChecked;
        } else {
            c.records = checked;
            c.connections = sessions->connected ? checked : notChecked;
        }
        out.append(c);
    }
    return out;
}

} // namespace MqttDoctor
