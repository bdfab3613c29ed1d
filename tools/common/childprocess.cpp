#include "childprocess.h"

#include <QProcess>

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace MqttDoctor::Test {

void ChildProcess::prepare(QProcess &process, bool ownProcessGroup)
{
    // Runs in the child between fork and exec: only async-signal-safe calls.
    process.setChildProcessModifier([ownProcessGroup] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (ownProcessGroup)
            ::setpgid(0, 0);
    });
}

} // namespace MqttDoctor::Test
