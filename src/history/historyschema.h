#pragma once

#include <QSqlDatabase>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

/**
 * The history database's schema, version by version. `PRAGMA user_version` holds the version a
 * database is at; migrate() brings one up to kCurrentVersion in a transaction per version, so a database
 * is never left between two versions. A database written by a newer release (a higher version) is
 * refused, never changed.
 */
class HistorySchema final
{
public:
    static constexpr int kCurrentVersion = 2;

    /** The statements that take a database from `version - 1` to `version` (1: from empty). */
    static QStringList migration(int version);
    /** The database's version (0: empty). */
    static Result<int> versionOf(QSqlDatabase &db);
    /** Migrates to `target` (default the current version); each version in its own transaction. */
    static Result<void> migrate(QSqlDatabase &db, int target = kCurrentVersion);
};

} // namespace MqttDoctor
