#include "jszcollector.h"

#include <QJsonObject>

#include "nats/systemclient.h"

namespace MqttDoctor {

namespace {

const QString kJsz = QStringLiteral("JSZ");
const QString kJszSubject = QStringLiteral("$SYS.REQ.SERVER.PING.JSZ");
constexpr int kMaxJszPages = 1000; // a million accounts per server at the default page size
constexpr int kPageWindow = 4; // pages in flight: a few MiB each per server
constexpr int kNameWindow = 16; // requests for one account: small replies

QJsonObject detailOptions()
{
    return {{QStringLiteral("streams"), true}, {QStringLiteral("consumer"), true}, {QStringLiteral("config"), true}};
}

QString serverKey(const SystemClient::Reply &reply)
{
    const QString name = reply.server.value(QLatin1String("name")).toString();
    return name.isEmpty() ? reply.server.value(QLatin1String("id")).toString() : name;
}

// What one server listed so far.
struct Listing
{
    QSet<QString> found;
    bool jetstream = true;
    bool headAnswered = false;
    QString head; // the offset-0 request for one account: the first sorted one on 2.11+
    bool firstPageAnswered = false;
    QString firstSorted; // the first name of the page at offset 1
    int lastOffset = -1; // the highest page offset this server answered
    bool lastFull = false; // and whether that page was full
};

/**
 * Every server's JSZ account listing, page by page: the sorted pages after the first account (offset 1 on,
 * a page size each) and the head request (offset 0, one account), merged as they come, with what each
 * server listed and where its listing ended (Listing). Asks on while a server's last page was full.
 */
class PagedListing
{
public:
    PagedListing(SystemClient &system, int pageSize, JszMerge &merge) : m_system(system), m_pageSize(pageSize), m_merge(merge) {}

    /** Reads the pages; `known`: how many accounts ACCOUNTZ named, which sizes the first round. */
    Result<void> collect(qsizetype known)
    {
        // The sorted pages after the first account, sized from ACCOUNTZ (later pages come back empty
        // when some accounts have no JetStream), and the head request.
        const int firstPages = int(std::max<qsizetype>(1, (std::max<qsizetype>(0, known - 1) + m_pageSize - 1) / m_pageSize));
        addPage(0);
        for (int k = 0; k < firstPages; ++k)
            addPage(1 + k * m_pageSize);
        int pagesAsked = firstPages;
        int nextOffset = 1 + firstPages * m_pageSize;
        for (;;) {
            const auto handle = [this](int i, SystemClient::Reply &&reply) { return handlePage(i, std::move(reply)); };
            if (auto done = m_system.pingEach(m_requests, handle, kPageWindow); !done)
                return done.error();
            // More accounts than ACCOUNTZ said (created meanwhile): ask on while a server's last page was full.
            bool more = false;
            for (const Listing &l : std::as_const(m_listings))
                more = more || (l.jetstream && l.lastFull && l.lastOffset == nextOffset - m_pageSize);
            if (!more)
                return {};
            if (pagesAsked >= kMaxJszPages)
                return Error(
                    Error::Kind::Protocol,
                    QStringLiteral("%1: malformed reply: still full pages of accounts after %2 pages").arg(kJszSubject).arg(pagesAsked),
                    QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                                   "answers on $SYS.REQ subjects"));
            m_requests.clear();
            m_offsets.clear();
            for (int k = 0; k < kPageWindow && pagesAsked < kMaxJszPages; ++k, ++pagesAsked, nextOffset += m_pageSize)
                addPage(nextOffset);
        }
    }

    /** What each server listed, by server. */
    const QHash<QString, Listing> &listings() const { return m_listings; }

private:
    void addPage(int offset)
    {
        QJsonObject o = detailOptions();
        o.insert(QStringLiteral("accounts"), true);
        o.insert(QStringLiteral("offset"), offset);
        o.insert(QStringLiteral("limit"), offset == 0 ? 1 : m_pageSize);
        m_requests.append({kJsz, o});
        m_offsets.append(offset == 0 ? -1 : offset);
    }

