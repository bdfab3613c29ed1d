#pragma once

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QStringList>
#include <QTextStream>

#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"
#include "diagnosis/missingconsumerfindings.h"
#include "diagnosis/mqttprobe.h"
#include "mqtt/layoutoptions.h"

namespace MqttDoctor {
class JsonStreamWriter;
struct Profile;
} // namespace MqttDoctor

namespace MqttDoctor::Cli {

struct CliContext;
class TerminalProgress;

/**
 * What one `check` found in a gathered input, and its two ways out: the `check` JSON object
 * (docs/schema) and the text report. Holds the findings, the exit code they, the coverage and the
 * probes ask for, the accounts checked and the MQTT probes' results. The input must outlive it.
 */
class CheckReport final
{
public:
    /** Text output: how many findings of one code and severity an account shows before counting the rest. */
    static constexpr int kMaxShownPerCode = 10;

    /**
     * Runs the checks on `input`. `streamed` (JSON): a finding per missing durable (a hundred thousand on an
     * account whose durables are gone) is kept apart and written as it is made, from the records, instead
     * of all of them being made first. `unansweredServers`: CliContext::unansweredServersJson().
     */
    CheckReport(const DiagnosisInput &input, bool streamed, QJsonArray unansweredServers);

    /** The findings kept as Findings (all of them unless `streamed`). */
    const QList<Finding> &findings() const { return m_findings; }
    int exitCode() const { return m_exitCode; }

    /**
     * --probe: what a real MQTT client sees, after what the streams say (part of the coverage), for every
     * account checked. A probe that failed or could not run raises the exit code.
     */
    void probe(const Profile &profile, TerminalProgress &progress);

    /**
     * The history's first seen of each finding (identity → time) and this check's time: the text report
     * says since when each finding is open. Empty: not recorded.
     */
    void setFirstSeen(QHash<QString, QDateTime> firstSeen, QDateTime checkedAt);

    /** The `check` JSON object, written as it is produced. `layout`: the options the layouts were chosen with. */
    void writeJson(QTextStream &out, const LayoutOptions &layout) const;
    /** The text report, then the unanswered servers' notes. `everyFinding`: --all-findings. */
    void writeText(CliContext &ctx, bool everyFinding) const;

private:
    /** Every probe (none when not probed) delivered: the coverage is complete as far as they go. */
    bool probesComplete() const;
    /** `layouts`: the layout of each account with JetStream, by name. */
    void writeLayouts(JsonStreamWriter &w, const LayoutOptions &layout) const;
    /** What could not be looked at (the gaps that leave the verdict open): first, since the findings do not cover it. */
    void printNotChecked(QTextStream &out) const;
    /** The findings by account, each code's run of alike findings cut at kMaxShownPerCode unless `everyFinding`. */
    void printFindingsByAccount(QTextStream &out, bool everyFinding) const;
    /** The counts by severity, the probes, what "no problem" means here, and the notes. */
    void printVerdict(QTextStream &out) const;

    const DiagnosisInput &m_input;
    QList<Finding> m_findings;
    QList<MissingConsumerFindings> m_apart;
    int m_exitCode = 0;
    QJsonArray m_unanswered;
    bool m_verdictOpen = false; ///< a level of an account could not be read (CoverageGap::leavesVerdictOpen)
    QStringList m_checked; ///< the accounts checked, in the input's order
    bool m_probed = false;
    QList<MqttProbeResult> m_probes;
    QHash<QString, QDateTime> m_firstSeen;
    QDateTime m_checkedAt;
};

} // namespace MqttDoctor::Cli
