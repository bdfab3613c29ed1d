#pragma once

#include <memory>

#include <QList>
#include <QString>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;

/** A subject and how many messages the stream holds on it (from `STREAM.INFO` `subjects_filter`). */
struct SubjectCount
{
    QString subject;
    quint64 messages = 0;
};

/** The sequence range of a stream and the deleted sequences inside it (`STREAM.INFO` `deleted_details`). */
struct SequenceMap
{
    quint64 messages = 0;
    quint64 firstSequence = 0;
    quint64 lastSequence = 0;
    QList<quint64> deleted; ///< sorted
    /** The live sequences: firstSequence..lastSequence without the deleted ones. */
    QList<quint64> liveSequences() const;
};

/**
 * What a stream holds, from `STREAM.INFO`: its sequence map (first, last and deleted sequences) and the
 * message count of each subject, so that a reader knows what to ask for (MessageGetter) or what to
 * expect. Every member function blocks (one or a few requests): worker thread only. The JetStream
 * domain (empty: none) prefixes every API subject.
 */
class StreamIndex final
{
public:
    explicit StreamIndex(std::shared_ptr<NatsConnection> connection, QString domain = {});

    /** First/last sequence and deleted sequences (one `STREAM.INFO`). Worker thread only. */
    Result<SequenceMap> sequenceMap(const QString &stream);
    /**
     * Every subject matching `filter` with its message count (`STREAM.INFO` `subjects_filter`, paged
     * with `offset` beyond the server's 100,000 subjects per reply). Worker thread only.
     */
    Result<QList<SubjectCount>> subjectCounts(const QString &stream, const QString &filter = QStringLiteral(">"));

private:
    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
};

} // namespace MqttDoctor
