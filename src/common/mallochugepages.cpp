#include "common/mallochugepages.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#if defined(__linux__)
#include <unistd.h>
#endif

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define MQTTDOCTOR_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MQTTDOCTOR_SANITIZED_ALLOCATOR 1
#endif
// glibc's tunables apply: Linux, glibc, and glibc's allocator (not a sanitizer's).
#if defined(__linux__) && defined(__GLIBC__) && !defined(MQTTDOCTOR_SANITIZED_ALLOCATOR)
#define MQTTDOCTOR_GLIBC_TUNABLES 1
#endif

namespace MqttDoctor::MallocHugePages {

namespace {

constexpr const char *HugeTlb = "glibc.malloc.hugetlb";

// Set with the huge pages, each only where the user has not set it: see the header.
struct Setting
{
    const char *name;
    const char *value;
};
constexpr Setting Companions[] = {
    {"glibc.malloc.top_pad", "67108864"},         // 64 MiB: the heaps grow in large steps (see the header)
    {"glibc.malloc.mmap_threshold", "33554432"},  // 32 MiB: a batch's lists come from the heap, not a fresh mapping
    {"glibc.malloc.trim_threshold", "134217728"}, // 128 MiB: freed memory stays for reuse
};

} // namespace

bool enabledInThisBuild()
{
#if defined(MQTTDOCTOR_GLIBC_TUNABLES)
    return true;
#else
    return false;
#endif
}

std::optional<std::string> tunablesFor(const char *current, const std::string &thpMode)
{
    if (thpMode.find("[madvise]") == std::string::npos)
        return std::nullopt;
    if (current && std::strstr(current, HugeTlb))
        return std::nullopt;  // the user's setting (or ours, in the program run again)
    std::string value = current && *current ? std::string(current) + ':' : std::string();
    value += HugeTlb;
    value += "=1";
    for (const Setting &s : Companions) {
        if (current && std::strstr(current, s.name))
            continue;  // the user's value wins
        value += ':';
        value += s.name;
        value += '=';
        value += s.value;
    }
    return value;
}

void applyAtStart(char **argv)
{
#if defined(MQTTDOCTOR_GLIBC_TUNABLES)
    if (!argv || !argv[0])
        return;
    std::ifstream modeFile("/sys/kernel/mm/transparent_hugepage/enabled");
    const std::string mode((std::istreambuf_iterator<char>(modeFile)), std::istreambuf_iterator<char>());
    const char *current = std::getenv("GLIBC_TUNABLES");
    const std::optional<std::string> value = tunablesFor(current, mode);
    if (!value)
        return;
    const std::optional<std::string> before = current ? std::optional<std::string>(current) : std::nullopt;
    if (setenv("GLIBC_TUNABLES", value->c_str(), 1) != 0)
        return;
    execv("/proc/self/exe", argv);
    // Not run again (no /proc, say): go on as we are, with the variable as it was.
    if (before)
        setenv("GLIBC_TUNABLES", before->c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
#else
    (void)argv;
#endif
}

} // namespace MqttDoctor::MallocHugePages
