#include "loggrouper.h"

#include <algorithm>

#include "diagnosis/logcatalogue.h"

namespace MqttDoctor {

using namespace Qt::StringLiterals;

namespace {

bool isBlank(const QString &line)
{
    return std::all_of(line.cbegin(), line.cend(), [](QChar c) { return c.isSpace(); });
}

/** The text with each run of digits as one '#': "timeout after 4.0008s" and "timeout after 5.1s" are one shape. */
QString masked(QStringView text)
{
    QString out;
    out.reserve(text.size());
    bool inDigits = false;
    for (const QChar c : text) {
        const bool digit = c.unicode() >= u'0' && c.unicode() <= u'9';
        if (digit && !inDigits)
            out += u'#';
        else if (!digit)
            out += c;
        inDigits = digit;
    }
    return out;
}

/** "(1xxxx)": a JetStream API error code as the server prints it. */
bool hasJetStreamCode(QStringView text)
{
    for (qsizetype i = text.indexOf(u"(1"); i >= 0 && i + 6 < text.size(); i = text.indexOf(u"(1", i + 1)) {
        bool digits = true;
        for (qsizetype k = i + 2; k < i + 6; ++k)
            digits = digits && text[k].unicode() >= u'0' && text[k].unicode() <= u'9';
        if (digits && text[i + 6] == u')')
            return true;
    }
    return false;
}

} // namespace

bool LogGrouper::isAboutMqtt(const LogLine &line)
{
    if (line.level == u"INF" || line.level == u"DBG" || line.level == u"TRC")
        return false;
    const QString &m = line.message;
    if (m.contains(u"mqtt"_s, Qt::CaseInsensitive) || m.startsWith(u"unable to connect: "_s))
        return true;
    if (!line.isMqttClient())
        return false;
    for (const QString &word : {u"jetstream"_s, u"stream"_s, u"session"_s, u"consumer"_s, u"retained"_s})
        if (m.contains(word, Qt::CaseInsensitive))
            return true;
    return hasJetStreamCode(m);
}

LogGrouper::LineKind LogGrouper::add(const QString &line, const LogGroup::Position &position, bool truncated, LogLineMatch *match)
{
    ++m_counts.lines;
    if (truncated)
        ++m_counts.longLines;
    if (isBlank(line)) {
        ++m_counts.blank;
        return LineKind::Blank;
    }
    const LogLine parsed = LogLine::parse(line);
    if (!parsed.level.isEmpty())
        ++m_counts.serverLines;
    // No template is logged at these levels (connection chatter and protocol traces, most of a debug log),
    // except a leaf connection refusing to pass a JetStream API request on.
    if ((parsed.level == u"DBG" && !parsed.message.startsWith(u"Not permitted to deliver to \"$JS.")) || parsed.level == u"TRC") {
        ++m_counts.skipped;
        return LineKind::Skipped;
    }

    // What the explanation depends on besides the message: the level, the kind of client and its client ID.
    QString key;
    key.reserve(parsed.message.size() + parsed.clientId.size() + 8);
    key += parsed.level;
    key += parsed.isMqttClient() ? u'\x1f' : u'\x1e';
    if (parsed.hasClientId)
        key += parsed.clientId;
    key += u'\x1d';
    key += parsed.message;
    auto it = m_cache.constFind(key);
    if (it == m_cache.cend()) {
        if (m_cache.size() >= kCacheSize)
            m_cache.clear();
        it = m_cache.insert(key, classify(parsed));
    }
    const CacheEntry &entry = *it;

    switch (entry.kind) {
    case LineKind::Explained: ++m_counts.explained; break;
    case LineKind::NotRecognised: ++m_counts.notRecognised; break;
    default: ++m_counts.skipped; break;
    }
    if (entry.group >= 0) {
        const QString &clientId = entry.match.matched ? entry.match.clientId : parsed.clientId;
        m_groups[entry.group].add(parsed.timestamp, position, clientId, entry.match.subject);
    }
    if (match && entry.kind != LineKind::Skipped) {
        *match = entry.match;
        match->line = parsed.raw;
    }
    return entry.kind;
}

LogGrouper::CacheEntry LogGrouper::classify(const LogLine &parsed)
{
    CacheEntry e;
    e.match = LogCatalogue::explain(parsed);
    if (e.match.matched) {
        e.kind = LineKind::Explained;
        e.group = explainedGroup(e.match);
    } else if (isAboutMqtt(parsed)) {
        e.kind = LineKind::NotRecognised;
        e.group = unrecognisedGroup(parsed, e.match);
    }
    return e;
}

qsizetype LogGrouper::explainedGroup(const LogLineMatch &m)
{
    // The same template, account, stream and cause: the client IDs, subjects and sequences of its lines are tallied,
    // and an error text the catalogue does not know is told apart by its shape.
    const QString cause = m.errorCode == 0 && m.innerTemplateId.isEmpty() ? masked(m.errorText) : QString();
    const QString key = QStringList{u"="_s,
                                    m.templateId,
                                    m.innerTemplateId,
                                    m.account,
                                    m.stream,
                                    QString::number(m.errorCode),
                                    m.codes.join(u','),
                                    m.severity,
                                    m.connectRefused ? u"1"_s : u"0"_s,
                                    cause}
                            .join(u'\x1f');
    if (const auto it = m_groupIndex.constFind(key); it != m_groupIndex.cend())
        return *it;
    return newGroup(key, m);
}

qsizetype LogGrouper::unrecognisedGroup(const LogLine &parsed, const LogLineMatch &m)
{
    const QString key = u"?\x1f"_s + parsed.level + u'\x1f' + masked(parsed.message);
    if (const auto it = m_groupIndex.constFind(key); it != m_groupIndex.cend())
        return *it;
    if (m_unrecognisedShapes < kMaxUnrecognisedShapes) {
        ++m_unrecognisedShapes;
        return newGroup(key, m);
    }
    if (m_otherShapesGroup < 0) {
        m_otherShapesGroup = newGroup(u"?*"_s, m);
        m_groups[m_otherShapesGroup].otherShapes = true;
    }
    return m_otherShapesGroup;
}

qsizetype LogGrouper::newGroup(const QString &key, const LogLineMatch &match)
{
    ++(match.matched ? m_counts.explainedGroups : m_counts.unrecognisedGroups);
    LogGroup g;
    g.match = match;
    g.order = m_groups.size();
    m_groups.append(std::move(g));
    m_groupIndex.insert(key, m_groups.size() - 1);
    return m_groups.size() - 1;
}

QList<LogGroup> LogGrouper::sortedGroups() const
{
    QList<LogGroup> out = m_groups;
    std::sort(out.begin(), out.end(), [](const LogGroup &a, const LogGroup &b) {
        if (a.match.matched != b.match.matched)
            return a.match.matched;
        if (a.severityRank() != b.severityRank())
            return a.severityRank() > b.severityRank();
        if (a.count != b.count)
            return a.count > b.count;
        return a.order < b.order;
    });
    return out;
}

} // namespace MqttDoctor
