#pragma once

#include <QList>
#include <QString>

#include "common/result.h"
#include "history/historyquery.h"

namespace MqttDoctor {

class HistoryDatabase;

/**
 * An incident report from the history, for a ticket: a self-contained HTML page (no external file, charts
 * inline as SVG) of one cluster (or account) over a time window: the checks it holds, the servers and their
 * versions, the findings with first and last seen, the findings and counts over time, the timeline of what
 * changed, and the repairs and operator actions the audit log holds for that time. Never a secret (the
 * history and the audit log hold none); with `hashClientIds` every client ID is replaced by its session
 * hash (the token of its `$MQTT.sess.<hash>` subject).
 */
class HistoryReport final
{
public:
    struct Options
    {
        HistoryQuery::Window window;
        QString cluster;
        QString auditLogPath; ///< empty: no repairs section
        bool hashClientIds = false;
    };
    struct Output
    {
        QString html; ///< the page, charts as inline SVG
        /**
         * The same page with each chart as `<img src="chart-N.svg">` and the charts' SVG apart, for writers that
         * do not draw inline SVG (Qt's rich text, which the PDF is made with).
         */
        QString htmlWithImages;
        QList<QByteArray> charts;
        int findings = 0;
        int entries = 0;
        int repairs = 0;
        int checks = 0;
    };

    static Result<Output> make(HistoryDatabase &database, const Options &options);
};

} // namespace MqttDoctor
