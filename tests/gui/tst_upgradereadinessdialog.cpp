// The upgrade readiness dialog against a real nats-server 2.10 (tests/support fixture): a persistent session
// of the client ID "dev.1" (2.10 accepts it, 2.11.15 / 2.12.6 / 2.14.0 refuse it). The dialog checks the
// account on the controller's pool, lists the refusal with the client ID and the version, shows its detail,
// says so when a target changes nothing, and refuses a target that is not a version without asking the
// servers. Screenshot to docs/screenshots with MQTTDOCTOR_WRITE_SCREENSHOTS=1, else to a temporary folder.
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeWidget>

#include "controllers/clustercontroller.h"
#include "dialogs/upgradereadinessdialog.h"
#include "mqttclient.h"
#include "natsserverfixture.h"
#include "serverconfig.h"
#include "windowsteps.h"

using namespace MqttDoctor;
using namespace MqttDoctor::Test;
using namespace Qt::Literals::StringLiterals;

class TestUpgradeReadinessDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        const QString missing = MqttClient::missingTools();
        if (!missing.isEmpty())
            QFAIL(qPrintable(u"mosquitto clients are missing (%1): install the Debian package mosquitto-clients"_s.arg(missing)));
        QVERIFY2(m_server.start(u"2.10"_s, ServerConfig::standard()), qPrintable(m_server.errorString()));
        MqttClient mqtt(m_server.mqttPort(), u"acme"_s, u"acmepass"_s);
        for (const QString &id : {u"dev.1"_s, u"plant-7"_s}) {
            const MqttResult r = mqtt.createPersistentSession(id, {u"site/cmd"_s}, 1);
            QVERIFY2(r.connected() && r.subscribed(), qPrintable(r.describe()));
        }
    }

    void listsWhatTheTargetRefuses()
    {
        ClusterController controller;
        Profile p;
        p.name = u"upgrade-test"_s;
        p.servers = {m_server.url()};
        p.auth.kind = Credentials::Kind::UserPassword;
        p.auth.user = u"acme"_s;
        p.auth.password = u"acmepass"_s;
        p.system.kind = Credentials::Kind::UserPassword;
        p.system.user = u"sys"_s;
        p.system.password = u"syspass"_s;
        controller.connectTo(p);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.isLoading(), 30000);

        UpgradeReadinessDialog dialog(controller, u"ACME"_s);
        dialog.show();
        auto *results = dialog.findChild<QTreeWidget *>(u"results"_s);
        auto *status = dialog.findChild<QLabel *>(u"status"_s);
        auto *detail = dialog.findChild<QTextBrowser *>(u"detail"_s);
        QVERIFY(results && status && detail);

        // Not a version: said at once, nothing asked.
        dialog.setTargetVersion(u"latest"_s);
        dialog.check();
        QVERIFY(!dialog.isChecking());
        QVERIFY2(status->text().contains(u"not a nats-server version"_s), qPrintable(status->text()));

        QSignalSpy checked(&dialog, &UpgradeReadinessDialog::checked);
        dialog.setTargetVersion(u"2.14.5"_s);
        dialog.check();
        QVERIFY(dialog.isChecking());
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() == 1, 30000);
        QCOMPARE(results->topLevelItemCount(), 1);
        const QTreeWidgetItem *row = results->topLevelItem(0);
        QCOMPARE(row->text(0), u"UPGRADE_CLIENT_ID_REFUSED"_s);
        QCOMPARE(row->text(1), u"dev.1"_s);
        QCOMPARE(row->text(2), u"2.11.15 / 2.12.6 / 2.14.0"_s);
        QVERIFY2(detail->toPlainText().contains(u"CONNACK 0x02"_s), qPrintable(detail->toPlainText()));
        QVERIFY2(status->text().contains(u"2.14.5"_s), qPrintable(status->text()));

        QTemporaryDir shots;
        WindowSteps::saveScreenshot(dialog, shots.path(), u"upgrade-readiness.png"_s);

        // A target before the change: nothing to report, and the dialog says so.
        dialog.setTargetVersion(u"2.11.14"_s);
        dialog.check();
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() == 2, 30000);
        QCOMPARE(results->topLevelItemCount(), 0);
        QVERIFY2(status->text().contains(u"Nothing"_s), qPrintable(status->text()));
    }

private:
    NatsServerFixture m_server;
};

QTEST_MAIN(TestUpgradeReadinessDialog)
#include "tst_upgradereadinessdialog.moc"
