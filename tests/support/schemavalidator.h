#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Test {

/**
 * The published JSON contract (docs/schema/) checked on real outputs: runs scripts/validate-json.py (Debian's
 * python3-jsonschema) over files of CLI output, JSON or JSON Lines, each object against the schema its
 * "schema" member names. The source tree comes from CTest's MQTTDOCTOR_SOURCE_DIR.
 */
class SchemaValidator
{
public:
    /** Empty when every object of every file is valid; else the validator's report (or why it could not run). */
    static QString validate(const QStringList &files);
    /** `data` written to `dir`/`name`, then validated as validate() does. */
    static QString validateData(const QString &dir, const QString &name, const QByteArray &data);
    /** docs/schema of the source tree. */
    static QString schemaDir();
};

} // namespace MqttDoctor::Test
