#pragma once

#include <optional>

#include <QColor>
#include <QIcon>
#include <QList>
#include <QString>

#include "diagnosis/findinglist.h"

namespace MqttDoctor {

/**
 * The health of a tree node or a finding row: the worst severity of its findings, "ok" when the
 * findings were read and none concerns it, "unknown" before. One painted dot per level, so the tree,
 * the findings list and the tabs show the same colours. GUI thread (icons need the GUI application).
 */
namespace HealthBadge {

enum class Health { Unknown, Ok, Info, Warning, Error, Critical };

Health fromSeverity(Finding::Severity severity);
/** The worst severity of `findings` accepted by `accept`; Ok for none. */
template<typename Accept>
Health worst(const FindingList &findings, Accept accept)
{
    // Only what summaryAt() gives (code, severity, account, stream) may decide `accept`.
    std::optional<Finding::Severity> top;
    for (qsizetype i = 0; i < findings.size(); ++i)
        if (const Finding &f = findings.summaryAt(i); accept(f) && (!top || int(f.severity) > int(*top)))
            top = f.severity;
    return top ? fromSeverity(*top) : Health::Ok;
}
/**
 * How far an account's badge reaches: its streams only (the system view: "records not yet"), its
 * records being read, everything (streams and session records, or there are no records), or its records
 * could not be read (no credentials, a failure). Streams carry no depth of their own (Full).
 */
enum class Coverage { StreamsOnly, Checking, Full, CouldNotCheck };

/**
 * A dot in the level's colour (a null icon for Unknown with Full coverage): filled when the coverage
 * is Full; a ring when only the streams were checked (or the records are being read); a ring crossed
 * out when the records could not be checked. Painted on each call: callers cache it.
 */
QIcon icon(Health health, Coverage coverage = Coverage::Full);
/** The dot of a finding's severity, painted once per severity and shared (GUI thread only). */
QIcon severityIcon(Finding::Severity severity);
/** The level's colour (invalid for Unknown): the dots, and the overview's bars. */
QColor colour(Health health);
/** "critical", "error", "warning", "info", "healthy", "not checked". */
QString name(Health health);
/** What an account's badge covers, one line for its tooltip. */
QString coverageText(Coverage coverage);

} // namespace HealthBadge
} // namespace MqttDoctor
