#pragma once

#include <QString>
#include <QStringList>

#include "common/result.h"
#include "nats/profile.h"

namespace MqttDoctor {

/**
 * natscli contexts: `$XDG_CONFIG_HOME/nats/context/<name>.json`, else
 * `~/.config/nats/context/<name>.json`; `context.txt` names the selected one. Credential
 * references may be bare paths, `~`, `$VAR`, `file://` or `data:`; `op://`, `env://` and `nsc://`
 * are reported as not supported. Thread-safe (pure file reading).
 */
namespace NatsContext {

/** The folder holding `context/` and `context.txt`. */
QString configDir();
/** Names of the saved contexts, sorted. */
QStringList list();
/** The selected context's name (`NATS_CONTEXT` env var, else `context.txt`), empty when none. */
QString selected();
/** Loads a context by name, or by path when `nameOrPath` ends in `.json` or contains a '/'. */
Result<Profile> load(const QString &nameOrPath);
/** Converts a context JSON object (already read) into a profile. */
Result<Profile> fromJson(const QJsonObject &context, const QString &name);
/** Resolves one credential reference as natscli does (path, ~, $VAR, file://, data:). */
Result<FileOrData> resolveReference(const QString &reference, const QString &field);

} // namespace NatsContext
} // namespace MqttDoctor
