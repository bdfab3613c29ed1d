#include "clicontext.h"

#include "textoutput.h"

namespace MqttDoctor::Cli {

int CliContext::fail(const Error &error) const
{
    printError(json ? out : err, error, json);
    return ExitCouldNotCheck;
}

} // namespace MqttDoctor::Cli
