// AllocatorTuning::applyForLoading(): after it, threads that allocate at once make no arena of their own
// (malloc_info lists no more heaps than before; without it glibc gives them new ones), and a user's own
// arena_max tunable is left alone.
#include <QTest>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "common/allocatortuning.h"

using namespace MqttDoctor;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MQTTDOCTOR_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MQTTDOCTOR_SANITIZER_ALLOCATOR 1
#endif
#endif

namespace {

#if defined(__GLIBC__)
// The number of arenas glibc reports ("<heap nr=...>" elements of malloc_info).
int arenaCount()
{
    char *text = nullptr;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f)
        return -1;
    malloc_info(0, f);
    std::fclose(f);
    int count = 0;
    for (const char *p = text; (p = std::strstr(p, "<heap nr=")) != nullptr; ++p)
        ++count;
    std::free(text);
    return count;
}

// Four threads allocate and hold memory at the same time, then free it.
void allocateOnThreads()
{
    std::vector<std::thread> threads;
    std::vector<std::vector<void *>> held(4);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&held, t] {
            for (int i = 0; i < 2000; ++i)
                held[size_t(t)].push_back(std::malloc(64 + size_t(i % 7) * 48));
            std::this_thread::sleep_for(std::chrono::milliseconds(50));  // all four hold memory at once
        });
    for (std::thread &t : threads)
        t.join();
    for (auto &list : held)
        for (void *p : list)
            std::free(p);
}
#endif

} // namespace

class TestAllocatorTuning : public QObject
{
    Q_OBJECT

private slots:
    void userTunableWins()
    {
        const QByteArray before = qgetenv("GLIBC_TUNABLES");
        qputenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=4");
        QVERIFY(!AllocatorTuning::applyForLoading());
        if (before.isNull())
            qunsetenv("GLIBC_TUNABLES");
        else
            qputenv("GLIBC_TUNABLES", before);
    }

    void oneArenaForEveryThread()
    {
#if defined(__GLIBC__)
#if defined(MQTTDOCTOR_SANITIZER_ALLOCATOR)
        QSKIP("a sanitizer's allocator replaces glibc's here: there are no glibc arenas to count");
#endif
        if (qEnvironmentVariableIsSet("GLIBC_TUNABLES"))
            QSKIP("GLIBC_TUNABLES is set for this run: the user's settings decide");
        QVERIFY(AllocatorTuning::applyForLoading());
        // QTest's watchdog thread may have made an arena already: none is added from now on.
        const int before = arenaCount();
        QVERIFY(before >= 1);
        allocateOnThreads();
        QCOMPARE(arenaCount(), before);
#else
        QVERIFY(!AllocatorTuning::applyForLoading());
#endif
    }
};

QTEST_GUILESS_MAIN(TestAllocatorTuning)
#include "tst_allocatortuning.moc"
