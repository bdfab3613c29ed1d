#include "asyncrunner.h"

namespace MqttDoctor {

AsyncRunner::AsyncRunner(int maxThreads)
{
    m_pool.setMaxThreadCount(maxThreads);
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
