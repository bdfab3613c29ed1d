#include "asyncrunner.h"

namespace MqttDoctor {

AsyncRunner::AsyncRunner(int maxThreads, QThread::Priority priority)
{
    m_pool.setMaxThreadCount(maxThreads);
    if (priority != QThread::InheritPriority)
        m_pool.setThreadPriority(priority);
}

AsyncRunner::~AsyncRunner()
{
    shutdown();
}

void AsyncRunner::shutdown()
{
    m_pool.clear();
    m_pool.waitForDone();
}

} // namespace MqttDoctor
