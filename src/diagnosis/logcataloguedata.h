#pragma once
// Internal to LogCatalogue: the tables behind it, split by subject so each file stays readable.

#include <QList>
#include <QString>

#include "diagnosis/logcataloguecause.h"
#include "diagnosis/logcatalogueentry.h"

namespace MqttDoctor::LogCatalogueData {

/** Server versions a template was captured from (tests/unit/data/logs/<version>/). */
inline const QString v2910 = QStringLiteral("2.9.10");
inline const QString v21027 = QStringLiteral("2.10.27");
inline const QString v2151 = QStringLiteral("2.15.1");

QList<LogCatalogueEntry> setupEntries();     ///< account session manager: lookup/create streams and the retained consumer
QList<LogCatalogueEntry> sessionEntries();   ///< session records, connect path, consumers of subscriptions
QList<LogCatalogueEntry> retainedEntries();  ///< retained messages: store, load, migration; legacy session transfer
QList<LogCatalogueEntry> otherEntries();     ///< JS API timeouts, QoS2 options, configuration errors at start-up
QList<LogCatalogueCause> causes();           ///< what the errors inside the templates mean

} // namespace MqttDoctor::LogCatalogueData
