#include "logvaluetally.h"

#include <QJsonObject>

namespace MqttDoctor {

void LogValueTally::add(const QString &value)
{
    if (value.isEmpty())
        return;
    if (m_last >= 0 && m_values.at(m_last).first == value) {
        ++m_values[m_last].second;
        return;
    }
    for (qsizetype i = 0; i < m_values.size(); ++i) {
        if (m_values.at(i).first == value) {
            ++m_values[i].second;
            m_last = i;
            return;
        }
    }
    if (m_values.size() < kMaxValues) {
        m_values.append({value, 1});
        m_last = m_values.size() - 1;
        return;
    }
    ++m_otherLines;
}

QJsonArray LogValueTally::toJson() const
{
    QJsonArray out;
    for (const auto &[value, count] : m_values)
        out.append(QJsonObject{{QStringLiteral("value"), value}, {QStringLiteral("count"), count}});
    return out;
}

QString LogValueTally::toText() const
{
    QStringList parts;
    for (const auto &[value, count] : m_values)
        parts.append(QStringLiteral("%1 (%2)").arg(value).arg(count));
    QString out = parts.join(QStringLiteral(", "));
    if (m_otherLines > 0)
        out += (m_otherLines == 1 ? QStringLiteral(", and 1 line with other values")
                                  : QStringLiteral(", and %1 lines with other values").arg(m_otherLines));
    return out;
}

} // namespace MqttDoctor
