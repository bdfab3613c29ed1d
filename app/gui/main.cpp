// nats-mqtt-doctor: the desktop application. Parses the CLI's connection options, opens the main
// window (connected at once when options name a cluster), and owns the shutdown order.
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/iconfactory.h"
#include "nats/connectionoptions.h"
#include "nats/natsconnection.h"

using namespace MqttDoctor;

namespace {

constexpr int kExitUsage = 64; // as the CLI: bad options

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setApplicationName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setApplicationDisplayName(QStringLiteral("NATS MQTT Doctor"));
    QApplication::setApplicationVersion(QStringLiteral(MQTTDOCTOR_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setWindowIcon(IconFactory::appIcon());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Diagnose the JetStream streams that nats-server keeps MQTT state in.\n"
        "Without connection options the connection dialog opens; with --profile FILE or --server URL\n"
        "(and the same authentication options as nats-mqtt-doctor-cli) the window opens connected."));
    parser.addHelpOption();
    parser.addVersionOption();
    ConnectionOptions::addTo(parser);
    const QCommandLineOption accountOption(QStringLiteral("account"),
                                           QStringLiteral("Open this account's sessions once it is listed (with connection options)."),
                                           QStringLiteral("name"));
    parser.addOption(accountOption);
    QTextStream err(stderr);
    if (!parser.parse(QApplication::arguments())) {
        err << "nats-mqtt-doctor: " << parser.errorText() << "\nRun with --help for the options.\n";
        return kExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << "nats-mqtt-doctor " << QApplication::applicationVersion() << '\n';
        return 0;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "nats-mqtt-doctor: unexpected argument \"" << parser.positionalArguments().first()
            << "\"\nRun with --help for the options.\n";
        return kExitUsage;
    }

    const ConnectionOptions options = ConnectionOptions::fromParser(parser);
    std::optional<Profile> profile;
    if (!options.isEmpty()) {
        auto built = options.toProfile();
        if (!built) {
            err << "nats-mqtt-doctor: " << built.error().toString() << '\n';
            return kExitUsage;
        }
        profile = *built;
    }

    int rc = 0;
    {
        ClusterController controller;
        MainWindow window(controller);
        window.show();
        if (profile && parser.isSet(accountOption))
            window.openAccountSessions(parser.value(accountOption));
        if (profile)
            controller.connectTo(*profile);
        else
            QTimer::singleShot(0, &window, &MainWindow::showConnectionDialog);
        rc = QApplication::exec();
        // Teardown order: no more nats.c events, the pool drained, connections closed; then the
        // widgets go (window before controller), then nats.c's own threads.
        controller.shutdown();
    }
    NatsConnection::shutdownLibrary();
    return rc;
}
