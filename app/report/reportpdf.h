#pragma once

#include <QString>

#include "common/result.h"
#include "history/historyreport.h"

namespace MqttDoctor {

/**
 * Writes a HistoryReport as a PDF (A4): its page with each chart drawn from its SVG. Needs a
 * QGuiApplication (the CLI makes one, offscreen, for `report --pdf`). Any thread that may use QtGui's
 * painting on images (the GUI thread, or a worker).
 */
class ReportPdf final
{
public:
    static Result<void> write(const HistoryReport::Output &report, const QString &path);
};

} // namespace MqttDoctor
