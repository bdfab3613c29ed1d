#pragma once

#include <QString>
#include <QJsonObject>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

/**
 * What an error inside a template means on its own: a JetStream API error code ("js:10059"), a JS API timeout
 * ("timeout:store" for a publish nobody stored, "timeout:api" for an unanswered API request), a JetStream reply without
 * content ("missing_stream_info"), a missing ack ("no_ack"), the server shutting down ("shutdown"). Used by
 * LogCatalogue for templates whose `causeDecides` is set; entries can override per key.
 */
struct LogCatalogueCause
{
    QString key;
    QString description; ///< the JetStream description or the error text, for docs
    /** What the server writes in the line when it is not "<description> (<code>)" of a "js:<code>" key ("timeout"). */
    QString errorText;
    QStringList codes;
    QString severity; ///< overrides the entry's severity when not empty (a one-off, a shutdown)
    QString meaning; ///< may use the placeholders of LogCatalogueEntry
    QString advice;

    /**
     * The error as the server's line carries it in its %v / %w: "stream not found (10059)" for "js:10059" (a
     * JetStream API error prints its description and code), errorText for the others.
     */
    QString text() const;

    /** As the catalogue's data file holds it (empty members left out). */
    QJsonObject toDataJson() const;
    /** A cause of the data file; fails on a missing key, a wrong type or an unknown member. */
    static Result<LogCatalogueCause> fromDataJson(const QJsonObject &object);
};

} // namespace MqttDoctor
