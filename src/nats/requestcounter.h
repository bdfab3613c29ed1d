#pragma once

#include <array>
#include <atomic>
#include <memory>

#include <QMutex>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace MqttDoctor {

/**
 * Counts the requests a connection (and, through its parent, the connection set) sends, by kind of
 * subject, and the consumers it makes: what one load asks of the servers, for tests and for debug
 * logging (category `mqttdoctor.requests`, debug level: one line per request). Counting is a relaxed
 * atomic increment per request; the subjects are kept in order only while recording is on.
 *
 * An ordered consumer a stream read makes is noted as an OrderedConsumer (not a request) before its
 * `CONSUMER.CREATE`; its `CONSUMER.DELETE` when the read ends counts as a ConsumerDelete. A consumer
 * made again after a gap counts again.
 *
 * Thread-safe: any thread may note and read.
 */
class RequestCounter final
{
public:
    enum class Kind {
        Varz, ///< `$SYS.REQ.SERVER.*.VARZ`
        Statsz, ///< `$SYS.REQ.SERVER.PING[.STATSZ]` (the roster's learning ping)
        Jsz, ///< `$SYS.REQ.*.JSZ`
        Connz, ///< `$SYS.REQ.*.CONNZ` (server or account)
        Accountz, ///< `$SYS.REQ.*.ACCOUNTZ`
        OtherSystem, ///< any other `$SYS.` request
        JsAccountInfo, ///< `$JS.API.INFO`
        StreamList, ///< `STREAM.LIST`, `STREAM.NAMES`
        StreamInfo, ///< `STREAM.INFO.<stream>`
        MessageGet, ///< `STREAM.MSG.GET.<stream>`, `DIRECT.GET.<stream>`
        ConsumerList, ///< `CONSUMER.LIST.<stream>`, `CONSUMER.NAMES.<stream>`
        ConsumerInfo, ///< `CONSUMER.INFO.<stream>.<name>`
        ConsumerCreate, ///< `CONSUMER.CREATE.*`, `CONSUMER.DURABLE.CREATE.*` (an ordered consumer's too)
        ConsumerDelete, ///< `CONSUMER.DELETE.*`
        OtherJetStream, ///< any other `$JS.API` request (stream create, purge, message delete, ...)
        Other, ///< anything else
        OrderedConsumer, ///< an ordered consumer made for a stream read (not a request; see above)
    };
    static constexpr int kKinds = int(Kind::OrderedConsumer) + 1;

    /** Counts at one moment; subtract two to get what happened in between. */
    struct Counts
    {
        std::array<quint64, kKinds> n{};
        quint64 operator[](Kind kind) const { return n[size_t(kind)]; }
        /** Every request (an ordered consumer counts through its CONSUMER.CREATE and CONSUMER.DELETE). */
        quint64 requests() const;
        Counts operator-(const Counts &before) const;
        /** "VARZ 1, STREAM.INFO 2, ..." (kinds with a count only): for messages and logs. */
        QString toString() const;
    };

    /** `parent` (may be null) counts everything this counter counts too: the connection set's counter. */
    explicit RequestCounter(std::shared_ptr<RequestCounter> parent = nullptr);
    RequestCounter(const RequestCounter &) = delete;
    RequestCounter &operator=(const RequestCounter &) = delete;

    /** The kind of a request subject (a JetStream domain's `$JS.<domain>.API.` counts as `$JS.API.`). Pure. */
    static Kind kindOf(QStringView subject);
    static QString kindName(Kind kind);

    /** One request on `subject`. */
    void noteRequest(const QString &subject);
    /** One ordered consumer about to be made on `stream` (its CONSUMER.CREATE is noted as a request). */
    void noteOrderedConsumer(const QString &stream);

    Counts counts() const;
    quint64 count(Kind kind) const { return m_counts[size_t(kind)].load(std::memory_order_relaxed); }

    /** Keeps every subject noted from now on (the ordered consumers as `ordered consumer <stream>`). */
    void setRecording(bool on);
    /** The subjects noted while recording, in order. */
    QStringList recorded() const;
    void clearRecorded();

private:
    void note(Kind kind, const QString &subject);

    std::shared_ptr<RequestCounter> m_parent;
    std::array<std::atomic<quint64>, kKinds> m_counts{};
    std::atomic<bool> m_recording{false};
    mutable QMutex m_mutex;
    QStringList m_recorded;
};

} // namespace MqttDoctor
