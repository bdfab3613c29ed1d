#pragma once

#include <QWidget>

#include "records/sessioninflight.h"
#include "records/sessionloader.h"

class QLabel;
class QPlainTextEdit;

namespace MqttDoctor {

/**
 * One session record: decoded (client ID, subscriptions, consumers, problems) beside the stored
 * bytes pretty printed as JSON. The raw bytes arrive later (setRaw, read on the worker pool).
 */
class SessionDetailsView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SessionDetailsView)

public:
    explicit SessionDetailsView(QWidget *parent = nullptr);
    ~SessionDetailsView() override;

    /** Shows the decoded entry; the raw pane says it is loading. nullptr clears both. */
    void setEntry(const SessionEntry *entry);
    void setRaw(const QByteArray &bytes);
    void setRawError(const QString &text);
    /** What is in flight for the shown session (read on the worker pool after setEntry). */
    void setInflight(const SessionInflight &inflight);
    void setInflightError(const QString &text);
    QString inflightText() const;
    /** The queued messages, QoS 2 incoming messages and PUBRELs, with their totals and notes, for people. */
    static QString describeInflight(const SessionInflight &inflight, const QDateTime &now);

    QString decodedText() const;
    QString rawText() const;

    /** The stored bytes as indented JSON; as text (or hex when not UTF-8) when they do not parse. */
    static QString prettyJson(const QByteArray &bytes);
    static QString describe(const SessionEntry &entry);

private:
    QLabel *m_decodedTitle;
    QLabel *m_rawTitle;
    QPlainTextEdit *m_decoded;
    QPlainTextEdit *m_raw;
    QLabel *m_inflightTitle;
    QPlainTextEdit *m_inflight;
};

} // namespace MqttDoctor
