#pragma once

#include <QList>
#include <QTextStream>

#include "diagnosis/mqttprobe.h"

namespace MqttDoctor::Cli {

/** The MQTT probes' results for people: one line each, and the steps of one that failed. */
void printProbes(QTextStream &out, const QList<MqttProbeResult> &probes);
/** The exit code the probes ask for: 2 when one failed, 3 when one could not run, else 0. */
int probesExitCode(const QList<MqttProbeResult> &probes);

} // namespace MqttDoctor::Cli
