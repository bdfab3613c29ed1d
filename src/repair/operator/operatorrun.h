#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/error.h"
#include "common/result.h"
#include "nats/serverinfo.h"
#include "repair/operator/operatorplan.h"
#include "repair/operator/operatorrequest.h"
#include "repair/repairevent.h"
#include "repair/repairexecutor.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {

class ConnectionSet;
class JsonStreamWriter;
struct AccountSnapshot;

/**
 * One operator action as both front ends run it (docs/safety.md): prepare() reads what the action needs
 * (the account's records, its MQTT connections on every server, its retained messages) and plans it;
 * the front end shows plan(), selection() and counts() and asks for consent; run() executes the plan
 * through the repair engine (precondition, backup, apply, verify, audit per step) and keeps a journal in
 * the backup folder, so that a cancelled or killed run is continued by prepareResume() and run() with the steps
 * not done.
 *
 * Blocking: prepare(), run(), dryRun() and resume() read and change the servers (a worker thread). One call at a
 * time; between calls the state may be read from another thread that the caller synchronised with.
 */
class OperatorRun
{
public:
    struct Options
    {
        OperatorRequest request;
        QString backupDir; ///< required for every action that deletes something
        QString auditPath; ///< empty: AuditLog::defaultPath()
        const std::atomic<bool> *cancel = nullptr; ///< checked between steps (a step is a batch)
        /** Disconnect: how long to watch for the client coming back after its connection was closed (0: do not). */
        int reconnectWaitMs = 3000;
        /** After a step's backups, right before it changes anything (fault tests). */
        std::function<void(const RepairStep &step, const QStringList &backupFiles)> beforeApply;
    };
    using EventHandler = std::function<void(const RepairEvent &event)>;

    OperatorRun(ConnectionSet &connections, Options options);

    /**
     * Reads the account and plans the action. An error when the account cannot be read at all; a missing
     * repair target (no credentials, read-only profile) is not an error here: blocked() says why nothing can
     * be changed and the plan is still shown.
     */
    Result<void> prepare();
    /**
     * Continues the run a journal describes (run() writes `<stamp>-<account>-<action>.journal.json` in the
     * backup folder): the same request, the steps it had not finished, each re-checked by its precondition.
     * The backup folder is the journal's.
     */
    Result<void> prepareResume(const QString &journalPath);

    /** The request a journal of run() holds (what a front end shows before it resumes it); InvalidInput when it is none. */
    static Result<OperatorRequest> journalRequest(const QString &journalPath);

    const OperatorRequest &request() const { return m_options.request; }
    QString account() const { return m_account; }
    const OperatorPlan &plan() const { return m_plan; }
    /** Why changes are impossible (InvalidInput: no credentials of the account; ReadOnly); nullopt when allowed. */
    const std::optional<Error> &blocked() const { return m_blocked; }
    void setBackupDir(const QString &dir) { m_options.backupDir = dir; }

    /** Runs the plan (consent given). An error when it could not start (read-only, no backup folder): nothing changed. */
    Result<RepairExecutor::Report> run(const EventHandler &events = {});
    /** Runs the preconditions only: changes nothing, writes no backups and no journal. */
    Result<RepairExecutor::Report> dryRun(const EventHandler &events = {});

    /** The last run's (or dry run's) report; nullopt before one. */
    const std::optional<RepairExecutor::Report> &report() const { return m_report; }
    /** The journal of the last run (empty before one, or for a dry run). */
    QString journalPath() const { return m_journal; }
    /** Disconnect: each client's connections after the wait (Options::reconnectWaitMs): did it come back? */
    const QList<ClientReturn> &returns() const { return m_returns; }

    /** docs/cli.md, "Operator actions": schema `nats-mqtt-doctor/action/1` (without its "schema" member). */
    QJsonObject toJson() const;
    /**
     * The same object written piece by piece with its "schema" member `schema` (a plan of 100,000 sessions is
     * never one JSON tree): one step, one selected session at a time. The same text as toJson() stamped.
     */
    void writeJson(JsonStreamWriter &w, const QString &schema) const;
    /**
     * 0 done (or a dry run whose every step would run, or nothing to do); 1 done in part: some selected objects were
     * left alone (connected, written since the plan, not found) or a client came back; 2 a step failed or the state
     * changed under it; 3 could not read (prepare failed) or blocked.
     */
    int exitCode() const;

    /** What run() and the selection left alone (connected, changed since the plan, not found), counted. */
    qint64 leftAlone() const;

private:
    void resolveTarget(const QList<ServerInfo> &servers);
    Result<RepairExecutor::Report> execute(const EventHandler &events, bool dryRun);
    void watchReturns();

    ConnectionSet &m_connections;
    Options m_options;
    QString m_account;
    std::optional<RepairTarget> m_target;
    std::optional<Error> m_blocked;
    OperatorPlan m_plan;
    std::optional<RepairExecutor::Report> m_report;
    bool m_dryRun = false;
    QString m_journal;
    QList<ClientReturn> m_returns;
    std::shared_ptr<AccountSnapshot> m_snapshot; ///< what prepare() read, while it plans (released after)
    QStringList m_prepareNotes;
};

} // namespace MqttDoctor
