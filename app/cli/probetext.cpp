#include "probetext.h"

#include "clicontext.h"

namespace MqttDoctor::Cli {

void printProbes(QTextStream &out, const QList<MqttProbeResult> &probes)
{
    for (const MqttProbeResult &p : probes) {
        out << p.summary() << ".\n";
        if (p.verdict == MqttProbeResult::Verdict::Failed)
            for (const MqttProbeStep &s : p.steps)
                out << "  " << (s.ok ? "ok     " : "FAILED ") << s.name << ": " << s.detail << " (" << s.ms << " ms)\n";
        if (!p.leftBehind.isEmpty())
            out << "  Left behind: " << p.leftBehind << ".\n";
    }
}

int probesExitCode(const QList<MqttProbeResult> &probes)
{
    int rc = ExitOk;
    for (const MqttProbeResult &p : probes) {
        if (p.verdict == MqttProbeResult::Verdict::Failed)
            return ExitErrors;
        if (p.verdict == MqttProbeResult::Verdict::NotRun)
            rc = ExitCouldNotCheck;
    }
    return rc;
}

} // namespace MqttDoctor::Cli
