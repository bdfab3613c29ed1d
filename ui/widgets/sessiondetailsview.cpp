#include "sessiondetailsview.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStringConverter>

#include "common/duration.h"
#include "models/sessiontablemodel.h"

namespace MqttDoctor {

SessionDetailsView::SessionDetailsView(QWidget *parent)
    : QWidget(parent), m_decodedTitle(new QLabel(tr("Decoded record"), this)), m_rawTitle(new QLabel(tr("Stored JSON"), this)),
      m_decoded(new QPlainTextEdit(this)), m_raw(new QPlainTextEdit(this)), m_inflightTitle(new QLabel(tr("In flight"), this)),
      m_inflight(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("sessionDetails"));
    m_decoded->setObjectName(QStringLiteral("sessionDecoded"));
    m_raw->setObjectName(QStringLiteral("sessionRaw"));
    QFont bold = m_decodedTitle->font();
    bold.setBold(true);
    m_decodedTitle->setFont(bold);
    m_rawTitle->setFont(bold);
    m_inflightTitle->setFont(bold);
    m_inflight->setObjectName(QStringLiteral("sessionInflight"));
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit *edit : {m_decoded, m_raw, m_inflight}) {
        edit->setReadOnly(true);
        edit->setLineWrapMode(QPlainTextEdit::NoWrap);
        edit->setFont(fixed);
    }
    m_decoded->setPlaceholderText(tr("Select a session to see its record."));
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addWidget(m_decodedTitle, 0, 0);
    layout->addWidget(m_rawTitle, 0, 1);
    layout->addWidget(m_decoded, 1, 0);
    layout->addWidget(m_raw, 1, 1);
    layout->addWidget(m_inflightTitle, 2, 0, 1, 2);
    layout->addWidget(m_inflight, 3, 0, 1, 2);
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(1, 1);
    layout->setRowStretch(1, 3);
    layout->setRowStretch(3, 2);
}

SessionDetailsView::~SessionDetailsView() = default;

void SessionDetailsView::setEntry(const SessionEntry *entry)
{
    if (!entry) {
        m_decoded->clear();
        m_raw->clear();
        m_rawTitle->setText(tr("Stored JSON"));
        m_inflight->clear();
        return;
    }
    m_inflight->setPlainText(entry->record && !entry->isLegacy() ? tr("Reading what is in flight…")
                                                                 : tr("Nothing to read: the record is undecodable or in a legacy stream."));
    m_decoded->setPlainText(describe(*entry));
    m_rawTitle->setText(tr("Stored JSON (%1, seq %2)").arg(entry->subject).arg(entry->seq));
    m_raw->setPlainText(tr("Reading the stored record…"));
}

void SessionDetailsView::setRaw(const QByteArray &bytes)
{
    m_raw->setPlainText(prettyJson(bytes));
}

void SessionDetailsView::setRawError(const QString &text)
{
    m_raw->setPlainText(text);
}

void SessionDetailsView::setInflight(const SessionInflight &inflight)
{
    m_inflight->setPlainText(describeInflight(inflight, QDateTime::currentDateTimeUtc()));
}

void SessionDetailsView::setInflightError(const QString &text)
{
    m_inflight->setPlainText(text);
}

QString SessionDetailsView::inflightText() const
{
    return m_inflight->toPlainText();
}

