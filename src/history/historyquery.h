#pragma once

#include <optional>

#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include "common/result.h"
#include "diagnosis/accountsample.h"

namespace MqttDoctor {

class HistoryDatabase;

/**
 * What the history answers (read only): the findings open in a time window with their first and last
 * seen, what changed in a window, one client's story, and which checks the window holds (so that an
 * empty answer says whether anything was looked at). Times are UTC.
 */
class HistoryQuery final
{
public:
    struct Window
    {
        QDateTime since;
        QDateTime until; ///< invalid: now
        QString account; ///< empty: every account
    };
    /** One problem over the checks that saw it. */
    struct FindingSpan
    {
        QString identity; ///< Finding::identity() of the problem (what a view matches its findings with)
        QString code;
        QString severity;
        QString account;
        QString stream;
        QString subject;
        QString clientId;
        QString title;
        QDateTime firstSeen;
        QDateTime lastSeen;
        QDateTime closedAt; ///< invalid: still open
        QJsonObject toJson() const;
    };
    /** One thing that happened: a change, a finding opened or closed, a client event. */
    struct Entry
    {
        QDateTime at;
        QString account;
        QString kind; ///< "finding_opened", "session_vanished", "takeover", ...
        QString subject; ///< the session's subject, the stream, the server, the finding's code
        QString clientId;
        QString text; ///< one line for people
        QJsonObject detail;
        QJsonObject toJson() const;
    };
    /** The checks recorded in a window. */
    struct Checks
    {
        int count = 0;
        int complete = 0; ///< of them, how many looked at everything
        QDateTime first;
        QDateTime last;
        QJsonObject toJson() const;
    };

    /** One account's counts at one recorded check (a point of its timeline; -1: not known then). */
    struct CountsPoint
    {
        QDateTime at;
        qint64 sessions = -1;
        qint64 retained = -1;
        qint64 queuedMessages = -1;
        qint64 queuedBytes = -1;
        qint64 consumers = -1;
        qint64 connected = -1;
    };
    /** The open findings of each severity at one recorded check (the cluster's, or one account's). */
    struct SeverityPoint
    {
        QDateTime at;
        int critical = 0;
        int error = 0;
        int warning = 0;
        int info = 0;
    };

    explicit HistoryQuery(HistoryDatabase &database);

    /**
     * `window.account`'s counts over the window, oldest first: a point where they changed (they are written
     * only then), the value at the window's start, and the last value again at the window's last check
     * (at most `maxPoints`, evenly thinned).
     */
    Result<QList<CountsPoint>> counts(const Window &window, int maxPoints = 2000);
    /**
     * The findings open at each check of the window by severity, oldest first: a point for every check that
     * looked (at `window.account`: the checks of every account and of it; its findings and the cluster's own),
     * zeros where none was open (at most `maxPoints`).
     */
    Result<QList<SeverityPoint>> severities(const Window &window, int maxPoints = 500);

    Result<Checks> checks(const Window &window);
    /**
     * The findings open at any time in the window, most severe first, then by first seen (with an account:
     * its findings and the cluster's own, such as a server version's).
     */
    Result<QList<FindingSpan>> findings(const Window &window);
    /** Everything that changed in the window, oldest first: changes, findings opened and closed. */
    Result<QList<Entry>> changes(const Window &window);
    /** One client's story: its connects, disconnects and takeovers, record changes and findings, oldest first. */
    Result<QList<Entry>> client(const QString &clientId, const Window &window);

    /**
     * The last recorded sample of each account taken within `maxAgeSeconds` before `now` (older ones are not
     * a fair comparison): what a check's two-sample checks compare with.
     */
    Result<QHash<QString, AccountSample>> previousSamples(const QDateTime &now, qint64 maxAgeSeconds);

private:
    Result<QList<Entry>> changeRows(const QString &where, const QVariantList &values);
    Result<QList<Entry>> findingEntries(const Window &window, const QString &clientId);

    HistoryDatabase &m_database;
};

} // namespace MqttDoctor
