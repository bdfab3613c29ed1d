#pragma once

#include <optional>

#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "diagnosis/logcataloguecause.h"
#include "diagnosis/logcatalogueentry.h"
#include "diagnosis/logline.h"
#include "diagnosis/loglinematch.h"

namespace MqttDoctor {

/**
 * Maps nats-server log lines to the catalogue of MQTT stream, session-record, retained-message and setup templates of
 * every server version (docs/findings.md lists them). Pure: no I/O, no network. The catalogue is built
 * and its matchers compiled once, on first use; after that every function may be called from any thread.
 *
 * A line matches when, after its prefix (LogLine) and an "unable to connect: " wrapper are removed, one template
 * matches the whole message. Lines that match nothing come back with matched == false; nothing is guessed.
 *
 * Severity: a line that points to finding codes (LogLineMatch::codes) is as severe as the most severe of those
 * findings (findingSeverity()); only a line that points to none keeps a severity of its own (the template's, or its
 * cause's, e.g. "wrong last sequence (10071)": warning).
 */
class LogCatalogue final
{
public:
    LogCatalogue() = delete;

    /** Explains one log line. */
    static LogLineMatch explain(const QString &line);
    /** The same for a line already split into prefix and message (LogLine::parse). */
    static LogLineMatch explain(const LogLine &parsed);

    /** Explains each line that is not blank, in order (blank or whitespace-only lines are skipped). */
    static QList<LogLineMatch> explainAll(const QStringList &lines);

    /** The catalogue's data: the templates in matching order and the causes of errors inside them. */
    struct Data
    {
        QList<LogCatalogueEntry> entries;
        QList<LogCatalogueCause> causes;
    };
    /**
     * Reads the data file (`logcatalogue.json`, compiled in): `{"entries": [...], "causes": [...]}` in the
     * members of LogCatalogueEntry::fromDataJson and LogCatalogueCause::fromDataJson. Fails with the first
     * entry that is malformed, has an unknown member, or repeats an id or a cause key.
     */
    static Result<Data> parseData(const QByteArray &json);
    /** Where the compiled-in data file is (a Qt resource path). */
    static QString dataResource();

    /** Every template, in matching order. */
    static const QList<LogCatalogueEntry> &entries();

    /** The template with this id, if any. */
    static std::optional<LogCatalogueEntry> entry(const QString &id);

    /** The template text of the entry `id` ("create sessions stream for account %q: %v"); empty for an unknown id. */
    static QString templateText(const QString &id);
    /** The error text of the cause `key` as a line carries it ("stream not found (10059)"); empty when unknown. */
    static QString causeText(const QString &key);
    /**
     * The template of `id` with its last %v / %w replaced by the text of the cause `causeKey` ("create sessions stream
     * for account %q: subjects overlap with an existing stream (10065)"); the bare template without a cause. How a
     * finding names the server lines it explains (Finding::explains). An unknown id or key is a defect: reported with
     * qCritical, and the id itself comes back.
     */
    static QString lineText(const QString &id, const QString &causeKey = {});

    /** The finding codes (docs/findings.md), in catalogue order. */
    static QStringList findingCodes();

    /**
     * How severe a line is that points to `codes` about `stream`: the most severe of those findings, each with its
     * default severity in the finding catalogue, or with the one FindingCatalogue::severityRule() gives it in the
     * situation the line shows, as `check` rates the same state: STREAM_MISSING and STREAM_UNHEALTHY of $MQTT_sess
     * are critical (no session can be read or saved), and REPLICAS_MISMATCH is critical on a line where the servers
     * could not create an MQTT stream (`streamCreationRefused`: mqtt.stream_replicas keeps it from being created).
     * Empty when no code is known.
     */
    static QString findingSeverity(const QStringList &codes, const QString &stream, bool streamCreationRefused = false);

    /** Whether a line of `entry` says the servers could not create an MQTT stream ("create %s stream ...: %v"). */
    static bool refusesStreamCreation(const LogCatalogueEntry &entry);
};

} // namespace MqttDoctor