    Result<void> handlePage(int i, SystemClient::Reply &&reply)
    {
        if (!reply.error.isEmpty())
            return {};
        Listing &l = m_listings[serverKey(reply)];
        if (reply.data.value(QLatin1String("disabled")).toBool()) {
            l.jetstream = false;
            return {};
        }
        auto names = m_merge.add(reply, kJszSubject);
        if (!names)
            return names.error();
        const int offset = m_offsets[i];
        if (offset < 0) {
            l.headAnswered = true;
            l.head = names->value(0);
            for (const QString &n : std::as_const(*names))
                l.found.insert(n);
            return {};
        }
        qsizetype added = 0;
        for (const QString &n : std::as_const(*names))
            if (!l.found.contains(n)) {
                l.found.insert(n);
                ++added;
            }
        const bool full = names->size() >= m_pageSize;
        // Sorted pages never overlap: a full page of names already listed is a server repeating itself.
        if (full && added == 0)
            return Error(
                Error::Kind::Protocol,
                QStringLiteral("%1: malformed reply: the page at offset %2 repeats accounts already listed").arg(kJszSubject).arg(offset),
                QStringLiteral("the reply did not come from nats-server's system services as expected; check who "
                               "answers on $SYS.REQ subjects"));
        if (offset == 1) {
            l.firstPageAnswered = true;
            l.firstSorted = names->value(0);
        }
        if (offset > l.lastOffset) {
            l.lastOffset = offset;
            l.lastFull = full;
        }
        return {};
    }

    SystemClient &m_system;
    const int m_pageSize;
    JszMerge &m_merge;
    QList<SystemClient::Request> m_requests;
    QList<int> m_offsets; // per request: its page offset, -1 for the head
    QHash<QString, Listing> m_listings;
};

/**
 * The accounts that may be some server's first account, not yet listed, sorted: named by the head request
 * where it sorts below the first page, else among the ACCOUNTZ names below that page's first name that
 * the server did not list.
 */
QStringList firstAccountCandidates(const QHash<QString, Listing> &listings, const QHash<QString, QStringList> &accountzByServer,
                                   const QStringList &allNames)
{
    QSet<QString> candidates;
    for (auto it = listings.cbegin(); it != listings.cend(); ++it) {
        const Listing &l = it.value();
        if (!l.jetstream || !l.firstPageAnswered || l.firstSorted.isEmpty())
            continue; // nothing sorted after a first account: the head request listed it, if any
        if (l.headAnswered && !l.head.isEmpty() && l.head < l.firstSorted)
            continue;
        const auto own = accountzByServer.constFind(it.key());
        for (const QString &n : own != accountzByServer.cend() ? *own : allNames)
            if (n < l.firstSorted && !l.found.contains(n))
                candidates.insert(n);
    }
    QStringList names(candidates.cbegin(), candidates.cend());
    names.sort();
    return names;
}

/** One JSZ request per account name (that account only), merged. */
Result<void> collectNamed(SystemClient &system, const QStringList &names, JszMerge &merge)
{
    QList<SystemClient::Request> requests;
    for (const QString &n : names) {
        QJsonObject o = detailOptions();
        o.insert(QStringLiteral("account"), n);
        o.insert(QStringLiteral("limit"), 1);
        requests.append({kJsz, o});
    }
    auto done = system.pingEach(
        requests,
        [&](int i, SystemClient::Reply &&reply) -> Result<void> {
            auto added = merge.add(reply, kJszSubject, names[i]);
            if (!added)
                return added.error();
            return {};
        },
        kNameWindow);
    if (!done)
        return done.error();
    return {};
}

} // namespace

JszCollector::JszCollector(SystemClient &system, int pageSize) : m_system(system), m_pageSize(std::max(2, pageSize)) {}

Result<JszMerge> JszCollector::collectAll(const QHash<QString, QStringList> &accountzByServer, const QStringList &allNames)
{
    JszMerge merge;
    qsizetype known = allNames.size();
    for (const QStringList &names : accountzByServer)
        known = std::max(known, names.size());
    PagedListing pages(m_system, m_pageSize, merge);
    if (auto done = pages.collect(known); !done)
        return done.error();
    // Each server's first account: where the pages cannot tell it, asked for by name.
    const QStringList names = firstAccountCandidates(pages.listings(), accountzByServer, allNames);
    if (names.isEmpty())
        return merge;
    if (auto done = collectNamed(m_system, names, merge); !done)
        return done.error();
    return merge;
}

Result<JszMerge> JszCollector::collectOne(const QString &account)
{
    JszMerge merge;
    QJsonObject o = detailOptions();
    o.insert(QStringLiteral("account"), account);
    o.insert(QStringLiteral("limit"), 1);
    auto done = m_system.pingEach(
        {{kJsz, o}},
        [&](int, SystemClient::Reply &&reply) -> Result<void> {
            auto added = merge.add(reply, kJszSubject, account);
            if (!added)
                return added.error();
            return {};
        },
        1);
    if (!done)
        return done.error();
    return merge;
}

} // namespace MqttDoctor
