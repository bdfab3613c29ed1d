#pragma once

class QProcess;

namespace MqttDoctor::Test {

// Settings shared by every process the fixtures start.
class ChildProcess
{
public:
    // The child gets SIGTERM when the thread that started it dies (so a crashed or killed test never
    // leaves servers behind). With ownProcessGroup, Ctrl-C in a terminal does not reach the child:
    // its owner decides when to stop it.
    static void prepare(QProcess &process, bool ownProcessGroup);
};

} // namespace MqttDoctor::Test
