#pragma once

#include <QHash>
#include <QList>
#include <QString>

#include "diagnosis/loggroup.h"
#include "diagnosis/logline.h"
#include "diagnosis/loglinematch.h"

namespace MqttDoctor {

/**
 * Explains a whole server log line by line (LogCatalogue) and counts repeated lines once (LogGroup), so that a log of
 * any length takes memory for its distinct groups, not for its lines. Each line is
 * - blank;
 * - explained: a template of the catalogue matches it;
 * - not recognised: no template matches, but it is about MQTT's state in JetStream (isAboutMqtt());
 * - skipped: anything else a server logs (start-up banner, routes, debug and trace lines, other clients...).
 *
 * Lines with the same message (same level and client ID) are explained once: the last kCacheSize distinct messages
 * are remembered. Lines no template matches are grouped by shape (the message with its digits masked), at most
 * kMaxUnrecognisedShapes shapes; lines of further shapes share one catch-all group (LogGroup::otherShapes).
 * Single-threaded.
 */
class LogGrouper final
{
public:
    enum class LineKind { Blank, Explained, NotRecognised, Skipped };

    struct Counts
    {
        qint64 lines = 0; ///< every line read, blank ones included
        qint64 blank = 0;
        qint64 explained = 0;
        qint64 notRecognised = 0;
        qint64 skipped = 0;
        qint64 longLines = 0; ///< lines cut at the reader's cap (LogLineReader)
        qint64 serverLines = 0; ///< lines with a nats-server level token ([ERR], [INF]...): is this a server log?
        qsizetype explainedGroups = 0; ///< groups of explained lines
        qsizetype unrecognisedGroups = 0; ///< groups of lines not recognised
    };

    static constexpr qsizetype kMaxUnrecognisedShapes = 1000;
    static constexpr qsizetype kCacheSize = 4096;

    /**
     * Counts one line (without its line end). `position` says where it was read. `match`, when given, receives the
     * line's explanation for explained and not recognised lines (what `explain --per-line` prints).
     */
    LineKind add(const QString &line, const LogGroup::Position &position, bool truncated = false, LogLineMatch *match = nullptr);

    const Counts &counts() const { return m_counts; }
    qsizetype groupCount() const { return m_groups.size(); }

    /**
     * The groups, most important first: explained groups by severity (critical first), then by count (largest
     * first), then in the order they first appeared; then the groups of lines no template matches, by count.
     */
    QList<LogGroup> sortedGroups() const;

    /**
     * Whether a line no template matches still concerns MQTT's state in JetStream, so that it counts as not
     * recognised rather than skipped: an error or warning (or a line without a level) that mentions MQTT (any case,
     * $MQTT subjects and streams included) or is a refused CONNECT ("unable to connect: "), or an MQTT client's
     * error or warning about JetStream, a stream, a session, a consumer, a retained message or with a JetStream
     * error code "(1xxxx)". Info, debug and trace lines never are.
     */
    static bool isAboutMqtt(const LogLine &line);

private:
    struct CacheEntry
    {
        LineKind kind = LineKind::Skipped;
        qsizetype group = -1;
        LogLineMatch match;
    };

    CacheEntry classify(const LogLine &parsed);
    qsizetype explainedGroup(const LogLineMatch &match);
    qsizetype unrecognisedGroup(const LogLine &parsed, const LogLineMatch &match);
    qsizetype newGroup(const QString &key, const LogLineMatch &match);

    Counts m_counts;
    QList<LogGroup> m_groups;
    QHash<QString, qsizetype> m_groupIndex;
    qsizetype m_unrecognisedShapes = 0;
    qsizetype m_otherShapesGroup = -1;
    QHash<QString, CacheEntry> m_cache;
};

} // namespace MqttDoctor
