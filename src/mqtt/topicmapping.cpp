#include "mqtt/topicmapping.h"

#include <QStringList>

#include "common/decodeerror.h"

namespace MqttDoctor {

namespace {

Error mappingError(const QString &what, const QString &reason)
{
    return DecodeError{QStringLiteral("MQTT topic mapping"), what, reason}.toError();
}

Result<QString> toSubject(const QString &mqtt, TopicMapping::Dialect dialect, bool isFilter)
{
    const QString what =
        isFilter ? QStringLiteral("filter \"") + mqtt + QLatin1Char('"') : QStringLiteral("topic \"") + mqtt + QLatin1Char('"');
    if (mqtt.isEmpty())
        return mappingError(what, QStringLiteral("empty topic"));
    if (mqtt.contains(QLatin1Char(' ')))
        return mappingError(what,
                            dialect == TopicMapping::Dialect::V2_9 ? QStringLiteral("characters ' ' and '.' not supported for MQTT topics")
                                                                   : QStringLiteral("character ' ' not supported for MQTT topics"));
    if (dialect == TopicMapping::Dialect::V2_9 && mqtt.contains(QLatin1Char('.')))
        return mappingError(what, QStringLiteral("characters ' ' and '.' not supported for MQTT topics"));

    const QStringList levels = mqtt.split(QLatin1Char('/'));
    QStringList tokens;
    tokens.reserve(levels.size());
    for (qsizetype i = 0; i < levels.size(); ++i) {
        const QString &level = levels.at(i);
        const bool hasWildcard = level.contains(QLatin1Char('+')) || level.contains(QLatin1Char('#'));
        if (hasWildcard && !isFilter)
            return mappingError(what, QStringLiteral("wildcards not allowed in a topic name"));
        if (level == QLatin1String("+")) {
            tokens.append(QStringLiteral("*"));
        } else if (level == QLatin1String("#")) {
            if (i != levels.size() - 1)
                return mappingError(what, QStringLiteral("'#' must be the last level"));
            tokens.append(QStringLiteral(">"));
        } else if (hasWildcard) {
            return mappingError(what, QStringLiteral("wildcards must occupy a whole level"));
        } else if (level.isEmpty()) {
            tokens.append(QStringLiteral("/"));
        } else {
            QString t = level;
            if (dialect == TopicMapping::Dialect::V2_10)
                t.replace(QLatin1Char('.'), QStringLiteral("//"));
            tokens.append(t);
        }
    }
    return tokens.join(QLatin1Char('.'));
}

} // namespace

Result<QString> TopicMapping::topicToSubject(const QString &topic, Dialect dialect)
{
    return toSubject(topic, dialect, false);
}

Result<QString> TopicMapping::filterToSubject(const QString &filter, Dialect dialect)
{
    return toSubject(filter, dialect, true);
}

QString TopicMapping::subjectToTopic(const QString &subject, Dialect dialect)
{
    const QStringList tokens = subject.split(QLatin1Char('.'));
    QStringList levels;
    levels.reserve(tokens.size());
    for (const QString &t : tokens) {
        if (t == QLatin1String("/"))
            levels.append(QString());
        else if (t == QLatin1String("*"))
            levels.append(QStringLiteral("+"));
        else if (t == QLatin1String(">"))
            levels.append(QStringLiteral("#"));
        else if (dialect == Dialect::V2_10)
            levels.append(QString(t).replace(QStringLiteral("//"), QStringLiteral(".")));
        else
            levels.append(t);
    }
    return levels.join(QLatin1Char('/'));
}

bool TopicMapping::needsLevelUp(const QString &subject)
{
    return subject.size() >= 3 && subject.endsWith(QLatin1String(".>"));
}

QString TopicMapping::levelUpSid(const QString &subject)
{
    if (!needsLevelUp(subject))
        return {};
    return subject.left(subject.size() - 2) + levelUpSidSuffix();
}

QString TopicMapping::subjectOfSid(const QString &sid)
{
    if (isLevelUpSid(sid))
        return sid.left(sid.size() - levelUpSidSuffix().size());
    return sid;
}

QString TopicMapping::sidToFilter(const QString &sid, Dialect dialect)
{
    if (isLevelUpSid(sid))
        return subjectToTopic(subjectOfSid(sid), dialect) + QStringLiteral("/#");
    return subjectToTopic(sid, dialect);
}

} // namespace MqttDoctor
