#include "common/allocatortuning.h"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace MqttDoctor::AllocatorTuning {

bool applyForLoading()
{
#if defined(__GLIBC__)
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    if (tunables && std::strstr(tunables, "glibc.malloc.arena_max"))
        return false;
    return mallopt(M_ARENA_MAX, 1) == 1;
#else
    return false;
#endif
}

} // namespace MqttDoctor::AllocatorTuning
