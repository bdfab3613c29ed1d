// MallocHugePages: which GLIBC_TUNABLES a program runs with, and that applyAtStart() runs this very test
// program again with them where the machine's transparent huge pages are in `madvise` mode.
#include <QFile>
#include <QTest>

#include <cstdlib>
#include <string>

#include "common/mallochugepages.h"

using namespace MqttDoctor;

namespace {

// How many times main() started in this process (the variable survives exec: same process, same pid).
constexpr const char *StartsVariable = "MQTTDOCTOR_TEST_MAIN_STARTS";

std::string thpMode()
{
    QFile f(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

} // namespace

class TestMallocHugePages : public QObject
{
    Q_OBJECT

private slots:
    void tunables_data()
    {
        QTest::addColumn<QByteArray>("current");  // "<unset>": no variable
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QByteArray>("expected");  // "<none>": left as it is
        QTest::newRow("madvise, unset") << QByteArray("<unset>") << QStringLiteral("always [madvise] never\n")
                                        << QByteArray("glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728");
        QTest::newRow("madvise, empty") << QByteArray("") << QStringLiteral("always [madvise] never\n")
                                        << QByteArray("glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728");
        QTest::newRow("madvise, other tunables kept") << QByteArray("glibc.malloc.arena_max=2") << QStringLiteral("always [madvise] never\n")
                                                      << QByteArray("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728");
        QTest::newRow("the user's top_pad kept") << QByteArray("glibc.malloc.top_pad=1048576") << QStringLiteral("always [madvise] never\n")
                                                 << QByteArray("glibc.malloc.top_pad=1048576:glibc.malloc.hugetlb=1"
                                                               ":glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=134217728");
        QTest::newRow("user's setting wins") << QByteArray("glibc.malloc.hugetlb=0") << QStringLiteral("always [madvise] never\n")
                                             << QByteArray("<none>");
        QTest::newRow("already run again") << QByteArray("glibc.malloc.hugetlb=1") << QStringLiteral("always [madvise] never\n")
                                           << QByteArray("<none>");
        QTest::newRow("always: the heap has them") << QByteArray("<unset>") << QStringLiteral("[always] madvise never\n") << QByteArray("<none>");
        QTest::newRow("never") << QByteArray("<unset>") << QStringLiteral("always madvise [never]\n") << QByteArray("<none>");
        QTest::newRow("mode unknown") << QByteArray("<unset>") << QString() << QByteArray("<none>");
    }

    void tunables()
    {
        QFETCH(QByteArray, current);
        QFETCH(QString, mode);
        QFETCH(QByteArray, expected);
        const auto value = MallocHugePages::tunablesFor(current == "<unset>" ? nullptr : current.constData(), mode.toStdString());
        QCOMPARE(value ? QByteArray::fromStdString(*value) : QByteArray("<none>"), expected);
    }

    // main() called applyAtStart(): on a glibc build where the kernel advises huge pages on request, this
    // program was started a second time with the tunable; elsewhere once, with the variable untouched.
    void appliedAtStart()
    {
        const QByteArray tunables = qgetenv("GLIBC_TUNABLES");
        const QByteArray before = qgetenv("MQTTDOCTOR_TEST_TUNABLES_BEFORE");
        const bool expectRunAgain = MallocHugePages::enabledInThisBuild()
                                    && MallocHugePages::tunablesFor(qEnvironmentVariableIsSet("MQTTDOCTOR_TEST_TUNABLES_WERE_SET")
                                                                        ? before.constData() : nullptr,
                                                                    thpMode())
                                           .has_value();
        if (expectRunAgain) {
            QCOMPARE(qgetenv(StartsVariable), QByteArray("2"));
            QVERIFY2(tunables.contains("glibc.malloc.hugetlb=1"), tunables.constData());
            QVERIFY2(tunables.contains("glibc.malloc.top_pad="), tunables.constData());
        } else {
            QCOMPARE(qgetenv(StartsVariable), QByteArray("1"));
            QCOMPARE(tunables, before);
        }
    }
};

int main(int argc, char **argv)
{
    // Before applyAtStart(): count the starts and remember the variable as the first start saw it.
    const QByteArray starts = qgetenv(StartsVariable);
    if (starts.isEmpty()) {
        if (qEnvironmentVariableIsSet("GLIBC_TUNABLES"))
            qputenv("MQTTDOCTOR_TEST_TUNABLES_WERE_SET", "1");
        qputenv("MQTTDOCTOR_TEST_TUNABLES_BEFORE", qgetenv("GLIBC_TUNABLES"));
    }
    qputenv(StartsVariable, QByteArray::number(starts.toInt() + 1));
    MallocHugePages::applyAtStart(argv);
    TestMallocHugePages test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_mallochugepages.moc"
