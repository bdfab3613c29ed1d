#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

/**
 * One message template nats-server logs about its MQTT streams, session records, retained messages or the setup of an
 * account's MQTT support, in one wording of one range of versions. Old and new wordings of the same
 * error are separate entries. The matcher is derived from `text` (the server's Go format string) and `fields`.
 *
 * Texts may use placeholders that LogCatalogue fills from the line: {account}, {stream}, {client}, {subject}, {kind},
 * and commands: {check} (`nats-mqtt-doctor-cli check --account A`), {repair:CODE}, {sessions}, {streams}, {retained}.
 */
struct LogCatalogueEntry
{
    QString id{}; ///< stable, e.g. "asm.create_sessions_stream"
    QString text{}; ///< the server's format string, verbs included: "create sessions stream for account %q: %v"
    /**
     * What each verb of `text` holds, in order: account, client, stream_label (sessions/messages/...), stream_name,
     * subject, request_subject, kind (JS request type), reply, seq, count, duration, error, consumer, other, domain.
     */
    QStringList fields{};
    QStringList versions{}; ///< e.g. {"2.9.0+"}, {"2.11.15 to 2.11.17", "2.12.6+"}; "+" means up to 2.15.1 at least
    QStringList verifiedOn{}; ///< server versions a real log line of this template was captured from (tests/unit/data/logs)
    QString level{}; ///< how the server logs it: "ERR", "WRN", "INF", "DBG" (a leaf connection), "" (inner error or stderr at start-up)
    /**
     * Impact: info, warning, error, critical. A template with finding codes is as severe as the most severe of them
     * (LogCatalogue::findingSeverity fills it in; a line is rated by the codes its cause gives it); what is written
     * here only rates a line that points to no finding (a template without codes, or a cause without any).
     */
    QString severity{};
    QString stream{}; ///< the stream the template is about when its wording fixes it ("$MQTT_sess"), else empty
    QStringList codes{}; ///< related finding codes (docs/findings.md) when the error inside does not decide
    bool causeDecides = false; ///< a recognised error inside (JetStream code, timeout...) replaces codes, adds its meaning and advice
    bool connectPath = false; ///< logged as "unable to connect: ..." (the CONNECT failed, no CONNACK)
    bool inner = false; ///< also appears as the %v error inside other templates
    bool anchored = true; ///< false: may follow an unknown prefix, e.g. "file.conf:7:3: invalid use of field ..."
    bool mqttClientOnly = false; ///< only counts on a line of an MQTT client ("mid:" prefix)
    /** For inner errors: the cause they stand for ("timeout": timeout:store or timeout:api by request type; "no_ack"...). */
    QString causeKey{};
    QString meaning{}; ///< what it means, for an operator at 3 a.m.
    QString advice{}; ///< what to run, and what the repair does (or why there is none)
    QHash<QString, QStringList> codesByCause{}; ///< cause key ("js:10065", "timeout:store", ...) → codes, overrides the cause's
    QHash<QString, QString> meaningByCause{}; ///< cause key → meaning sentence, overrides the cause's
    QHash<QString, QString> adviceByCause{}; ///< cause key → advice, overrides the cause's
    QString notes{}; ///< how to reproduce it or why it cannot be (docs/findings.md)

    /** For listings: id, template, versions, verified_on, level, severity, stream, codes, meaning, advice. */
    QJsonObject toJson() const;
    /** Every member, as the catalogue's data file holds it (members at their default left out). */
    QJsonObject toDataJson() const;
    /** An entry of the data file; fails on a missing id or template, a wrong type or an unknown member. */
    static Result<LogCatalogueEntry> fromDataJson(const QJsonObject &object);
};

} // namespace MqttDoctor
