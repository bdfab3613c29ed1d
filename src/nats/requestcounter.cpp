#include "requestcounter.h"

#include <QLoggingCategory>
#include <QMutexLocker>

namespace MqttDoctor {

namespace {

Q_LOGGING_CATEGORY(lcRequests, "mqttdoctor.requests", QtWarningMsg)

constexpr std::array<const char *, RequestCounter::kKinds> kNames = {
    "VARZ",
    "STATSZ",
    "JSZ",
    "CONNZ",
    "ACCOUNTZ",
    "other $SYS",
    "INFO",
    "STREAM.LIST",
    "STREAM.INFO",
    "MSG.GET",
    "CONSUMER.LIST",
    "CONSUMER.INFO",
    "CONSUMER.CREATE",
    "CONSUMER.DELETE",
    "other $JS.API",
    "other",
    "ordered consumer",
};

RequestCounter::Kind systemKind(QStringView subject)
{
    if (subject == u"$SYS.REQ.SERVER.PING")
        return RequestCounter::Kind::Statsz;
    const QStringView last = subject.mid(subject.lastIndexOf(u'.') + 1);
    if (last == u"VARZ")
        return RequestCounter::Kind::Varz;
    if (last == u"STATSZ")
        return RequestCounter::Kind::Statsz;
    if (last == u"JSZ")
        return RequestCounter::Kind::Jsz;
    if (last == u"CONNZ")
        return RequestCounter::Kind::Connz;
    if (last == u"ACCOUNTZ")
        return RequestCounter::Kind::Accountz;
    return RequestCounter::Kind::OtherSystem;
}

RequestCounter::Kind jetStreamKind(QStringView op)
{
    using Kind = RequestCounter::Kind;
    if (op == u"INFO")
        return Kind::JsAccountInfo;
    if (op.startsWith(u"STREAM.LIST") || op.startsWith(u"STREAM.NAMES"))
        return Kind::StreamList;
    if (op.startsWith(u"STREAM.INFO."))
        return Kind::StreamInfo;
    if (op.startsWith(u"STREAM.MSG.GET.") || op.startsWith(u"DIRECT.GET."))
        return Kind::MessageGet;
    if (op.startsWith(u"CONSUMER.LIST.") || op.startsWith(u"CONSUMER.NAMES."))
        return Kind::ConsumerList;
    if (op.startsWith(u"CONSUMER.INFO."))
        return Kind::ConsumerInfo;
    if (op.startsWith(u"CONSUMER.CREATE.") || op.startsWith(u"CONSUMER.DURABLE.CREATE."))
        return Kind::ConsumerCreate;
    if (op.startsWith(u"CONSUMER.DELETE."))
        return Kind::ConsumerDelete;
    return Kind::OtherJetStream;
}

} // namespace

quint64 RequestCounter::Counts::requests() const
{
    quint64 sum = 0;
    for (int i = 0; i < kKinds; ++i)
        if (Kind(i) != Kind::OrderedConsumer)
            sum += n[size_t(i)];
    return sum;
}

RequestCounter::Counts RequestCounter::Counts::operator-(const Counts &before) const
{
    Counts out;
    for (size_t i = 0; i < n.size(); ++i)
        out.n[i] = n[i] - before.n[i];
    return out;
}

QString RequestCounter::Counts::toString() const
{
    QStringList parts;
    for (int i = 0; i < kKinds; ++i)
        if (n[size_t(i)] > 0)
            parts << QStringLiteral("%1 %2").arg(kindName(Kind(i))).arg(n[size_t(i)]);
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral(", "));
}

RequestCounter::RequestCounter(std::shared_ptr<RequestCounter> parent) : m_parent(std::move(parent)) {}

RequestCounter::Kind RequestCounter::kindOf(QStringView subject)
{
    if (subject.startsWith(u"$SYS.REQ."))
        return systemKind(subject);
    if (subject.startsWith(u"$SYS."))
        return Kind::OtherSystem;
    if (subject.startsWith(u"$JS.")) {
        // `$JS.API.<op>` or `$JS.<domain>.API.<op>`
        const qsizetype api = subject.indexOf(u".API.");
        if (api > 0 && subject.lastIndexOf(u'.', api - 1) <= 3)
            return jetStreamKind(subject.mid(api + 5));
    }
    return Kind::Other;
}

QString RequestCounter::kindName(Kind kind)
{
    return QString::fromLatin1(kNames[size_t(kind)]);
}

void RequestCounter::note(Kind kind, const QString &subject)
{
    m_counts[size_t(kind)].fetch_add(1, std::memory_order_relaxed);
    if (m_recording.load(std::memory_order_relaxed)) {
        QMutexLocker lock(&m_mutex);
        m_recorded.append(subject);
    }
    if (m_parent)
        m_parent->note(kind, subject);
}

void RequestCounter::noteRequest(const QString &subject)
{
    const Kind kind = kindOf(subject);
    qCDebug(lcRequests, "request %s (%s)", qPrintable(subject), qPrintable(kindName(kind)));
    note(kind, subject);
}

void RequestCounter::noteOrderedConsumer(const QString &stream)
{
    const QString what = QStringLiteral("ordered consumer ") + stream;
    qCDebug(lcRequests, "%s", qPrintable(what));
    note(Kind::OrderedConsumer, what);
}

RequestCounter::Counts RequestCounter::counts() const
{
    Counts out;
    for (size_t i = 0; i < out.n.size(); ++i)
        out.n[i] = m_counts[i].load(std::memory_order_relaxed);
    return out;
}

void RequestCounter::setRecording(bool on)
{
    m_recording.store(on, std::memory_order_relaxed);
}

QStringList RequestCounter::recorded() const
{
    QMutexLocker lock(&m_mutex);
    return m_recorded;
}

void RequestCounter::clearRecorded()
{
    QMutexLocker lock(&m_mutex);
    m_recorded.clear();
}

} // namespace MqttDoctor
