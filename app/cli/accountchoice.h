#pragma once

#include <optional>

#include <QString>

#include "clicontext.h"
#include "common/result.h"
#include "records/accountrecordaccess.h"
#include "repair/repairtarget.h"

namespace MqttDoctor {
class ConnectionSet;
}

namespace MqttDoctor::Cli {

/**
 * The account a command works on (its --account), where the core's errors cannot tell the causes
 * apart:
 * - before anything connects, a command that works on one account (AccountUse::One) given neither
 *   --account nor a user of an account is a usage error that says to give --account and how to see
 *   the accounts, not that credentials are missing;
 * - when an account's own connection cannot be had, an account that does not exist is said to be
 *   missing, as `check --account` says it, not to lack credentials.
 */
class AccountChoice final
{
public:
    /**
     * The usage error of `command` run without an account (`account` empty) where it needs one and
     * the profile has no user of an account to default to; nothing when the command can run. Only when
     * --account can help: the profile has a system connection or per-account credentials.
     */
    static std::optional<Error> missing(const Command &command, const Profile &profile, const QString &account);

    /** AccountRecordAccess::resolve() with explained() errors. */
    static Result<AccountRecordAccess> recordAccess(ConnectionSet &connections, const QString &account);
    /** RepairTarget::resolve() with explained() errors. */
    static Result<RepairTarget> repairTarget(ConnectionSet &connections, const QString &account);

    /**
     * `error`, from getting `account`'s own connection; when the profile holds no credentials for the
     * account and a system connection can look, the error of an account that does not exist instead
     * (Discovery::account's, the one `check --account` gives). Asks the servers only on this failure path.
     */
    static Error explained(ConnectionSet &connections, const QString &account, const Error &error);
};

} // namespace MqttDoctor::Cli
