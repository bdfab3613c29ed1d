// Tools > Probe MQTT against a real nats-server (newest): the dialog probes the account on the controller's
// pool with a real MQTT client and lists each step; a wrong password fails at the connect and says so; after
// $MQTT_rmsgs was deleted and created again (the servers' retained consumer gone) the retained step fails
// and names the finding. The listener is the one the server reports when the field is empty. Screenshot
// to docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else to a temporary folder.
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "controllers/clustercontroller.h"
#include "dialogs/mqttprobedialog.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "nats/connectionset.h"
#include "nats/jetstreamclient.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

class TestMqttProbeDialog : public QObject
{
    Q_OBJECT

private:
    Profile profile() const
    {
        Profile p;
        p.name = u"probe-test"_s;
        p.servers = {m_server.url()};
        p.auth.kind = Credentials::Kind::UserPassword;
        p.auth.user = u"acme"_s;
        p.auth.password = u"acmepass"_s;
        p.system.kind = Credentials::Kind::UserPassword;
        p.system.user = u"sys"_s;
        p.system.password = u"syspass"_s;
        return p;
    }

    QStringList stepResults(const QTreeWidget *steps) const
    {
        QStringList out;
        for (int i = 0; i < steps->topLevelItemCount(); ++i)
            out << steps->topLevelItem(i)->data(0, Qt::UserRole).toString() + u'=' + steps->topLevelItem(i)->text(1);
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
        QVERIFY2(m_server.start(u"newest"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));
        MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        QVERIFY(mqtt.createPersistentSession(u"gateway-1"_s, {u"site/cmd"_s}, 1).subscribed());
    }

    void probesWhatAClientSees()
    {
        ClusterController controller;
        controller.connectTo(profile());
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), 30000);

        MqttProbeDialog dialog(controller, u"ACME"_s);
        dialog.show();
        auto *steps = dialog.findChild<QTreeWidget *>(u"steps"_s);
        auto *status = dialog.findChild<QLabel *>(u"status"_s);
        auto *listener = dialog.findChild<QLineEdit *>(u"listener"_s);
        QVERIFY(steps && status && listener);
        QSignalSpy probed(&dialog, &MqttProbeDialog::probed);

        // A listener that is not host:port: said at once, nothing runs.
        dialog.setListener(u"mqtt://nohost"_s);
        dialog.probe();
        QVERIFY(!dialog.isProbing());
        QVERIFY2(status->text().contains(u"host:port"_s), qPrintable(status->text()));

        // The wrong password: the connect step fails, and the status says where.
        dialog.setListener({});
        dialog.setUser(u"acme"_s, u"wrong"_s);
        dialog.probe();
        QVERIFY(dialog.isProbing());
        QTRY_VERIFY_WITH_TIMEOUT(probed.count() == 1, 30000);
        QCOMPARE(dialog.result()->verdict, MqttProbeResult::Verdict::Failed);
        QCOMPARE(stepResults(steps), QStringList{u"connect=FAILED"_s});
        QVERIFY2(status->text().contains(u"NOT working"_s), qPrintable(status->text()));
        QVERIFY2(!status->text().contains(u"wrong"_s), "the password is never shown");

        // The right one, through the listener the server reports: every step works.
        dialog.setUser(u"acme"_s, u"acmepass"_s);
        dialog.probe();
        QTRY_VERIFY_WITH_TIMEOUT(probed.count() == 2, 30000);
        QVERIFY2(dialog.result()->verified(), qPrintable(dialog.result()->summary()));
        QCOMPARE(stepResults(steps),
                 (QStringList{u"connect=OK"_s, u"qos1=OK"_s, u"retained=OK"_s, u"clear_retained=OK"_s, u"remove_session=OK"_s}));
        QVERIFY2(status->text().contains(u"verified"_s), qPrintable(status->text()));
        QVERIFY2(dialog.result()->listener.endsWith(u':' + QString::number(m_server.mqttPort())), qPrintable(dialog.result()->listener));
        QTemporaryDir shots;
        WindowSteps::saveScreenshot(dialog, shots.path(), u"mqtt-probe.png"_s);

        // $MQTT_rmsgs deleted and created again: the server's retained consumer is gone, the retained step fails.
        {
            ConnectionSet setup(profile());
            auto conn = setup.primary();
            QVERIFY(conn);
            JetStreamClient js(*conn);
            auto info = js.call(u"STREAM.INFO.$MQTT_rmsgs"_s);
            QVERIFY(info);
            QVERIFY(js.call(u"STREAM.DELETE.$MQTT_rmsgs"_s));
            QVERIFY(js.call(u"STREAM.CREATE.$MQTT_rmsgs"_s, info->value(QLatin1String("config")).toObject()));
        }
        dialog.probe();
        QTRY_VERIFY_WITH_TIMEOUT(probed.count() == 3, 60000);
        QCOMPARE(dialog.result()->verdict, MqttProbeResult::Verdict::Failed);
        QVERIFY2(stepResults(steps).contains(u"retained=FAILED"_s), qPrintable(stepResults(steps).join(u", ")));
        QVERIFY2(status->text().contains(u"RETAINED_CONSUMER_MISSING"_s), qPrintable(status->text()));
        WindowSteps::saveScreenshot(dialog, shots.path(), u"mqtt-probe-retained-dead.png"_s);
    }

private:
    NatsServerFixture m_server;
};

QTEST_MAIN(TestMqttProbeDialog)
#include "tst_mqttprobedialog.moc"
