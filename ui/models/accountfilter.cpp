#include "accountfilter.h"

namespace MqttDoctor::AccountFilter {

QString normalized(const QString &text)
{
    return text.trimmed();
}

bool matches(const QString &accountName, const QString &text)
{
    return text.isEmpty() || accountName.contains(text, Qt::CaseInsensitive);
}

} // namespace MqttDoctor::AccountFilter
