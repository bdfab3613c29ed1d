#pragma once

#include <span>
#include <utility>

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "diagnosis/finding.h"
#include "diagnosis/findingpattern.h"

namespace MqttDoctor {

/**
 * The catalogue of finding codes (docs/findings.md): for each code its default severity, title template,
 * the nats-server log lines it explains, and its repair action. The data is `findingcatalogue.json`,
 * compiled in; the lines it explains are ids of the log catalogue (logcatalogue.json), the one place the
 * servers' log formats are written down. Read once on first use; any thread after that.
 *
 * Default severities answer "what does the operator at 3 a.m. need":
 * - critical: MQTT clients cannot connect now (or the next connect fails) — JETSTREAM_DISABLED,
 *   SUBJECTS_OVERLAP, STREAM_LIMIT_HEADROOM, RETAINED_DOWNGRADE, SESSION_UNDECODABLE;
 * - error: data loss or broken delivery while clients still connect — STREAM_MISSING (not the
 *   sessions stream), STREAM_SUBJECTS_WRONG, STREAM_CONFIG_WRONG, STREAM_UNHEALTHY, RETAINED_ORPHANED,
 *   SESSION_ID_MISMATCH, SESSION_MISSING_CONSUMER, DUPLICATE_SESSION_RECORDS;
 * - warning: breaks on upgrade, restart or node loss — REPLICAS_MISMATCH, MIXED_SERVER_VERSIONS,
 *   LEGACY_SESSION_STREAMS, SESSION_HASH_COLLISION, ORPHAN_CONSUMER;
 * - info: for the record — RETAINED_LEGACY_LAYOUT (the server migrates it), SESSION_STALE.
 * The checks raise or lower a finding's severity from its default when the situation says so (see
 * checks.h), e.g. STREAM_MISSING is info in an account no MQTT client has used yet.
 */
class FindingCatalogue final
{
public:
    /** A server log line a finding explains: a template of the log catalogue, with the error inside it when that matters. */
    struct LogTemplate
    {
        QString line; ///< the log catalogue entry's id ("asm.create_sessions_stream")
        QString cause; ///< the log catalogue cause key of the error in its %v / %w ("js:10065"); empty: any

        /** The exact format string nats-server logs (LogCatalogue::templateText). */
        QString format() const;
        /** The server versions that log it, as the log catalogue says ("2.9.0+", "2.10.0 to 2.10.5"). */
        QStringList versions() const;
        /**
         * The format with its last %v / %w replaced by the cause's text ("create sessions stream for account
         * %q: subjects overlap with an existing stream (10065)"); the bare format without a cause.
         */
        QString text() const;
    };

    enum class Scope { Cluster, Account, Stream, Session };

    struct Entry
    {
        QString code;
        Finding::Severity severity = Finding::Severity::Info; ///< default severity
        Scope scope = Scope::Account;
        /** Placeholders: {account}, {stream}, {subject}, {client_id} and per-code ones (see the .cpp). */
        QString titleTemplate;
        QString detects; ///< one line: what the code detects
        QList<LogTemplate> explains;
        QString symptoms; ///< what operators see that leaves no log line; may be empty
        QString repair; ///< repair action name (RepairActions), empty: none
        QStringList alternativeRepairs; ///< other actions the planner may choose for this code
        QString guidance; ///< what to do, in one or two sentences (always set; the only help when repair is empty)
        /**
         * The repair runs only when the operator names the code (`repair --finding CODE`, a ticked row in the
         * GUI): the state may be deliberate, so a plain `repair` leaves it alone.
         */
        bool repairOnlyWhenSelected = false;
        /** When a finding gets another severity than its default (without the cap severityRule() adds); may be empty. */
        QString severityRule;

        /** LogTemplate::text() of every explained line. */
        QStringList explainTexts() const;
    };

    /**
     * Reads the data file (`findingcatalogue.json`, compiled in): `{"findings": [...]}`, each with code, severity,
     * scope, title, detects, guidance and optionally explains ([{"line": id, "cause": key}]), symptoms, repair,
     * alternative_repairs, repair_only_when_selected, severity_rule. Fails on the first malformed entry, unknown
     * member, unknown severity or scope, or repeated code. (That each line id and cause key is in the log
     * catalogue is for the tests to hold: the log catalogue reads this one when it starts.)
     */
    static Result<QList<Entry>> parseData(const QByteArray &json);
    /** Where the compiled-in data file is (a Qt resource path). */
    static QString dataResource();

    /** Every code of docs/findings.md, in the order of the table. */
    static const QList<Entry> &entries();
    /** The entry of `code`, nullptr when unknown. */
    static const Entry *entry(const QString &code);
    static QStringList codes();
    /**
     * When a finding of `code` gets another severity than its default, and which (docs/findings.md,
     * "Severities", renders this table; a test holds them equal). The same state gets the same severity
     * on every path: one account, every account, the GUI, repair, explain. Empty: always the default.
     */
    static QString severityRule(const QString &code);

    /** The title template of `code` with {key} replaced by values[key] (unknown keys stay as they are). */
    static QString title(const QString &code, const QHash<QString, QString> &values);

    /**
     * A finding of `code` with the catalogue's defaults: severity, title (filled from account, stream,
     * subject, client_id and `values`), explains (every template), repair. Checks then narrow them.
     * An unknown code yields a finding with only code, account and stream set.
     */
    static Finding make(const QString &code, const QString &account, const QString &stream = {},
                        const QHash<QString, QString> &values = {});
    /** The same with the values as key/value pairs: what a check making a finding per session calls (no hash per finding). */
    using Value = std::pair<QString, QString>;
    static Finding make(const QString &code, const QString &account, const QString &stream, std::span<const Value> values);
    /**
     * A finding of `code` with the catalogue's severity, detail, explains and repair but no title, subject
     * or client ID: what a check that makes a finding per session starts from, giving the title as a
     * pattern (titlePattern()) with the finding's arguments. Nothing but code, account and stream for an
     * unknown code.
     */
    static Finding makeUntitled(const QString &code, const QString &account, const QString &stream);
    /**
     * The title template of `code` as a pattern whose placeholders are `keys` (the finding's arguments in
     * that order): filled from the same values, it gives make()'s title. Empty for an unknown code, as make()'s.
     */
    static FindingPattern titlePattern(const QString &code, const QStringList &keys);

    static QString scopeName(Scope scope);
    /** Entry::repairOnlyWhenSelected of `code` (false for an unknown code). */
    static bool repairOnlyWhenSelected(const QString &code);
};

} // namespace MqttDoctor
