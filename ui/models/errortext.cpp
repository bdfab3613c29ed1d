#include "models/errortext.h"

namespace MqttDoctor {

QString ErrorText::hint(const Error &error)
{
    QString how;
    switch (error.setting()) {
    case Error::Setting::AccountCredentials:
        how = tr("in Connect…, sign in as a user of that account, or add the account's credentials under "
                 "\"accounts\" in the profile file");
        break;
    case Error::Setting::AllowChanges: how = tr("turn on \"Allow changes\" in the connection settings (Connect…)"); break;
    case Error::Setting::SystemCredentials: how = tr("in Connect…, fill in the system account's user or credentials file"); break;
    case Error::Setting::None: break;
    }
    if (how.isEmpty())
        return error.hint();
    return error.hint().isEmpty() ? how : tr("%1: %2").arg(error.hint(), how);
}

QString ErrorText::hintSuffix(const Error &error, const QString &separator)
{
    const QString h = hint(error);
    return h.isEmpty() ? QString() : separator + h;
}

QString ErrorText::withHint(const Error &error, const QString &separator)
{
    return error.message() + hintSuffix(error, separator);
}

} // namespace MqttDoctor
