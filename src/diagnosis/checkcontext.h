#pragma once

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

#include "diagnosis/accountcheckinput.h"
#include "diagnosis/finding.h"
#include "mqtt/layoutchoice.h"

namespace MqttDoctor {

/**
 * Internal to the checks (checks.h is the API): what every account check shares. BlockerChecks,
 * StreamChecks and RetainedChecks read it (BlockerChecks also fills `blocked` and `limits`). Lives for
 * one Checks::checkAccount call and points into its input.
 */
struct CheckContext
{
    const AccountCheckInput *input = nullptr;
    QString account;
    LayoutChoice choice;
    QHash<QString, const StreamInfo *> streams; ///< every stream of the account by name
    QStringList present; ///< expected MQTT streams that exist, creation order
    QStringList missing; ///< expected MQTT streams that do not, creation order
    std::optional<QJsonObject> limits;
    /** Missing streams whose creation will fail (the blocker's finding names them). */
    QSet<QString> blocked;
    /** No expected stream exists and the account is not known to serve MQTT: cap severities at warning. */
    bool capAtWarning = false;

    static CheckContext make(const AccountCheckInput &input);

    const MqttLayout &layout() const { return choice.layout; }
    const StreamInfo *stream(const QString &name) const { return streams.value(name, nullptr); }

    // The parts of checkAccount, in the order they run: the first three record what blocks creation.

    // Helpers shared by the parts.
    static qint64 messagesOf(const StreamInfo &s);
    static Finding::Severity maxSeverity(Finding::Severity a, Finding::Severity b);
    /** The log catalogue's id of the server's "create <label> stream for account %q: %v" line for an MQTT stream name. */
    static QString createLineFor(const QString &streamName);
    /** A server line a finding explains: the log catalogue's template `id`, with the error of cause `causeKey` in it. */
    static QString line(const QString &id, const QString &causeKey = {});
};

} // namespace MqttDoctor
