#pragma once

#include <QDateTime>
#include <QTextStream>

#include "common/result.h"
#include "records/accountinflight.h"
#include "records/sessioninflight.h"

#include "clicontext.h"

namespace MqttDoctor::Cli {

/** The text of what is in flight: `session`'s three sections and `inflight`'s tables (docs/cli.md). */
namespace InflightText {

/** `--limit N` of `session` and `inflight` (default 100; 0: all); an error for anything but a number >= 0. */
Result<int> limitOption(CliContext &ctx);
/** "3m 12s ago"-style age of `t` at `now` ("-" when unknown). */
QString age(const QDateTime &t, const QDateTime &now);
/** The queued messages, QoS 2 incoming messages and PUBRELs of one session, with their totals and notes. */
void printSession(QTextStream &out, const SessionInflight &inflight, const QDateTime &now);
/** The sessions of an account with something in flight, then the QoS 2 records without a session. */
void printAccount(QTextStream &out, const AccountInflight &inflight, int limit);

} // namespace InflightText
} // namespace MqttDoctor::Cli
