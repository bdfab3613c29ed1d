#pragma once

// Session records captured from real servers (tests/unit/data/records/<version>/), shared by the
// session record tests.

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>

#include "mqtt/storedmessage.h"

namespace MqttDoctor::TestData {

inline constexpr const char *kRecordVersions[] = {"2.9.10", "2.10.27", "2.15.1"};

inline QList<StoredMessage> loadCapture(const QString &version, const QString &file)
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/tests/unit/data/records/") + version + QLatin1Char('/')
            + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read captured records: %s", qPrintable(f.fileName()));
    QList<StoredMessage> out;
    for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("messages")).toArray()) {
        auto m = StoredMessage::fromJson(v.toObject());
        if (!m)
            qFatal("bad message in %s", qPrintable(f.fileName()));
        out.append(*m);
    }
    return out;
}

} // namespace MqttDoctor::TestData
