#pragma once

#include <utility>

#include <QJsonArray>
#include <QList>
#include <QString>

namespace MqttDoctor {

/**
 * The distinct values lines of one log group carried (client IDs, subjects), bounded: the first kMaxValues distinct
 * values are kept with how many lines had each; lines with any other value are only counted. Memory does not grow
 * with the number of lines. Single-threaded.
 */
class LogValueTally final
{
public:
    static constexpr qsizetype kMaxValues = 10;

    /** Counts one line's value; an empty value is not counted. */
    void add(const QString &value);

    /** The kept values with their line counts, in the order they first came. */
    const QList<std::pair<QString, qint64>> &values() const { return m_values; }
    /** Lines whose value is not among the kept ones. */
    qint64 otherLines() const { return m_otherLines; }
    bool isEmpty() const { return m_values.isEmpty(); }

    /** [{"value": ..., "count": N}, ...] */
    QJsonArray toJson() const;
    /** "c1 (300), c2 (3)" and ", and 12 lines with other values" when some were not kept. */
    QString toText() const;

private:
    QList<std::pair<QString, qint64>> m_values;
    qint64 m_otherLines = 0;
    qsizetype m_last = -1; ///< the value counted last: a run of lines of one client costs one comparison each
};

} // namespace MqttDoctor
