#include "missingconsumerfindings.h"

#include <QJsonValue>
#include <QStringList>

#include <algorithm>
#include <vector>

#include "diagnosis/evidencepattern.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/findingpattern.h"
#include "diagnosis/sessionchecks.h"
#include "mqtt/mqttlayout.h"

namespace MqttDoctor {

namespace {

// The texts every finding fills from its own arguments when it is read, made once.
const QStringList &missingConsumerKeys()
{
    static const QStringList keys{QStringLiteral("client_id"), QStringLiteral("consumer"), QStringLiteral("stream"), QStringLiteral("sid")};
    return keys;
}

const FindingPattern &missingConsumerTitle()
{
    static const FindingPattern title = FindingCatalogue::titlePattern(FindingCodes::sessionMissingConsumer(), missingConsumerKeys());
    return title;
}

const FindingPattern &missingConsumerDetail(bool pubrel)
{
    static const FindingPattern subscription(
        u"Session \"{client_id}\" subscribes to {sid} through the durable {consumer} on {stream}, which does not exist. The "
        u"server does not recreate it when the client reconnects: QoS 1/2 messages for this subscription are dropped (interest "
        u"retention) and never delivered.",
        missingConsumerKeys());
    static const FindingPattern pubrelDurable(
        u"Session \"{client_id}\" names the PUBREL durable {consumer} on {stream}, which does not exist: QoS 2 exchanges of this "
        u"client cannot complete.",
        missingConsumerKeys());
    return pubrel ? pubrelDurable : subscription;
}

const EvidencePattern &missingConsumerExpected()
{
    static const EvidencePattern expected(
        {{QStringLiteral("consumer"), QStringLiteral("{consumer}")}, {QStringLiteral("stream"), QStringLiteral("{stream}")}},
        missingConsumerKeys());
    return expected;
}

// The units of `subject` after the first `shared` ones (the start every subject has), four of them as
// one big-endian number, shorter subjects padded with 0: two keys compare as the subjects' units do.
quint64 subjectKeyAfter(const QString &subject, qsizetype shared)
{
    quint64 key = 0;
    for (qsizetype k = 0; k < 4; ++k) {
        const qsizetype at = shared + k;
        key = (key << 16) | (at < subject.size() ? quint64(subject.at(at).unicode()) : 0u);
    }
    return key;
}

} // namespace

MissingConsumerFindings::MissingConsumerFindings(const SessionCheckInput &input, const QSet<QString> &replaced)
{
    if (!input.consumersKnown)
        return;
    // In the findings' order (sortFindings: stream, subject, client ID, then as read), so that the findings
    // are made in order: neither sorted nor moved once made.
    struct Keyed
    {
        quint64 subjectKey;
        quint32 order;
        Item item;
    };
    std::vector<Keyed> keyed;
    const QString *firstSubject = nullptr;
    qsizetype shared = 0;
    for (const SessionEntry &e : input.sessions) {
        if (!e.record)
            continue;
        for (const SessionConsumer &c : e.consumers) {
            if (c.exists || c.name.isEmpty() || replaced.contains(c.name))
                continue;
            if (!firstSubject) {
                firstSubject = &e.subject;
                shared = e.subject.size();
            } else {
                qsizetype same = 0;
                const qsizetype most = std::min(shared, e.subject.size());
                while (same < most && firstSubject->at(same) == e.subject.at(same))
                    ++same;
                shared = same;
            }
            keyed.push_back({0, quint32(keyed.size()), {&e, &c, c.sid == QLatin1String("pubrel")}});
        }
    }
    if (keyed.empty())
        return;
    for (Keyed &k : keyed)
        k.subjectKey = subjectKeyAfter(k.item.entry->subject, shared);
    // $MQTT_msgs sorts before $MQTT_out.
    std::sort(keyed.begin(), keyed.end(), [](const Keyed &a, const Keyed &b) {
        if (a.item.pubrel != b.item.pubrel)
            return !a.item.pubrel;
        if (a.subjectKey != b.subjectKey)
            return a.subjectKey < b.subjectKey;
        if (const int c = a.item.entry->subject.compare(b.item.entry->subject); c != 0)
            return c < 0;
        if (const int c = a.item.entry->clientId.compare(b.item.entry->clientId); c != 0)
            return c < 0;
        return a.order < b.order;
    });
    m_records = input.sessions;
    m_items.reserve(keyed.size());
    for (const Keyed &k : keyed)
        m_items.push_back(k.item);
    m_blank = {FindingCatalogue::makeUntitled(FindingCodes::sessionMissingConsumer(), input.account, MqttLayout::messagesStream()),
               FindingCatalogue::makeUntitled(FindingCodes::sessionMissingConsumer(), input.account, MqttLayout::outStream())};
    static const QJsonValue missing(QStringLiteral("missing"));
    for (Finding &f : m_blank)
        f.actual = missing;
}

Finding MissingConsumerFindings::at(qsizetype i) const
{
    const Item &item = m_items.at(i);
    Finding f = m_blank.at(item.pubrel ? 1 : 0);
    f.subject = item.entry->subject;
    f.clientId = item.entry->clientId;
    const QStringList args{item.entry->clientId, item.consumer->name, f.stream, item.consumer->sid};
    f.title = FindingText(missingConsumerTitle(), args);
    f.detail = FindingText(missingConsumerDetail(item.pubrel), args);
    f.expected = FindingEvidence(missingConsumerExpected(), args);
    return f;
}

void MissingConsumerFindings::writeJson(JsonStreamWriter &w) const
{
    // The findings go by subject, the records lie as they were read: each record, then its strings, are
    // asked for from memory a few findings ahead, so that writing does not wait for each in turn.
    constexpr size_t recordsAhead = 16;
    constexpr size_t stringsAhead = 8;
    const auto prefetchText = [](const QString &s) {
        const char *data = reinterpret_cast<const char *>(s.constData());
        __builtin_prefetch(data);
        __builtin_prefetch(data - 16); // the reference count, just before the text
    };
    const size_t n = size_t(m_items.size());
    for (size_t i = 0; i < n; ++i) {
        if (i + recordsAhead < n) {
            __builtin_prefetch(m_items.at(qsizetype(i + recordsAhead)).entry);
            __builtin_prefetch(m_items.at(qsizetype(i + recordsAhead)).consumer);
        }
        if (i + stringsAhead < n) {
            const Item &next = m_items.at(qsizetype(i + stringsAhead));
            prefetchText(next.entry->subject);
            prefetchText(next.entry->clientId);
            prefetchText(next.consumer->name);
            prefetchText(next.consumer->sid);
        }
        at(qsizetype(i)).writeJson(w);
    }
}

void MissingConsumerFindings::appendTo(QList<Finding> &out) const
{
    out.reserve(out.size() + size());
    for (qsizetype i = 0; i < size(); ++i)
        out.append(at(i));
}

} // namespace MqttDoctor
