#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <optional>

#include <QMetaType>
#include <QString>
#include <QStringList>

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * One diagnosed problem (docs/findings.md). Codes are stable strings such as
 * "STREAM_MISSING"; the catalogue of codes, titles and repairs is in findingcatalogue.h.
 */
struct Finding
{
    enum class Severity { Info, Warning, Error, Critical };

    QString code;
    Severity severity = Severity::Info;
    QString account;
    QString stream;      ///< empty when not about one stream
    QString subject;     ///< empty when not about one subject
    QString clientId;    ///< empty when not about one MQTT client
    QString title;       ///< one line, e.g. "$MQTT_sess is missing"
    QString detail;      ///< what it means and what the server does because of it
    QJsonValue expected; ///< evidence: what the server expects (JSON: object, array, string or number)
    QJsonValue actual;   ///< evidence: what is there
    QStringList explains;///< server log templates this finding explains
    QString repair;      ///< repair action name ("create_stream", ...) or empty for none

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

// Every member is relocatable (Qt's implicitly shared values, an enum): a list of a hundred thousand
// findings grows by moving its memory, not each finding.
Q_DECLARE_TYPEINFO(MqttDoctor::Finding, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(MqttDoctor::Finding)
