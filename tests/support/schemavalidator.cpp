#include "schemavalidator.h"

#include <QDir>
#include <QFile>

#include "commandrunner.h"

namespace MqttDoctor::Test {

namespace {

QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(MQTTDOCTOR_TEST_SOURCE_DIR) : fromEnv;
}

} // namespace

QString SchemaValidator::schemaDir()
{
    return sourceDir() + QStringLiteral("/docs/schema");
}

QString SchemaValidator::validate(const QStringList &files)
{
    // Debian's python3, where python3-jsonschema is installed (another python3 may come first in PATH).
    const QString python = QStringLiteral("/usr/bin/python3");
    if (!QFile::exists(python))
        return QStringLiteral("/usr/bin/python3 not found (make deps installs it with python3-jsonschema)");
    const CommandRunner::Result r =
        CommandRunner::run(python, QStringList{sourceDir() + QStringLiteral("/scripts/validate-json.py"), schemaDir()} + files, 120000);
    if (r.exitCode == 0 && !r.timedOut)
        return {};
    return QStringLiteral("validate-json.py exit %1:\n%2%3")
        .arg(r.exitCode)
        .arg(QString::fromUtf8(r.standardOutput.right(6000)), QString::fromUtf8(r.standardError.right(2000)));
}

QString SchemaValidator::validateData(const QString &dir, const QString &name, const QByteArray &data)
{
    const QString path = QDir(dir).filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
        return QStringLiteral("cannot write ") + path;
    f.close();
    return validate({path});
}

} // namespace MqttDoctor::Test
