#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "diagnosis/finding.h"
#include "mqtt/serverversion.h"
#include "nats/accountinfo.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Known MQTT defects of nats-server releases and the releases that fix them (SERVER_VERSION_ADVISORY,
 * docs/findings.md renders the table). Static data and pure functions; any thread.
 *
 * Fixes land on several release lines at once ("2.11.12 / 2.12.3 / 2.14.0"); there is no 2.13 line. A
 * running version has the fix when it is at least the fix of its own line, or when its line is newer
 * than every line the fix is listed for (a newer line branches after the fix, so its first release has
 * it). A line older than the fixed ones, or between them without a fix of its own, does not.
 */
class VersionAdvisories final
{
public:
    struct Advisory
    {
        QString id; ///< stable, e.g. "mqtt-consumer-churn-memory"
        QString symptom; ///< what the operator sees, one sentence without a full stop
        QString affectedFrom; ///< first affected version; empty: every version before the fix
        QStringList fixedIn; ///< the first fixed release of each line, oldest line first
        QString source; ///< nats-server issue, pull request or commit
    };

    /** Every advisory, oldest fix first. */
    static const QList<Advisory> &all();
    /** Whether `running` has the fix of `fixedIn` (see the class comment). */
    static bool isFixed(const ServerVersion &running, const QStringList &fixedIn);
    /** Whether `running` (a version string as the server reports it) is affected by `advisory`; false when it does not parse. */
    static bool affects(const Advisory &advisory, const QString &running);
    /**
     * One SERVER_VERSION_ADVISORY finding (cluster scope) per advisory that affects a server serving MQTT
     * (every server where VARZ did not say), naming the servers and their versions.
     */
    static QList<Finding> findings(const QList<ServerInfo> &servers);
    /** The Markdown table docs/findings.md shows (a unit test holds the two equal). */
    static QString markdownTable();
};

} // namespace MqttDoctor
