#pragma once

#include <optional>

#include <QJsonObject>
#include <QString>

#include "diagnosis/loglinematch.h"
#include "diagnosis/logvaluetally.h"

namespace MqttDoctor {

/**
 * Lines of a log that say the same thing, counted once (LogGrouper): explained lines of one catalogue template with
 * the same account, stream, cause, finding codes and severity, whatever client ID or subject each names (those are
 * tallied, bounded); or lines no template matched that have the same shape (digits aside). Keeps the first line's
 * explanation, how many lines there were, the earliest and latest timestamp and where the first and last line were
 * read.
 */
struct LogGroup
{
    /** Where a line was read: the input's name and the line's 1-based number in it. */
    struct Position
    {
        QString source; ///< a file as given, "-" for standard input, "argument" for lines given as arguments
        qint64 line = 0;
    };

    LogLineMatch match; ///< the first line, explained (matched false: a line no template matches)
    qint64 count = 0; ///< lines in the group
    QString firstTime; ///< the earliest timestamp as the log wrote it ("2026/12/02 15:50:37.344798"), or empty
    QString lastTime; ///< the latest one, or empty
    std::optional<qint64> firstMicros; ///< LogLine::timeMicros of firstTime
    std::optional<qint64> lastMicros;
    qint64 untimedLines = 0; ///< lines of the group without a timestamp
    Position firstLine; ///< the first line read, in reading order
    Position lastLine; ///< the last one
    LogValueTally clientIds; ///< client IDs of the lines (from the message, else from the MQTT client's prefix)
    LogValueTally subjects; ///< subjects of the lines
    qsizetype order = 0; ///< when the group was made (ties in sorting go to the earlier one)
    /** The catch-all of lines no template matches once LogGrouper::kMaxUnrecognisedShapes shapes are kept. */
    bool otherShapes = false;

    /** Counts one more line of the group. `timestamp` may be empty. */
    void add(const QString &timestamp, const Position &position, const QString &clientId, const QString &subject);

    /** 3 critical, 2 error, 1 warning, 0 info, -1 none (a group of lines no template matches). */
    int severityRank() const;

    /**
     * The JSON of `explain --json` (docs/cli.md): count, first_seen, last_seen (ISO 8601 in the log's own clock, or
     * null), first_line and last_line ({"source", "line"}), untimed_lines, client_ids and subjects
     * ([{"value", "count"}]), other_client_id_lines, other_subject_lines, other_shapes, and match (the first line as
     * LogLineMatch::toJson gives it).
     */
    QJsonObject toJson() const;

    /** "2026/12/02 15:50:37.344798" as ISO 8601: "2026-12-02T15:50:37.344798" (a trailing Z is kept). */
    static QString isoTime(const QString &timestamp);
};

} // namespace MqttDoctor
