#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <utility>

#include "diagnosis/findingpattern.h"

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * The shape of a finding's evidence object whose members are strings made from the finding's arguments,
 * e.g. {"consumer": "{consumer}", "stream": "{stream}"}: parsed once (a static of the check), filled per
 * finding when the evidence is read or written (FindingEvidence). Immutable once made; any thread.
 */
class EvidencePattern final
{
public:
    /** Members as (key, FindingPattern text); `keys` name the arguments as for FindingPattern. */
    EvidencePattern(std::initializer_list<std::pair<QString, QString>> members, const QStringList &keys);

    QJsonObject render(const QStringList &args) const;
    /** The object as `key`'s value (or the next array element), as JsonStreamWriter::value() writes render(args). */
    void writeJson(JsonStreamWriter &w, const QString &key, const QStringList &args) const;

private:
    QList<std::pair<QString, FindingPattern>> m_members; ///< sorted by key, as a QJsonObject holds them
};

} // namespace MqttDoctor
