#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

namespace MqttDoctor::Cli {

/**
 * The published contract of every `--json` output (docs/schema/, docs/cli.md "JSON contract"): each output
 * names its schema and version in a top-level "schema" member, "nats-mqtt-doctor/<name>/<version>", and
 * docs/schema/<name>.schema.json describes it. A change that breaks a script (a member removed or renamed,
 * a type or meaning changed) bumps the version here, in the schema file and in CHANGELOG.md; a member
 * added does not.
 */
namespace JsonContract {

struct Output
{
    QString name; ///< "check", "explain", "error", ...
    int version = 1;
    QString what; ///< the command and options that print it
};

/** Every output, in the order of docs/cli.md. */
const QList<Output> &outputs();
/** "nats-mqtt-doctor/<name>/<version>"; a name not in outputs() is a programming error (asserted). */
QString id(const QString &name);
/** `object` with its "schema" member set to id(name). */
QJsonObject stamped(const QString &name, QJsonObject object);

} // namespace JsonContract
} // namespace MqttDoctor::Cli
