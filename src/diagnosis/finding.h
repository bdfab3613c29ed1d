#pragma once

#include <QJsonObject>
#include <QList>
#include <optional>

#include <QMetaType>
#include <QString>
#include <QStringList>

#include "diagnosis/findingevidence.h"
#include "diagnosis/findingtext.h"

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * One diagnosed problem (docs/findings.md). Codes are stable strings such as
 * "STREAM_MISSING"; the catalogue of codes, titles and repairs is in findingcatalogue.h.
 *
 * A check may find a problem in each of a million sessions: the strings are shared with what they come
 * from (the catalogue, the session records), and the title, detail and evidence can be kept as a pattern
 * with its arguments, made into text only when read (FindingText, FindingEvidence).
 */
struct Finding
{
    enum class Severity { Info, Warning, Error, Critical };

    QString code;
    Severity severity = Severity::Info;
    QString account;
    QString stream; ///< empty when not about one stream
    QString subject; ///< empty when not about one subject
    QString clientId; ///< empty when not about one MQTT client
    FindingText title; ///< one line, e.g. "$MQTT_sess is missing"
    FindingText detail; ///< what it means and what the server does because of it
    FindingEvidence expected; ///< evidence: what the server expects (JSON: object, array, string or number)
    FindingEvidence actual; ///< evidence: what is there
    QStringList explains; ///< server log templates this finding explains
    QString repair; ///< repair action name ("create_stream", ...) or empty for none

    static QString severityName(Severity s);
    static std::optional<Severity> severityFromName(const QString &name);
    /** The JSON shape of the CLI (docs/cli.md): code, severity, account, stream, subject, client_id, title, detail, evidence, explains, repair. */
    QJsonObject toJson() const;
    /** The same JSON written straight to `w` as an element of its current array. */
    void writeJson(JsonStreamWriter &w) const;
    /**
     * What the finding is about (code, account, stream, subject, client, title), not its evidence: equal for the same
     * problem found by two checks, before and after a repair, which is how both front ends tell fixed from remaining.
     */
    QString identity() const;
};

} // namespace MqttDoctor

// Every member is relocatable (Qt's implicitly shared values, an enum, pointers to static patterns): a list of a hundred thousand
// findings grows by moving its memory, not each finding.
Q_DECLARE_TYPEINFO(MqttDoctor::Finding, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(MqttDoctor::Finding)
