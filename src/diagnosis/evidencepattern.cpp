#include "evidencepattern.h"

#include <algorithm>

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

EvidencePattern::EvidencePattern(std::initializer_list<std::pair<QString, QString>> members, const QStringList &keys)
{
    for (const auto &[key, text] : members)
        m_members.append({key, FindingPattern(text, keys)});
    std::sort(m_members.begin(), m_members.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
}

QJsonObject EvidencePattern::render(const QStringList &args) const
{
    QJsonObject o;
    for (const auto &[key, pattern] : m_members)
        o.insert(key, pattern.render(args));
    return o;
}

void EvidencePattern::writeJson(JsonStreamWriter &w, const QString &key, const QStringList &args) const
{
    w.beginObject(key);
    for (const auto &[member, pattern] : m_members)
        pattern.writeJson(w, member, args);
    w.endObject();
}

} // namespace MqttDoctor
