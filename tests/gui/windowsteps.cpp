#include "windowsteps.h"

#include <QDir>
#include <QTest>
#include <QTreeView>

#include "controllers/clustercontroller.h"
#include "mainwindow.h"
#include "panels/accountworkspace.h"
#include "panels/clustertreepanel.h"
#include "panels/consumerspanel.h"
#include "panels/retainedpanel.h"
#include "panels/sessionspanel.h"

namespace MqttDoctor::Test::WindowSteps {

Profile standardProfile(const QString &serverUrl, bool acmeCredentials, const QString &name)
{
    Profile p;
    p.name = name;
    p.servers = {serverUrl};
    p.system.kind = Credentials::Kind::UserPassword;
    p.system.user = QStringLiteral("sys");
    p.system.password = QStringLiteral("syspass");
    if (acmeCredentials) {
        Credentials acme;
        acme.kind = Credentials::Kind::UserPassword;
        acme.user = QStringLiteral("acme");
        acme.password = QStringLiteral("acmepass");
        p.accounts.insert(QStringLiteral("ACME"), acme);
    }
    p.timeoutMs = 5000;
    return p;
}

bool openAccount(MainWindow &window, ClusterController &controller, const Profile &profile, const QString &account, int timeoutMs)
{
    window.resize(1400, 860);
    window.show();
    if (!QTest::qWaitForWindowExposed(&window))
        return false;
    controller.connectTo(profile);
    ClusterTreeModel &tree = *window.treeModel();
    if (!QTest::qWaitFor([&] { return tree.accountIndex(account).isValid() && !controller.isLoading(); }, timeoutMs))
        return false;
    const QModelIndex index = tree.accountIndex(account);
    window.treePanel()->setCurrentSourceIndex(index);
    window.treePanel()->expandSource(index);
    return true;
}

bool openRecordView(MainWindow &window, ClusterTreeModel::NodeKind kind, const QString &account, int timeoutMs)
{
    const QModelIndex node = window.treeModel()->dataIndex(account, kind);
    if (!node.isValid())
        return false;
    window.treePanel()->setCurrentSourceIndex(node);
    AccountWorkspace &workspace = *window.workspace();
    return QTest::qWaitFor(
        [&] {
            switch (kind) {
            case ClusterTreeModel::NodeKind::Sessions: return workspace.sessionsPanel()->isLoaded();
            case ClusterTreeModel::NodeKind::Retained: return workspace.retainedPanel()->isLoaded();
            case ClusterTreeModel::NodeKind::Consumers: return workspace.consumersPanel()->isLoaded();
            default: return false;
            }
        },
        timeoutMs);
}

QString saveScreenshot(QWidget &widget, const QString &tempDir, const QString &fileName, bool forDocs)
{
    QString path = QDir(tempDir).filePath(fileName);
    if (forDocs && qEnvironmentVariable("MQTTDOCTOR_WRITE_SCREENSHOTS") == QLatin1String("1")
        && qEnvironmentVariableIsSet("MQTTDOCTOR_SOURCE_DIR")) {
        const QDir dir(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + QStringLiteral("/docs/screenshots"));
        QDir().mkpath(dir.path());
        path = dir.filePath(fileName);
    }
    QTest::qWait(50); // let the last layout and paint happen
    if (!widget.grab().save(path))
        return {};
    qInfo("screenshot: %s", qPrintable(path));
    return path;
}

} // namespace MqttDoctor::Test::WindowSteps
