#include "sessionfilter.h"

namespace MqttDoctor {

bool SessionFilter::accepts(const SessionEntry &entry) const
{
    if (problemsOnly && !entry.hasProblems())
        return false;
    return SessionLoader::matches(entry, text);
}

SessionFilter::MatchSet SessionFilter::matching(const std::vector<const SessionEntry *> &rows) const
{
    MatchSet out;
    for (const SessionEntry *e : rows)
        if (accepts(*e))
            out.insert(e);
    return out;
}

} // namespace MqttDoctor
