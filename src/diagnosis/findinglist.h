#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <initializer_list>
#include <vector>

#include "diagnosis/finding.h"
#include "diagnosis/missingconsumerfindings.h"

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * Findings in Checks::sortFindings' order, as the front ends hold them: most are kept as Findings, the
 * per-session SESSION_MISSING_CONSUMER ones as references to the session records they are about
 * (MissingConsumerFindings), each made into a Finding only when it is read. An account whose million
 * sessions have all lost their durables costs the GUI 24 bytes per finding instead of a Finding each.
 *
 * Counting and grouping never make a finding: summaryAt() gives what every finding of a group shares
 * (code, severity, account, stream, repair). Implicitly shared and immutable; any thread.
 */
class FindingList final
{
public:
    FindingList() = default;
    /** Plain findings, in sortFindings' order. */
    FindingList(QList<Finding> findings); // NOLINT(google-explicit-constructor): a list is a FindingList
    FindingList(std::initializer_list<Finding> findings) : FindingList(QList<Finding>(findings)) {}
    /**
     * `listed` in sortFindings' order, and the findings kept apart (any order, any accounts), each group
     * put where its findings sort among the listed ones.
     */
    FindingList(QList<Finding> listed, QList<MissingConsumerFindings> apart);

    qsizetype size() const { return m_listed.size() + m_apartSize; }
    bool isEmpty() const { return size() == 0; }
    /** Finding `i` (0 to size() - 1), made when it is one of the references. */
    Finding at(qsizetype i) const;
    /**
     * Finding `i` as far as counting and grouping need it: its code, severity, account, stream and repair
     * are right; its subject, client ID, texts and evidence may be empty. Valid while the list lives.
     */
    const Finding &summaryAt(qsizetype i) const;
    /** The findings kept as Findings, in order (every finding but the references). */
    const QList<Finding> &listed() const { return m_listed; }
    /** The findings kept as references, a group per account. */
    const QList<MissingConsumerFindings> &apart() const { return m_apart; }
    /** Every finding, made (a million references become a million Findings: for what needs them all). */
    QList<Finding> toList() const;
    /** The findings with this code, made. */
    QList<Finding> withCode(const QString &code) const;
    /** Every finding as Finding::writeJson() writes it, in order, each reference made only to be written. */
    void writeJson(JsonStreamWriter &w) const;
    /** Only the findings of `account` and the cluster's (those without an account). */
    FindingList ofAccount(const QString &account) const;

private:
    struct Group
    {
        qsizetype start = 0; ///< index of its first finding in the whole list
        qsizetype apart = 0; ///< index in m_apart
    };
    /** The group holding finding `i`, or null with `i` made an index into m_listed. */
    const Group *locate(qsizetype &i) const;
    void placeGroups();

    QList<Finding> m_listed;
    QList<MissingConsumerFindings> m_apart;
    std::vector<Group> m_groups; ///< in the order of their start
    qsizetype m_apartSize = 0;
};

} // namespace MqttDoctor

Q_DECLARE_METATYPE(MqttDoctor::FindingList)
