#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/serverinfo.h"

namespace MqttDoctor {

/**
 * Where the history lives: one database per cluster, `<folder>/<cluster>.sqlite`, the folder being
 * `$XDG_DATA_HOME/nats-mqtt-doctor/history` unless `--history-dir` or the profile's `history_dir` say
 * otherwise. The cluster is named by what its servers report (the cluster's name, else the server's),
 * so two profiles of one cluster share its history.
 */
class HistoryLocation final
{
public:
    /** `$XDG_DATA_HOME/nats-mqtt-doctor/history` (`~/.local/share/...` when unset). */
    static QString defaultFolder();
    /** `given` when set, else defaultFolder(). */
    static QString folder(const QString &given);
    /** The cluster's name as the servers report it: their cluster name, else the first server's name. */
    static QString clusterName(const QList<ServerInfo> &servers);
    /** The database file of `cluster` in `folder` (the name made safe for a file name). */
    static QString databasePath(const QString &folder, const QString &cluster);
    /**
     * Without a connection: the database in `folder` of the cluster `cluster` when given, else the one
     * recorded through one of `urls`, else the only one there. Errors list what the folder holds.
     */
    static Result<QString> find(const QString &folder, const QString &cluster, const QStringList &urls);
    /** The database in `folder` a check was recorded into through one of `urls`; empty when none. */
    static QString recordedThrough(const QString &folder, const QStringList &urls);
    /** The clusters of the databases in `folder`, by name (from their file names). */
    static QStringList clustersIn(const QString &folder);
};

} // namespace MqttDoctor
