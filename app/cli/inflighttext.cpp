#include "inflighttext.h"

#include <QStringList>

#include "common/duration.h"
#include "mqtt/mqttlayout.h"
#include "textoutput.h"

namespace MqttDoctor::Cli::InflightText {

namespace {

void printNotes(QTextStream &out, const QStringList &notes)
{
    for (const QString &n : notes)
        out << "  note: " << n << '\n';
}

QString countLine(qsizetype shown, qint64 total, const char *what)
{
    if (qint64(shown) >= total)
        return QStringLiteral("%1 %2").arg(total).arg(QLatin1String(what));
    return QStringLiteral("%1 %2, the first %3 shown (--limit)").arg(total).arg(QLatin1String(what)).arg(shown);
}

QString deliveredText(const SessionInflight::Queued &q)
{
    if (q.delivered == 0)
        return QStringLiteral("no");
    return QStringLiteral("%1%2x").arg(q.deliveredExact ? QString() : QStringLiteral("~")).arg(q.delivered);
}

} // namespace

Result<int> limitOption(CliContext &ctx)
{
    const QString text = ctx.parser.value(QStringLiteral("limit"));
    if (text.isEmpty())
        return 100;
    bool ok = false;
    const int n = text.toInt(&ok);
    if (!ok || n < 0)
        return Error(Error::Kind::InvalidInput, QStringLiteral("--limit must be a number >= 0 (0: all), not \"%1\"").arg(text));
    return n;
}

QString age(const QDateTime &t, const QDateTime &now)
{
    if (!t.isValid())
        return QStringLiteral("-");
    return formatAge(qMax<qint64>(0, t.secsTo(now)));
}

void printSession(QTextStream &out, const SessionInflight &in, const QDateTime &now)
{
    out << "\nQueued (" << countLine(in.queued.size(), in.queuedTotal, "messages not yet acknowledged") << "):\n";
    TextTable queued({QStringLiteral("SEQ"), QStringLiteral("CONSUMER"), QStringLiteral("TOPIC"), QStringLiteral("QOS"),
                      QStringLiteral("SIZE"), QStringLiteral("AGE"), QStringLiteral("DELIVERED"), QStringLiteral("PAYLOAD")});
    for (const SessionInflight::Queued &q : in.queued)
        queued.addRow({QString::number(q.seq), q.consumer, q.topic, QString::number(q.qos), QString::number(q.size), age(q.time, now),
                       deliveredText(q), q.problem.isEmpty() ? q.payloadPreview : q.problem});
    if (!in.messagesStream && queued.isEmpty())
        out << "  (" << MqttLayout::messagesStream() << " does not exist, see the note)\n";
    else if (queued.isEmpty())
        out << "  (none)\n";
    else
        queued.print(out, 2);

    out << "\nQoS 2 incoming, waiting for the client's PUBREL (" << countLine(in.qos2Incoming.size(), in.qos2IncomingTotal, "messages")
        << "):\n";
    TextTable incoming(
        {QStringLiteral("PACKET ID"), QStringLiteral("TOPIC"), QStringLiteral("SIZE"), QStringLiteral("AGE"), QStringLiteral("SEQ")});
    for (const SessionInflight::Qos2Incoming &q : in.qos2Incoming)
        incoming.addRow({QString::number(q.packetId),
                         q.problem.isEmpty() ? q.topic + (q.retain ? QStringLiteral(" (retain)") : QString()) : q.problem,
                         QString::number(q.size), age(q.time, now), QString::number(q.seq)});
    if (!in.qos2InStream && in.qos2Incoming.isEmpty())
        out << "  (" << MqttLayout::qos2InStream() << " does not exist, see the note)\n";
    else if (incoming.isEmpty())
        out << "  (none)\n";
    else
        incoming.print(out, 2);

    out << "\nPUBREL sent, waiting for the client's PUBCOMP (" << countLine(in.pubrelPending.size(), in.pubrelTotal, "packets") << "):\n";
    TextTable pubrel({QStringLiteral("PACKET ID"), QStringLiteral("AGE"), QStringLiteral("SEQ")});
    for (const SessionInflight::PubRel &p : in.pubrelPending)
        pubrel.addRow({p.problem.isEmpty() ? QString::number(p.packetId) : p.problem, age(p.time, now), QString::number(p.seq)});
    if (!in.outStream && in.pubrelPending.isEmpty())
        out << "  (" << MqttLayout::outStream() << " does not exist, see the note)\n";
    else if (pubrel.isEmpty())
        out << "  (none)\n";
    else
        pubrel.print(out, 2);
    if (!in.notes.isEmpty()) {
        out << '\n';
        printNotes(out, in.notes);
    }
}

void printAccount(QTextStream &out, const AccountInflight &in, int limit)
{
    TextTable sessions({QStringLiteral("CLIENT ID"), QStringLiteral("HASH"), QStringLiteral("QUEUED"), QStringLiteral("OLDEST QUEUED"),
                        QStringLiteral("QOS2 IN"), QStringLiteral("OLDEST QOS2 IN"), QStringLiteral("PUBREL"),
                        QStringLiteral("OLDEST PUBREL")});
    qsizetype shown = 0;
    for (const AccountInflight::Session &s : in.sessions) {
        if (limit > 0 && shown >= limit)
            break;
        ++shown;
        const QString oldestQueued = s.oldestQueued
            ? QStringLiteral("%1 (%2, seq %3)").arg(age(s.oldestQueued->time, in.now), s.oldestQueued->topic).arg(s.oldestQueued->seq)
            : QStringLiteral("-");
        sessions.addRow({s.clientId.isEmpty() ? QStringLiteral("(hash %1)").arg(s.hash) : s.clientId, s.hash,
                         QString::number(s.queuedTotal), oldestQueued, QString::number(s.qos2Incoming), age(s.oldestQos2Incoming, in.now),
                         QString::number(s.pubrelPending), age(s.oldestPubrel, in.now)});
    }
    if (sessions.isEmpty())
        out << "No session has messages in flight.\n";
    else
        sessions.print(out);
    if (shown < in.sessions.size())
        out << "\n(first " << shown << " of " << in.sessions.size() << " sessions, oldest first; --limit 0 shows all)\n";
    if (!in.orphans.isEmpty()) {
        out << "\nQoS 2 records whose session no longer exists (QOS2_ORPHANED; \"repair --finding QOS2_ORPHANED\" backs them up "
               "and deletes them):\n";
        TextTable orphans({QStringLiteral("STREAM"), QStringLiteral("CLIENT ID"), QStringLiteral("HASH"), QStringLiteral("RECORDS"),
                           QStringLiteral("PACKET IDS"), QStringLiteral("OLDEST")});
        for (const Qos2Records::Orphans &o : in.orphans) {
            QStringList pis;
            for (int pi : o.packetIds)
                pis << QString::number(pi);
            orphans.addRow({o.stream, o.clientId.isEmpty() ? QStringLiteral("-") : o.clientId, o.hash, QString::number(o.sequences.size()),
                            pis.join(u','), age(o.oldest, in.now)});
        }
        orphans.print(out, 2);
    }
    if (!in.notes.isEmpty()) {
        out << '\n';
        printNotes(out, in.notes);
    }
}

} // namespace MqttDoctor::Cli::InflightText
