#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

/**
 * What LogCatalogue::explain() made of one log line: the server template it matches, the values pulled out of it,
 * what it means, the finding codes (docs/findings.md) it relates to and what to do. An unmatched line has
 * matched == false and nothing else but `line` (nothing is guessed).
 */
struct LogLineMatch
{
    QString line; ///< the input line, trailing whitespace and CR/LF removed
    bool matched = false;
    QString templateId; ///< LogCatalogueEntry::id, e.g. "asm.create_sessions_stream"
    QString templateText; ///< the server's format string, e.g. "create sessions stream for account %q: %v"
    QString innerTemplateId; ///< a catalogue template recognised inside the error text (e.g. "jsa.timeout_after"), or empty
    QStringList versions; ///< server versions that log this template, e.g. {"2.11.15 to 2.11.x", "2.12.6+"}
    QString level; ///< the level token of the line ("ERR", "WRN", "INF"...), empty when the line had none
    QString severity; ///< impact: "info", "warning", "error" or "critical" (every CONNECT of an account fails)
    bool connectRefused = false; ///< the line says an MQTT CONNECT failed ("unable to connect: ..."); no CONNACK was sent
    QString account;
    QString clientId; ///< from `session %q`/`client ID %q` in the message, else from the `"<clientID>" - ` prefix
    QString stream; ///< "$MQTT_sess"...: named by the template, derived from its wording or from a request subject
    QString subject; ///< NATS subject the message is about (retained/subscription subject, or a request subject)
    qint64 sequence = 0; ///< stream sequence named by the message, 0 when none
    int errorCode = 0; ///< JetStream err_code, e.g. 10059; 0 when the line carries none
    QString errorText; ///< the error part of the message (the server's %v), e.g. "stream not found (10059)"
    QStringList codes; ///< related finding codes (docs/findings.md); may be empty for a matched line
    QString meaning; ///< what happened, in operator terms
    QString advice; ///< what to run and what the repair will do

    /**
     * The JSON shape of `explain --json` (docs/cli.md): line, matched, template, template_id, inner_template, versions,
     * level, severity, connect_refused, account, client_id, stream, subject, sequence, error_code, error_text, codes,
     * meaning, advice. Empty strings and 0 become null.
     */
    QJsonObject toJson() const;
};

/** The name the brief's API suggestion uses. */
using LogMatch = LogLineMatch;

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::LogLineMatch)
