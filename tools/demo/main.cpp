// nats-mqtt-doctor-demo: a nats-server with real MQTT state to try the doctor against.
#include "demooptions.h"
#include "demorunner.h"

#include <QCoreApplication>

using namespace Qt::Literals::StringLiterals;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"nats-mqtt-doctor-demo"_s);

    MqttDoctor::Demo::DemoOptions options;
    if (!options.parse(QCoreApplication::arguments()))
        return options.exitCode();

    MqttDoctor::Demo::DemoRunner runner(options);
    return runner.run();
}
