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

void AsyncRunner::shutdown(std::function<void()> last)
{
    m_pool.clear();
    if (last)
        m_pool.start(std::move(last));
    m_pool.waitForDone();
}

} // namespace MqttDoctor
