// Server log lines: the prefix parser (LogLine), Go %q unquoting and the catalogue matcher
// (LogCatalogue::explain, which runs every entry's patterns). One line per input line.
#include <QString>

#include "diagnosis/logcatalogue.h"
#include "diagnosis/logline.h"
#include "fuzzinput.h"

using namespace MqttDoctor;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(Fuzz::bytes(data, size));
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const LogLine parsed = LogLine::parse(line);
        (void)parsed.isMqttClient();
        (void)LogLine::unquoteGo(line);
        (void)LogLine::unquoteGo(parsed.message);
        (void)LogCatalogue::explain(line);
    }
    (void)LogCatalogue::explainAll(lines);
    return 0;
}
