#include "accountsort.h"

namespace MqttDoctor::AccountSort {

bool nameLess(const QString &a, const QString &b)
{
    const int folded = QString::compare(a, b, Qt::CaseInsensitive);
    if (folded != 0)
        return folded < 0;
    return QString::compare(a, b, Qt::CaseSensitive) < 0;
}

int problemRank(HealthBadge::Health health)
{
    switch (health) {
    case HealthBadge::Health::Critical: return 0;
    case HealthBadge::Health::Error: return 1;
    case HealthBadge::Health::Warning: return 2;
    case HealthBadge::Health::Info:
    case HealthBadge::Health::Ok:
    case HealthBadge::Health::Unknown: break;
    }
    return 3;
}

bool lessThan(Mode mode, HealthBadge::Health healthA, const QString &nameA, HealthBadge::Health healthB, const QString &nameB)
{
    if (mode == Mode::ByHealth) {
        const int a = problemRank(healthA);
        const int b = problemRank(healthB);
        if (a != b)
            return a < b;
    }
    return nameLess(nameA, nameB);
}

QString key(Mode mode)
{
    return mode == Mode::ByName ? QStringLiteral("name") : QStringLiteral("health");
}

Mode fromKey(const QString &key)
{
    return key == QLatin1String("name") ? Mode::ByName : Mode::ByHealth;
}

} // namespace MqttDoctor::AccountSort
