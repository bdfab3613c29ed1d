#pragma once

#include <QList>
#include <QTextStream>

#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"

namespace MqttDoctor::Cli {

/**
 * `check --format openmetrics`: the check as OpenMetrics text for node_exporter's textfile collector
 * (docs/cli.md): findings by account and severity (every severity, zeros included) and by account,
 * code and severity; per account the session records and retained messages (the messages in its
 * `$MQTT_sess` and `$MQTT_rmsgs`), the MQTT clients connected (where a system connection told), which
 * levels were checked; the check's exit code and time. Ends with `# EOF`.
 */
namespace OpenMetricsWriter {

void write(QTextStream &out, const DiagnosisInput &input, const QList<Finding> &findings, int exitCode);
/** A label value with OpenMetrics' escapes (backslash, double quote, newline). */
QString escapeLabel(const QString &value);

} // namespace OpenMetricsWriter
} // namespace MqttDoctor::Cli
