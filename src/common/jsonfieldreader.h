#pragma once

#include <QHash>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

/**
 * Reads the members of one JSON object of a data file strictly: each getter names a member, checks its
 * type and remembers it was read; finish() then fails on the first type error or on a member nobody
 * read (a misspelt key must not be ignored silently). A missing optional member gives its default.
 * Errors say "<what> <name>: member '<key>' ...". Pure; any thread.
 */
class JsonFieldReader final
{
public:
    JsonFieldReader(QJsonObject object, QString what);

    /** What the object is called in errors once known ("entry asm.create_sessions_stream"). */
    void setName(const QString &name) { m_name = name; }

    QString string(const char *key, bool required = false);
    QStringList strings(const char *key);
    bool flag(const char *key, bool fallback);
    QHash<QString, QString> stringMap(const char *key);
    QHash<QString, QStringList> stringLists(const char *key);
    /** An array of objects, each read by a reader of its own. */
    QList<QJsonObject> objects(const char *key);

    /** The first error, or one for a member no getter asked for. */
    Result<void> finish() const;

private:
    QJsonValue take(const char *key);
    void fail(const QString &key, const QString &problem);

    QJsonObject m_object;
    QString m_what;
    QString m_name;
    QSet<QString> m_read;
    QString m_error;
};

} // namespace MqttDoctor
