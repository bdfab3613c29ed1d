#pragma once

#include <QString>

#include "models/clustertreemodel.h"
#include "nats/profile.h"

class QWidget;

namespace MqttDoctor {
class ClusterController;
class MainWindow;
} // namespace MqttDoctor

namespace MqttDoctor::Test::WindowSteps {

/**
 * The steps the main-window tests share, against a server made from ServerConfig::standard()
 * (SYS sys/syspass, ACME acme/acmepass). Each step that waits returns false after `timeoutMs`, so a
 * test writes QVERIFY(step(...)) and fails at its own line.
 */

constexpr int kLoadTimeoutMs = 30000;

/** The system user and, with `acmeCredentials`, ACME's own user; 5 s request timeout. */
Profile standardProfile(const QString &serverUrl, bool acmeCredentials = true, const QString &name = QStringLiteral("gui-test"));

/**
 * Shows the window (1400×860), connects it with `profile` and waits until `account` is in the tree
 * and discovery is done; then selects and expands the account.
 */
[[nodiscard]] bool openAccount(MainWindow &window, ClusterController &controller, const Profile &profile,
                               const QString &account = QStringLiteral("ACME"), int timeoutMs = kLoadTimeoutMs);

/** Selects one of an account's record views in the tree (sessions, retained, consumers) and waits until its panel has loaded. */
[[nodiscard]] bool openRecordView(MainWindow &window, ClusterTreeModel::NodeKind kind, const QString &account = QStringLiteral("ACME"),
                                  int timeoutMs = kLoadTimeoutMs);

/**
 * Saves `widget.grab()` as `fileName` in `tempDir`, or in docs/screenshots of the source tree when
 * MQTTDOCTOR_WRITE_SCREENSHOTS=1 and MQTTDOCTOR_SOURCE_DIR are set and `forDocs`. Returns the path
 * written, empty when it could not be written.
 */
QString saveScreenshot(QWidget &widget, const QString &tempDir, const QString &fileName, bool forDocs = true);

} // namespace MqttDoctor::Test::WindowSteps
