#pragma once

#include <functional>

#include <QHash>
#include <QList>
#include <QString>

#include "common/result.h"
#include "diagnosis/checkoptions.h"
#include "diagnosis/diagnosisinput.h"
#include "diagnosis/finding.h"

namespace MqttDoctor {

class ConnectionSet;

/**
 * Gathers what the checks look at, through the best connection available for each account: the
 * account's own JetStream API when the profile has its credentials (or it is the connection's own
 * account), else the system account's JSZ view. Each account is read as one AccountSnapshot (each
 * thing once; the servers as the connection set knows them). Blocking: call on a worker thread.
 */
namespace DiagnosisGatherer {

struct Request
{
    QString account; ///< one account; empty: the connection's own account, or all with only a system connection
    bool allAccounts = false; ///< every account (needs a system connection)
    CheckOptions options;
    /** Also read the session records and run the record-level checks where the account's credentials allow. */
    bool records = true;
    /** How many accounts are read through their own connections at once (every-account checks). */
    int parallelAccounts = kDefaultParallelAccounts;
    /**
     * Called as each account read through its own connection is done (every-account checks), from
     * the worker threads that read them: `done` of `total`, and the account's name.
     */
    std::function<void(int done, int total, const QString &account)> progress;
    /** Earlier samples of accounts by name (DiagnosisInput::previousSamples), handed to the checks. */
    QHash<QString, AccountSample> previousSamples;

    static constexpr int kDefaultParallelAccounts = 8;
};

/** The servers and the account(s) to check. */
Result<DiagnosisInput> gather(ConnectionSet &connections, const Request &request);
/** The sample of every account of a gathered input (AccountSample::of at its sampledAt), by name. */
QHash<QString, AccountSample> samplesOf(const DiagnosisInput &input);
/** gather() then Checks::diagnose(). */
Result<QList<Finding>> check(ConnectionSet &connections, const Request &request);

} // namespace DiagnosisGatherer
} // namespace MqttDoctor
