#include "connectiontester.h"

#include <QCoreApplication>

#include "common/asyncrunner.h"
#include "controllers/guidelivery.h"
#include "models/displayformat.h"
#include "nats/connectionset.h"
#include "nats/discovery.h"
#include "nats/natsconnection.h"

namespace MqttDoctor {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("MqttDoctor::ConnectionTester", text);
}

// Runs on a worker thread: the connections are opened and closed there.
Result<QString> runTest(const Profile &profile)
{
    if (auto valid = profile.validate(); !valid)
        return valid.error();
    ConnectionSet connections(profile);
    QStringList lines;
    QString url;
    if (profile.auth.isSet() || !profile.hasSystem()) {
        auto primary = connections.primary();
        if (!primary)
            return primary.error();
        url = (*primary)->connectedUrl();
        auto account = connections.primaryAccountName();
        if (account && !account->isEmpty())
            lines << tr("Connected to %1 as a user of account %2.").arg(url, *account);
        else
            lines << tr("Connected to %1.").arg(url);
    }
    if (profile.hasSystem()) {
        auto system = connections.system();
        if (!system)
            return Error(system.error()).prefixed(tr("system account"));
        if (url.isEmpty())
            url = (*system)->connectedUrl();
        lines << tr("System account: connected to %1.").arg((*system)->connectedUrl());
    }
    auto servers = Discovery::servers(connections);
    if (servers && !servers->isEmpty()) {
        QStringList names;
        for (const ServerInfo &s : *servers)
            if (!s.name.isEmpty())
                names << s.name;
        const QString versions = DisplayFormat::serverVersions(*servers);
        lines << tr("%1 visible%2%3.")
                     .arg(DisplayFormat::serverCount(servers->size()),
                          names.isEmpty() ? QString() : QStringLiteral(" (") + names.join(QStringLiteral(", ")) + QLatin1Char(')'),
                          versions.isEmpty() ? QString() : tr(", nats-server %1").arg(versions));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

ConnectionTester::ConnectionTester(AsyncRunner &runner, QObject *parent) : QObject(parent), m_runner(runner) {}

ConnectionTester::~ConnectionTester() = default;

void ConnectionTester::test(const Profile &profile)
{
    const quint64 generation = ++m_generation;
    setRunning(true);
    // The tester may be destroyed with its dialog while the test still runs on the controller's pool:
    // the delivery's watcher is the tester's child and goes with it.
    GuiDelivery::whenReady(m_runner.run([profile] { return runTest(profile); }), this, m_generation, generation,
                           [this](const Result<QString> &result) {
                               setRunning(false);
                               if (result)
                                   emit succeeded(result.value());
                               else
                                   emit failed(result.error());
                           });
}

void ConnectionTester::cancel()
{
    ++m_generation;
    setRunning(false);
}

void ConnectionTester::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

} // namespace MqttDoctor
