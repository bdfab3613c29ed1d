#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include "diagnosis/diagnosisinput.h"

namespace MqttDoctor {

/**
 * How far a check looked into one account, level by level: its streams, its session records and its
 * connected MQTT clients. Each level is "checked", "system_view" (streams only: from the system
 * account's JSZ, not the account's own API), "not_checked" (CoverageGap says why) or "not_applicable"
 * (no JetStream, or no `$MQTT_sess` to read records from).
 */
struct AccountCoverage
{
    QString account;
    QString streams;
    QString records;
    QString connections;

    /** Every level checked (or not applicable). */
    bool complete() const;
    /** {"connections", "records", "streams"} (docs/cli.md). */
    QJsonObject toJson() const;

    /** The coverage of each account `input` holds (the system account only when it is checked). */
    static QList<AccountCoverage> of(const DiagnosisInput &input);
};

} // namespace MqttDoctor
