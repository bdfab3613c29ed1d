#include "mqttresult.h"

#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace MqttDoctor::Test {

bool MqttResult::connectionLost() const
{
    return standardError.contains(u"connection was lost"_s) || standardOutput.contains(u"connection was lost"_s);
}

QStringList MqttResult::receivedPayloads() const
{
    QStringList payloads;
    for (const Message &message : messages)
        payloads << QString::fromUtf8(message.payload);
    return payloads;
}

QString MqttResult::describe() const
{
    QStringList granted;
    for (const int qos : grantedQos)
        granted << QString::number(qos);
    QString text = u"%1\n  started=%2 killed=%3 exit=%4 connack=%5 granted=[%6] acknowledged=%7 messages=%8"_s.arg(command)
                       .arg(started)
                       .arg(killed)
                       .arg(exitCode)
                       .arg(connackCode)
                       .arg(granted.join(u","_s))
                       .arg(acknowledged)
                       .arg(messages.size());
    if (!standardOutput.trimmed().isEmpty())
        text += u"\n  stdout: "_s + standardOutput.trimmed().replace(u'\n', u"\n          "_s);
    if (!standardError.trimmed().isEmpty())
        text += u"\n  stderr: "_s + standardError.trimmed().replace(u'\n', u"\n          "_s);
    return text;
}

} // namespace MqttDoctor::Test
