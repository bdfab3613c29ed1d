#pragma once

#include <QList>
#include <QSet>
#include <QString>

#include "diagnosis/finding.h"
#include "records/sessionbatches.h"

namespace MqttDoctor {

class JsonStreamWriter;
struct CheckOptions;
struct DiagnosisInput;
struct SessionCheckInput;

/**
 * The SESSION_MISSING_CONSUMER findings of one account: a finding per durable a session record names
 * that does not exist, so a hundred thousand on an account whose durables are gone. Kept as references
 * to the records they are about (24 bytes each, no Finding), in the order Checks::sortFindings gives
 * them, and made into a Finding only when one is read: the CLI's JSON writes each as it is made
 * instead of holding them all, the GUI shows each row as it is made (FindingList). Keeps the records'
 * batches (shared, not copied) while it lives; copies share the references. Immutable once made; any thread.
 */
class MissingConsumerFindings final
{
public:
    MissingConsumerFindings() = default;
    /**
     * The findings of `input`; none unless its consumers are known (SessionCheckInput::consumersKnown).
     * Durables in `replaced` are left out: another durable of the same session took their place
     * (SESSION_DURABLE_REPLACED reports the pair).
     */
    explicit MissingConsumerFindings(const SessionCheckInput &input, const QSet<QString> &replaced = {});

    qsizetype size() const { return m_items.size(); }
    bool isEmpty() const { return m_items.isEmpty(); }
    /** Finding `i` (0 to size() - 1), as the session checks report it. */
    Finding at(qsizetype i) const;
    /**
     * What finding `i` shares with the others on its stream (code, severity, account, stream, repair,
     * actual evidence), without its subject, client ID or texts: for counting and grouping without making it.
     */
    const Finding &summaryAt(qsizetype i) const { return m_blank.at(m_items.at(i).pubrel ? 1 : 0); }
    /** Every finding, made, appended to `out` in their order. */
    void appendTo(QList<Finding> &out) const;
    /** Every finding as Finding::writeJson() writes it, in their order, each made only to be written. */
    void writeJson(JsonStreamWriter &w) const;

    /**
     * Checks::diagnose(input) with each account's SESSION_MISSING_CONSUMER findings left out of the list
     * and given in `apart` instead (one per account that has any, in the order of the accounts'
     * findings): the same findings, without a Finding per missing durable. placeIn() says where each
     * belongs in the list.
     */
    static QList<Finding> diagnoseApart(const DiagnosisInput &input, QList<MissingConsumerFindings> &apart);
    /**
     * Where these findings belong in `sorted` (sortFindings' order, without them): the index of the first
     * finding that sorts after them. Only for a non-empty object.
     */
    qsizetype placeIn(const QList<Finding> &sorted) const;
    /** Puts non-empty groups (of different accounts) in the order of their findings. */
    static void sortGroups(QList<MissingConsumerFindings> &groups);

private:
    struct Item
    {
        const SessionEntry *entry = nullptr;
        const SessionConsumer *consumer = nullptr;
        bool pubrel = false; ///< the PUBREL durable on $MQTT_out (else a subscription's on $MQTT_msgs)
    };
    SessionBatches m_records; ///< what the items point into, kept alive
    QList<Item> m_items; ///< shared by copies: a copy costs no references
    QList<Finding> m_blank; ///< what every finding on $MQTT_msgs, then on $MQTT_out, shares
};

namespace Checks {

/**
 * Checks::checkSessions(input, options), its SESSION_MISSING_CONSUMER findings given in `apart` instead
 * of the list when `apart` is set.
 */
QList<Finding> checkSessions(const SessionCheckInput &input, const CheckOptions &options, MissingConsumerFindings *apart);

} // namespace Checks
} // namespace MqttDoctor
