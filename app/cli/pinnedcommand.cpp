#include "pinnedcommand.h"
#include "jsoncontract.h"

#include <QJsonArray>
#include <QLocale>

#include "accountchoice.h"
#include "common/jsonstreamwriter.h"
#include "diagnosis/accountsnapshotloader.h"
#include "diagnosis/interestholder.h"
#include "missingstream.h"
#include "mqtt/mqttlayout.h"
#include "textoutput.h"

namespace MqttDoctor::Cli {

namespace {

QString pinnedBytes(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

QString pinnedCount(qint64 n)
{
    return QLocale::c().toString(n);
}

int runPinned(CliContext &ctx)
{
    const QString accountName = ctx.parser.value(QStringLiteral("account"));
    bool ok = true;
    const QString topText = ctx.parser.value(QStringLiteral("top"));
    const qlonglong top = topText.isEmpty() ? 20 : topText.toLongLong(&ok);
    if (!ok || top < 0)
        return ctx.usage(QStringLiteral("--top must be a number >= 0 (0: all), not \"%1\"").arg(topText));
    const QString warnText = ctx.parser.value(QStringLiteral("pinned-warn-at"));
    const qlonglong warnAt = warnText.isEmpty() ? CheckOptions().pinnedWarnAt : warnText.toLongLong(&ok);
    if (!ok || warnAt < 0)
        return ctx.usage(QStringLiteral("--pinned-warn-at must be a number of messages, 0 or more, not \"%1\"").arg(warnText));

    AccountSnapshotLoader::Options load;
    auto snapshot = AccountSnapshotLoader(*ctx.connections).load(accountName, load);
    if (!snapshot)
        return ctx.fail(AccountChoice::explained(*ctx.connections, accountName, snapshot.error()));
    // Without $MQTT_msgs nothing can be pinned in it, and that says nothing about the sessions: the missing
    // stream is reported (with the finding that explains it), as for a missing $MQTT_sess.
    bool messagesStreamMissing = snapshot->account.streamsKnown;
    for (const StreamInfo &s : snapshot->account.streams)
        messagesStreamMissing = messagesStreamMissing && s.name != MqttLayout::messagesStream();
    if ((snapshot->account.jetstreamKnown && !snapshot->account.jetstream) || snapshot->noSessionsStream || messagesStreamMissing) {
        std::optional<JsonStreamWriter> json;
        if (ctx.json) {
            json.emplace(ctx.out);
            json->beginObject();
            json->string(QStringLiteral("schema"), JsonContract::id(QStringLiteral("pinned")));
            json->string(QStringLiteral("account"), snapshot->account.name);
            json->beginArray(QStringLiteral("holders"));
            json->endArray();
        }
        const bool sessions = snapshot->noSessionsStream || !snapshot->account.jetstream;
        const int rc = MissingStream::report(ctx, *snapshot, sessions ? MqttLayout::sessionsStream() : MqttLayout::messagesStream(),
                                             sessions ? QStringLiteral("session records") : QStringLiteral("queued messages"),
                                             json ? &*json : nullptr);
        if (json)
            json->finish();
        return rc;
    }
    if (snapshot->recordsError)
        return ctx.fail(*snapshot->recordsError);

    const QList<InterestHolder> holders = InterestHolder::ofAccount(snapshot->records, snapshot->account);
    const bool connectedKnown = snapshot->records.connected.has_value();
    qint64 offlineSessions = 0, offlineMessages = 0, offlineBytes = 0, aboveThreshold = 0;
    for (const InterestHolder &h : holders)
        if (h.kind == InterestHolder::Kind::Session && h.connected == false) {
            ++offlineSessions;
            offlineMessages += h.messages;
            offlineBytes += h.bytes;
            aboveThreshold += h.messages > warnAt;
        }
    QJsonObject streams;
    for (const StreamInfo &s : snapshot->account.streams)
        if (s.name == MqttLayout::messagesStream() || s.name == MqttLayout::outStream())
            streams.insert(s.name,
                           QJsonObject{{QStringLiteral("messages"), s.state.value(QLatin1String("messages")).toInteger()},
                                       {QStringLiteral("bytes"), s.state.value(QLatin1String("bytes")).toInteger()},
                                       {QStringLiteral("consumers"), qint64(s.consumers.size())}});
    const qsizetype shown = top == 0 ? holders.size() : std::min<qsizetype>(holders.size(), qsizetype(top));

    if (ctx.json) {
        QJsonArray rows;
        for (qsizetype i = 0; i < shown; ++i)
            rows.append(holders.at(i).toJson());
        printJson(ctx.out,
                  QJsonObject{{QStringLiteral("schema"), JsonContract::id(QStringLiteral("pinned"))},
                              {QStringLiteral("account"), snapshot->account.name},
                              {QStringLiteral("streams"), streams},
                              {QStringLiteral("holders"), rows},
                              {QStringLiteral("holders_total"), qint64(holders.size())},
                              {QStringLiteral("connected_known"), connectedKnown},
                              {QStringLiteral("offline"),
                               QJsonObject{{QStringLiteral("sessions"), offlineSessions},
                                           {QStringLiteral("messages"), offlineMessages},
                                           {QStringLiteral("bytes"), offlineBytes},
                                           {QStringLiteral("above_threshold"), aboveThreshold}}},
                              {QStringLiteral("pinned_warn_at"), qint64(warnAt)},
                              {QStringLiteral("truncated"), shown < holders.size()}});
        return ExitOk;
    }

    QStringList sizes;
    for (auto it = streams.begin(); it != streams.end(); ++it) {
        const QJsonObject s = it.value().toObject();
        sizes << QStringLiteral("%1 %2 message(s), %3")
                     .arg(it.key(), pinnedCount(s.value(QLatin1String("messages")).toInteger()),
                          pinnedBytes(s.value(QLatin1String("bytes")).toInteger()));
    }
    ctx.out << "Interest streams of account " << snapshot->account.name << ": "
            << (sizes.isEmpty() ? QStringLiteral("none") : sizes.join(QStringLiteral("; "))) << ".\n";
    if (holders.isEmpty()) {
        ctx.out << "No durable holds a message: nothing is pinned.\n";
        return ExitOk;
    }
    ctx.out << "Top " << shown << " of " << holders.size()
            << " holder(s) by bytes (bytes estimated from each stream's average message size; a message several durables wait "
               "for counts for each):\n";
    ctx.out << "  " << QStringLiteral("CLIENT ID / HASH").leftJustified(24) << ' ' << QStringLiteral("KIND").leftJustified(16) << ' '
            << QStringLiteral("CONNECTED").leftJustified(9) << ' ' << QStringLiteral("RECORD WRITTEN").leftJustified(20) << ' '
            << QStringLiteral("MESSAGES").rightJustified(10) << ' ' << QStringLiteral("UNACKED").rightJustified(8) << ' '
            << QStringLiteral("BYTES").rightJustified(10) << "  DURABLES\n";
    for (qsizetype i = 0; i < shown; ++i) {
        const InterestHolder &h = holders.at(i);
        const QString who =
            h.clientId.isEmpty() ? QStringLiteral("(hash %1)").arg(h.hash.isEmpty() ? QStringLiteral("-") : h.hash) : h.clientId;
        const QString connected = !h.connected ? QStringLiteral("?") : *h.connected ? QStringLiteral("yes") : QStringLiteral("no");
        const bool flagged = h.kind == InterestHolder::Kind::Session && h.connected == false && h.messages > warnAt;
        ctx.out << (flagged ? "! " : "  ") << who.leftJustified(24) << ' ' << InterestHolder::kindName(h.kind).leftJustified(16) << ' '
                << connected.leftJustified(9) << ' '
                << (h.written.isValid() ? h.written.toString(Qt::ISODate) : QStringLiteral("-")).leftJustified(20) << ' '
                << pinnedCount(h.messages).rightJustified(10) << ' ' << pinnedCount(h.unacknowledged).rightJustified(8) << ' '
                << pinnedBytes(h.bytes).rightJustified(10) << "  " << h.durables.join(QStringLiteral(", ")) << '\n';
    }
    if (!connectedKnown)
        ctx.out << "Connected state unknown (no system connection): offline sessions cannot be told apart.\n";
    else
        ctx.out << "Offline sessions hold " << pinnedCount(offlineMessages) << " message(s), about " << pinnedBytes(offlineBytes) << ", in "
                << offlineSessions << " session(s); " << aboveThreshold << " above the INTEREST_PINNED threshold of " << pinnedCount(warnAt)
                << " (marked !).\n";
    if (aboveThreshold > 0)
        ctx.out << "To delete those sessions (each backed up first): " << programName() << " repair --account " << snapshot->account.name
                << " --finding INTEREST_PINNED"
                << (warnAt != CheckOptions().pinnedWarnAt ? QStringLiteral(" --pinned-warn-at %1").arg(warnAt) : QString()) << '\n';
    return ExitOk;
}

} // namespace

QList<Command> pinnedCommands()
{
    Command pinned{QStringLiteral("pinned"),
                   QStringLiteral("Who keeps messages in $MQTT_msgs and $MQTT_out (interest retention): per session, messages, "
                                  "estimated bytes, connected, when its record was written."),
                   {QCommandLineOption(QStringLiteral("account"), QStringLiteral("The account (default: the connected user's account)."),
                                       QStringLiteral("name")),
                    QCommandLineOption(QStringLiteral("top"), QStringLiteral("The N holders with the most bytes (0: all)."),
                                       QStringLiteral("n"), QStringLiteral("20")),
                    QCommandLineOption(QStringLiteral("pinned-warn-at"),
                                       QStringLiteral("Mark offline sessions holding more messages than this (INTEREST_PINNED)."),
                                       QStringLiteral("messages"), QStringLiteral("10000"))},
                   runPinned};
    pinned.account = AccountUse::One;
    pinned.needsAccountCredentials = true;
    return {pinned};
}

} // namespace MqttDoctor::Cli
