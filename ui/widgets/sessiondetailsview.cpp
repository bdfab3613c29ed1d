#include "sessiondetailsview.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStringConverter>

#include "models/sessiontablemodel.h"

namespace MqttDoctor {

SessionDetailsView::SessionDetailsView(QWidget *parent)
    : QWidget(parent), m_decodedTitle(new QLabel(tr("Decoded record"), this)), m_rawTitle(new QLabel(tr("Stored JSON"), this)),
      m_decoded(new QPlainTextEdit(this)), m_raw(new QPlainTextEdit(this))
{
    setObjectName(QStringLiteral("sessionDetails"));
    m_decoded->setObjectName(QStringLiteral("sessionDecoded"));
    m_raw->setObjectName(QStringLiteral("sessionRaw"));
    QFont bold = m_decodedTitle->font();
    bold.setBold(true);
    m_decodedTitle->setFont(bold);
    m_rawTitle->setFont(bold);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit *edit : {m_decoded, m_raw}) {
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
    layout->setColumnStretch(0, 1);
    layout->setColumnStretch(1, 1);
}

SessionDetailsView::~SessionDetailsView() = default;

void SessionDetailsView::setEntry(const SessionEntry *entry)
{
    if (!entry) {
        m_decoded->clear();
        m_raw->clear();
        m_rawTitle->setText(tr("Stored JSON"));
        return;
    }
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
    if (!e.problems.isEmpty()) {
        lines << QString() << tr("Problems:");
        for (const QString &p : e.problems)
            lines << QStringLiteral("  ") + p;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace MqttDoctor
