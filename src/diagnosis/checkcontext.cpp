#include "checkcontext.h"

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/logcatalogue.h"
#include "mqtt/layouts.h"

namespace MqttDoctor {

CheckContext CheckContext::make(const AccountCheckInput &input)
{
    CheckContext c;
    c.input = &input;
    c.account = input.account.name;
    c.choice = input.layout ? *input.layout : Layouts::choose(input.servers, input.options.layout, input.account.streams);
    for (const StreamInfo &s : input.account.streams)
        c.streams.insert(s.name, &s);
    for (const MqttStreamSpec &spec : c.layout().streams())
        (c.streams.contains(spec.name) ? c.present : c.missing).append(spec.name);
    if (input.limits)
        c.limits = *input.limits;
    else if (input.account.limitsKnown)
        c.limits = input.account.limits;
    c.capAtWarning = !input.assumeMqtt && c.present.isEmpty();
    return c;
}

qint64 CheckContext::messagesOf(const StreamInfo &s)
{
    return s.state.value(QLatin1String("messages")).toInteger(0);
}

Finding::Severity CheckContext::maxSeverity(Finding::Severity a, Finding::Severity b)
{
    return int(a) >= int(b) ? a : b;
}

QString CheckContext::createLineFor(const QString &streamName)
{
    if (streamName == MqttLayout::sessionsStream())
        return QStringLiteral("asm.create_sessions_stream");
    if (streamName == MqttLayout::messagesStream())
        return QStringLiteral("asm.create_messages_stream");
    if (streamName == MqttLayout::qos2InStream())
        return QStringLiteral("asm.create_qos2in_stream");
    if (streamName == MqttLayout::outStream())
        return QStringLiteral("asm.create_out_stream");
    return QStringLiteral("asm.create_retained_stream");
}

QString CheckContext::line(const QString &id, const QString &causeKey)
{
    return LogCatalogue::lineText(id, causeKey);
}

} // namespace MqttDoctor