QString SessionDetailsView::describeInflight(const SessionInflight &in, const QDateTime &now)
{
    const auto age = [&now](const QDateTime &t) { return t.isValid() ? formatAge(qMax<qint64>(0, t.secsTo(now))) : QStringLiteral("-"); };
    const auto counted = [](qsizetype shown, qint64 total) {
        return qint64(shown) < total ? tr("%1, the first %2 shown").arg(total).arg(shown) : QString::number(total);
    };
    QStringList lines;
    lines << tr("Queued, not yet acknowledged (%1):").arg(counted(in.queued.size(), in.queuedTotal));
    if (in.queued.isEmpty())
        lines << (in.messagesStream ? tr("  (none)") : tr("  ($MQTT_msgs does not exist, see the notes)"));
    for (const SessionInflight::Queued &q : in.queued)
        lines
            << tr("  seq %1  %2  QoS %3  %4 B  %5 ago  %6  %7  [%8]")
                   .arg(q.seq)
                   .arg(q.topic)
                   .arg(q.qos)
                   .arg(q.size)
                   .arg(age(q.time))
                   .arg(
                       q.delivered == 0
                           ? tr("not delivered")
                           : tr("delivered %1%2x, unacknowledged").arg(q.deliveredExact ? QString() : QStringLiteral("~")).arg(q.delivered))
                   .arg(q.problem.isEmpty() ? q.payloadPreview : q.problem, q.consumer);
    lines << QString()
          << tr("QoS 2 incoming, waiting for the client's PUBREL (%1):").arg(counted(in.qos2Incoming.size(), in.qos2IncomingTotal));
    if (in.qos2Incoming.isEmpty())
        lines << (in.qos2InStream ? tr("  (none)") : tr("  ($MQTT_qos2in does not exist, see the notes)"));
    for (const SessionInflight::Qos2Incoming &q : in.qos2Incoming)
        lines << tr("  packet %1  %2%3  %4 B  %5 ago")
                     .arg(q.packetId)
                     .arg(q.problem.isEmpty() ? q.topic : q.problem)
                     .arg(q.retain ? tr(" (retain)") : QString())
                     .arg(q.size)
                     .arg(age(q.time));
    lines << QString() << tr("PUBREL sent, waiting for the client's PUBCOMP (%1):").arg(counted(in.pubrelPending.size(), in.pubrelTotal));
    if (in.pubrelPending.isEmpty())
        lines << (in.outStream ? tr("  (none)") : tr("  ($MQTT_out does not exist, see the notes)"));
    for (const SessionInflight::PubRel &p : in.pubrelPending)
        lines << tr("  packet %1  %2 ago%3")
                     .arg(p.packetId)
                     .arg(age(p.time))
                     .arg(p.problem.isEmpty() ? QString() : QStringLiteral("  ") + p.problem);
    if (!in.notes.isEmpty()) {
        lines << QString();
        for (const QString &n : in.notes)
            lines << tr("Note: %1").arg(n);
    }
    return lines.join(QLatin1Char('\n'));
}

QString SessionDetailsView::decodedText() const
{
    return m_decoded->toPlainText();
}

QString SessionDetailsView::rawText() const
{
    return m_raw->toPlainText();
}

QString SessionDetailsView::prettyJson(const QByteArray &bytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error == QJsonParseError::NoError)
        return QString::fromUtf8(doc.toJson(QJsonDocument::Indented));
    auto decoder = QStringDecoder(QStringDecoder::Utf8);
    const QString text = decoder(bytes);
    const QString body = decoder.hasError() ? QString::fromLatin1(bytes.toHex(' ')) : text;
    return tr("Not valid JSON (%1 at offset %2):\n\n%3").arg(error.errorString()).arg(error.offset).arg(body);
}

QString SessionDetailsView::describe(const SessionEntry &e)
{
    QStringList lines;
    const auto field = [&lines](const QString &name, const QString &value) {
        lines << QStringLiteral("%1 %2").arg(name + QLatin1Char(':'), -15).arg(value);
    };
    field(tr("Client ID"), e.record ? e.clientId : tr("(undecodable)"));
    field(tr("Hash"), e.hash);
    field(tr("Subject"), e.subject);
    field(tr("Sequence"), QString::number(e.seq));
    field(tr("Written"), e.time.toString(Qt::ISODateWithMs));
    field(tr("Clean"), e.clean ? tr("yes") : tr("no"));
    if (e.record)
        field(tr("Origin"), e.record->origin);
    field(tr("Connected"), SessionTableModel::connectedText(e) + (e.server.isEmpty() ? QString() : tr(" (server %1)").arg(e.server)));
    lines << QString() << tr("Subscriptions:");
    const QList<SessionRecord::Subscription> subscriptions = e.subscriptions();
    if (subscriptions.isEmpty())
        lines << tr("  (none)");
    for (const SessionRecord::Subscription &s : subscriptions)
        lines << tr("  %1  →  %2  QoS %3%4")
                     .arg(s.mqttFilter, s.natsSubject)
                     .arg(s.qos)
                     .arg(s.durableName.isEmpty() ? QString() : tr("  durable %1").arg(s.durableName));
    lines << QString() << tr("Consumers:");
    if (e.consumers.isEmpty())
        lines << tr("  (none)");
    for (const SessionConsumer &c : e.consumers)
        lines << (c.exists ? tr("  %1 on %2: pending %3, ack pending %4").arg(c.name, c.stream).arg(c.numPending).arg(c.numAckPending)
                           : tr("  %1: MISSING").arg(c.name));
    if (e.hasProblems()) {
        lines << QString() << tr("Problems:");
        for (const QString &p : e.problems())
            lines << QStringLiteral("  ") + p;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace MqttDoctor
