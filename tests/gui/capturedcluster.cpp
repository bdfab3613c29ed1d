#include "capturedcluster.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include "nats/discovery.h"

namespace MqttDoctor::Test {

namespace {

QJsonObject readJson(const QString &name)
{
    QFile file(QStringLiteral(MQTTDOCTOR_GUI_TESTDATA "/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read test data %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object();
}

SystemClient::Reply varz(const QString &name, const QString &version, int mqttPort)
{
    SystemClient::Reply r;
    r.server = QJsonObject{{QStringLiteral("name"), name},
                           {QStringLiteral("ver"), version},
                           {QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                           {QStringLiteral("jetstream"), true},
                           {QStringLiteral("id"), QString(QStringLiteral("N") + name.toUpper())}};
    r.data = QJsonObject{{QStringLiteral("server_name"), name},
                         {QStringLiteral("version"), version},
                         {QStringLiteral("mqtt"),
                          QJsonObject{{QStringLiteral("host"), QStringLiteral("127.0.0.1")},
                                      {QStringLiteral("port"), mqttPort},
                                      {QStringLiteral("tls_timeout"), 2}}},
                         {QStringLiteral("jetstream"), QJsonObject{{QStringLiteral("config"), QJsonObject{}}}}};
    return r;
}

} // namespace

QList<ServerInfo> CapturedCluster::servers()
{
    return {Discovery::serverFromVarz(varz(QStringLiteral("gui1"), QStringLiteral("2.9.10"), 1883)),
            Discovery::serverFromVarz(varz(QStringLiteral("gui2"), QStringLiteral("2.10.4"), 1884))};
}

QList<AccountInfo> CapturedCluster::accounts()
{
    const QJsonObject captured = readJson(QStringLiteral("jsz-gui1.json"));
    SystemClient::Reply jsz;
    jsz.server = captured.value(QLatin1String("server")).toObject();
    jsz.data = captured.value(QLatin1String("data")).toObject();
    QList<AccountInfo> accounts = Discovery::accountsFromJsz({jsz});

    // Accounts without JetStream are absent from JSZ; Discovery adds them from ACCOUNTZ like this.
    AccountInfo nojs;
    nojs.name = QStringLiteral("NOJS");
    nojs.source = QStringLiteral("accountz");
    nojs.streamsKnown = true;
    AccountInfo sys = nojs;
    sys.name = QStringLiteral("SYS");
    sys.isSystem = true;
    accounts << nojs << sys;
    std::sort(accounts.begin(), accounts.end(), [](const AccountInfo &a, const AccountInfo &b) { return a.name < b.name; });
    return accounts;
}

AccountInfo CapturedCluster::account(const QString &name)
{
    for (const AccountInfo &a : accounts())
        if (a.name == name)
            return a;
    return {};
}

QString CapturedCluster::fleetName(int i)
{
    return QStringLiteral("fleet-%1").arg(i, 5, 10, QLatin1Char('0'));
}

QList<AccountInfo> CapturedCluster::fleet(int count)
{
    const AccountInfo acme = account(QStringLiteral("ACME"));
    QList<AccountInfo> out;
    out.reserve(count);
    for (int i = 0; i < count; ++i) {
        AccountInfo a = acme;
        a.name = fleetName(i);
        if (i % 7 == 0) {
            a.streams.removeIf([](const StreamInfo &s) { return s.name == QLatin1String("$MQTT_sess"); });
        } else if (i % 13 == 0) {
            a.jetstream = false;
            a.streams.clear();
            a.streamsKnown = true;
            a.source = QStringLiteral("accountz");
        }
        a.streamCount = int(a.streams.size());
        out.append(a);
    }
    return out;
}

} // namespace MqttDoctor::Test
