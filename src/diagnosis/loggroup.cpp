#include "loggroup.h"

#include "diagnosis/logline.h"

namespace MqttDoctor {

namespace {

QJsonObject positionJson(const LogGroup::Position &p)
{
    return QJsonObject{{QStringLiteral("source"), p.source}, {QStringLiteral("line"), p.line}};
}

QJsonValue timeJson(const QString &timestamp)
{
    return timestamp.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(LogGroup::isoTime(timestamp));
}

} // namespace

void LogGroup::add(const QString &timestamp, const Position &position, const QString &clientId, const QString &subject)
{
    if (count == 0)
        firstLine = position;
    lastLine = position;
    ++count;
    const std::optional<qint64> micros = LogLine::timeMicros(timestamp);
    if (!micros) {
        ++untimedLines;
    } else {
        if (!firstMicros || *micros < *firstMicros) {
            firstMicros = micros;
            firstTime = timestamp;
        }
        if (!lastMicros || *micros >= *lastMicros) {
            lastMicros = micros;
            lastTime = timestamp;
        }
    }
    clientIds.add(clientId);
    subjects.add(subject);
}

int LogGroup::severityRank() const
{
    if (!match.matched)
        return -1;
    static const QStringList ranks{QStringLiteral("info"), QStringLiteral("warning"), QStringLiteral("error"), QStringLiteral("critical")};
    return int(ranks.indexOf(match.severity));
}

QJsonObject LogGroup::toJson() const
{
    return QJsonObject{
        {QStringLiteral("count"), count},
        {QStringLiteral("first_seen"), timeJson(firstTime)},
        {QStringLiteral("last_seen"), timeJson(lastTime)},
        {QStringLiteral("first_line"), positionJson(firstLine)},
        {QStringLiteral("last_line"), positionJson(lastLine)},
        {QStringLiteral("untimed_lines"), untimedLines},
        {QStringLiteral("client_ids"), clientIds.toJson()},
        {QStringLiteral("other_client_id_lines"), clientIds.otherLines()},
        {QStringLiteral("subjects"), subjects.toJson()},
        {QStringLiteral("other_subject_lines"), subjects.otherLines()},
        {QStringLiteral("other_shapes"), otherShapes},
        {QStringLiteral("match"), match.toJson()},
    };
}

QString LogGroup::isoTime(const QString &timestamp)
{
    QString out;
    out.reserve(timestamp.size());
    bool blank = false;
    for (const QChar c : timestamp) {
        if (c.isSpace()) {
            blank = true;
            continue;
        }
        if (blank) {
            out += u'T';
            blank = false;
        }
        out += c == u'/' ? u'-' : c;
    }
    return out;
}

} // namespace MqttDoctor
