// Result<T>'s chaining helpers: value_or, transform and and_then pass an error through untouched and
// call the function only on success.
#include <QTest>

#include "common/result.h"

using namespace MqttDoctor;

namespace {

Result<int> parsePort(const QString &text)
{
    bool ok = false;
    const int port = text.toInt(&ok);
    if (!ok || port <= 0 || port > 65535)
        return Error(Error::Kind::InvalidInput, QStringLiteral("not a port: ") + text);
    return port;
}

Result<void> requireUnprivileged(int port)
{
    if (port < 1024)
        return Error(Error::Kind::InvalidInput, QStringLiteral("privileged port %1").arg(port));
    return {};
}

} // namespace

class TestResult : public QObject
{
    Q_OBJECT

private slots:
    void valueOr()
    {
        QCOMPARE(parsePort(QStringLiteral("4222")).value_or(1883), 4222);
        QCOMPARE(parsePort(QStringLiteral("x")).value_or(1883), 1883);
        Result<QString> moved = QStringLiteral("kept");
        QCOMPARE(std::move(moved).value_or(QStringLiteral("fallback")), QStringLiteral("kept"));
    }

    void transformMapsOnlyValues()
    {
        int calls = 0;
        const auto url = parsePort(QStringLiteral("4222")).transform([&](int p) {
            ++calls;
            return QStringLiteral("nats://localhost:%1").arg(p);
        });
        QVERIFY(url.ok());
        QCOMPARE(url.value(), QStringLiteral("nats://localhost:4222"));

        const auto failed = parsePort(QStringLiteral("70000")).transform([&](int p) {
            ++calls;
            return p * 2;
        });
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().message(), QStringLiteral("not a port: 70000"));
        QCOMPARE(calls, 1);

        // A function returning nothing gives Result<void>.
        int seen = 0;
        const Result<void> done = parsePort(QStringLiteral("8222")).transform([&](int p) { seen = p; });
        QVERIFY(done.ok());
        QCOMPARE(seen, 8222);
    }

    void andThenChainsFailingSteps()
    {
        const auto check = [](const QString &text) { return parsePort(text).and_then(requireUnprivileged); };
        QVERIFY(check(QStringLiteral("4222")).ok());
        QCOMPARE(check(QStringLiteral("80")).error().message(), QStringLiteral("privileged port 80"));
        QCOMPARE(check(QStringLiteral("")).error().message(), QStringLiteral("not a port: "));

        const Result<QString> url = requireUnprivileged(4222).and_then([]() -> Result<QString> { return QStringLiteral("ok"); });
        QCOMPARE(url.value(), QStringLiteral("ok"));
        const Result<int> failed = requireUnprivileged(22).transform([] { return 1; });
        QVERIFY(!failed.ok());
        QCOMPARE(failed.error().kind(), Error::Kind::InvalidInput);
    }
};

QTEST_GUILESS_MAIN(TestResult)
#include "tst_result.moc"
