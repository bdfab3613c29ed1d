// nats-mqtt-doctor: the desktop application. Parses the CLI's connection options, opens the main
// window (connected at once when options name a cluster), and owns the shutdown order.
#include <optional>

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <QTimer>

#include "buildinfo.h"
#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "models/iconfactory.h"
#include "nats/connectionoptions.h"
#include "nats/natsconnection.h"
#include "optionsjson.h"
#include "windowstate.h"

using namespace MqttDoctor;

namespace {

constexpr int kExitUsage = 64; // as the CLI: bad options
const QString kProgram = QStringLiteral("nats-mqtt-doctor");

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setApplicationName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setApplicationDisplayName(QStringLiteral("NATS MQTT Doctor"));
    QApplication::setApplicationVersion(BuildInfo::version());
    QApplication::setDesktopFileName(QStringLiteral("nats-mqtt-doctor"));
    QApplication::setWindowIcon(IconFactory::appIcon());

    QCommandLineParser parser;
    const QString description =
        QStringLiteral("Diagnose the JetStream streams that nats-server keeps MQTT state in.\n"
                       "Without connection options the connection dialog opens; with --profile FILE or --server URL\n"
                       "(and the same authentication options as nats-mqtt-doctor-cli) the window opens connected.");
    parser.setApplicationDescription(description);
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption versionOption(
        {QStringLiteral("v"), QStringLiteral("version")},
        QStringLiteral("Show the version, the git commit it was built from, and the Qt and nats.c versions."));
    const QCommandLineOption accountOption(QStringLiteral("account"),
                                           QStringLiteral("Open this account's sessions once it is listed (with connection options)."),
                                           QStringLiteral("name"));
    // One list for the parser and for --help-json (the man page is made from it at build time).
    const QList<QCommandLineOption> optionTable =
        QList<QCommandLineOption>{helpOption, versionOption} + ConnectionOptions::options() + QList<QCommandLineOption>{accountOption};
    parser.addOptions(optionTable);
    parser.addOption(OptionsJson::helpJsonOption());
    QTextStream err(stderr);
    if (!parser.parse(QApplication::arguments())) {
        err << "nats-mqtt-doctor: " << parser.errorText() << "\nRun with --help for the options.\n";
        return kExitUsage;
    }
    if (parser.isSet(helpOption)) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }
    if (parser.isSet(versionOption)) {
        QTextStream(stdout) << BuildInfo::versionText(kProgram);
        return 0;
    }
    if (parser.isSet(OptionsJson::helpJsonOption())) {
        const QJsonObject table{{QStringLiteral("program"), kProgram},
                                {QStringLiteral("description"), description},
                                {QStringLiteral("usage"), QJsonArray{QString(kProgram + QStringLiteral(" [options]"))}},
                                {QStringLiteral("options"), OptionsJson::options(optionTable)}};
        QTextStream(stdout) << QJsonDocument(table).toJson(QJsonDocument::Indented);
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
        WindowState state(&window);
        state.restore();
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
