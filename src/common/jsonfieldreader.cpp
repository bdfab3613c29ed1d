#include "common/jsonfieldreader.h"

#include <QJsonArray>

namespace MqttDoctor {

JsonFieldReader::JsonFieldReader(QJsonObject object, QString what) : m_object(std::move(object)), m_what(std::move(what)) {}

QJsonValue JsonFieldReader::take(const char *key)
{
    const QString k = QString::fromLatin1(key);
    m_read.insert(k);
    return m_object.value(k);
}

void JsonFieldReader::fail(const QString &key, const QString &problem)
{
    if (!m_error.isEmpty())
        return;
    m_error = m_what + (m_name.isEmpty() ? QString() : QLatin1Char(' ') + m_name) + QStringLiteral(": member '") + key
        + QStringLiteral("' ") + problem;
}

QString JsonFieldReader::string(const char *key, bool required)
{
    const QJsonValue v = take(key);
    if (v.isUndefined()) {
        if (required)
            fail(QString::fromLatin1(key), QStringLiteral("is missing"));
        return {};
    }
    if (!v.isString() || (required && v.toString().isEmpty()))
        fail(QString::fromLatin1(key), QStringLiteral("must be a non-empty string"));
    return v.toString();
}

QStringList JsonFieldReader::strings(const char *key)
{
    const QJsonValue v = take(key);
    if (v.isUndefined())
        return {};
    QStringList out;
    if (!v.isArray()) {
        fail(QString::fromLatin1(key), QStringLiteral("must be an array of strings"));
        return out;
    }
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString())
            fail(QString::fromLatin1(key), QStringLiteral("must be an array of strings"));
        out << item.toString();
    }
    return out;
}

bool JsonFieldReader::flag(const char *key, bool fallback)
{
    const QJsonValue v = take(key);
    if (v.isUndefined())
        return fallback;
    if (!v.isBool())
        fail(QString::fromLatin1(key), QStringLiteral("must be true or false"));
    return v.toBool(fallback);
}

QHash<QString, QString> JsonFieldReader::stringMap(const char *key)
{
    const QJsonValue v = take(key);
    QHash<QString, QString> out;
    if (v.isUndefined())
        return out;
    if (!v.isObject()) {
        fail(QString::fromLatin1(key), QStringLiteral("must be an object of strings"));
        return out;
    }
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it->isString())
            fail(QString::fromLatin1(key), QStringLiteral("must be an object of strings"));
        out.insert(it.key(), it->toString());
    }
    return out;
}

QHash<QString, QStringList> JsonFieldReader::stringLists(const char *key)
{
    const QJsonValue v = take(key);
    QHash<QString, QStringList> out;
    if (v.isUndefined())
        return out;
    if (!v.isObject()) {
        fail(QString::fromLatin1(key), QStringLiteral("must be an object of string arrays"));
        return out;
    }
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        QStringList list;
        if (!it->isArray())
            fail(QString::fromLatin1(key), QStringLiteral("must be an object of string arrays"));
        for (const QJsonValue &item : it->toArray()) {
            if (!item.isString())
                fail(QString::fromLatin1(key), QStringLiteral("must be an object of string arrays"));
            list << item.toString();
        }
        out.insert(it.key(), list);
    }
    return out;
}

QList<QJsonObject> JsonFieldReader::objects(const char *key)
{
    const QJsonValue v = take(key);
    QList<QJsonObject> out;
    if (v.isUndefined())
        return out;
    if (!v.isArray()) {
        fail(QString::fromLatin1(key), QStringLiteral("must be an array of objects"));
        return out;
    }
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isObject())
            fail(QString::fromLatin1(key), QStringLiteral("must be an array of objects"));
        out << item.toObject();
    }
    return out;
}

Result<void> JsonFieldReader::finish() const
{
    if (!m_error.isEmpty())
        return Error(Error::Kind::InvalidInput, m_error);
    for (auto it = m_object.begin(); it != m_object.end(); ++it)
        if (!m_read.contains(it.key()))
            return Error(Error::Kind::InvalidInput,
                         m_what + (m_name.isEmpty() ? QString() : QLatin1Char(' ') + m_name) + QStringLiteral(": unknown member '")
                             + it.key() + QLatin1Char('\''));
    return {};
}

} // namespace MqttDoctor
