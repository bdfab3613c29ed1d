#pragma once

#include <unordered_set>
#include <vector>

#include <QString>

#include "records/sessionloader.h"

namespace MqttDoctor {

/**
 * What the sessions table shows: the CLI's `--filter` text (SessionLoader::matches: client ID, hash,
 * subject or any subscription, case-insensitive) and optionally only rows with problems. matching()
 * evaluates it over many rows; the sessions table runs that on a worker for a large table, so the
 * GUI thread only looks the answer up. Pure; any thread, as long as the entries stay alive.
 */
struct SessionFilter
{
    QString text;
    bool problemsOnly = false;

    bool isEmpty() const { return text.isEmpty() && !problemsOnly; }
    bool accepts(const SessionEntry &entry) const;
    friend bool operator==(const SessionFilter &, const SessionFilter &) = default;

    /** The entries (of `rows`) the filter accepts, by address. */
    using MatchSet = std::unordered_set<const SessionEntry *>;
    MatchSet matching(const std::vector<const SessionEntry *> &rows) const;
};

} // namespace MqttDoctor
