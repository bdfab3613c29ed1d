#pragma once

// Internal to src/nats: the JSON form of credentials, shared by the profile file and natscli
// context parsers so the rules about which fields go together live in one place. Pure, any thread.

#include <initializer_list>

#include <QJsonObject>
#include <QJsonValue>
#include <QLatin1String>
#include <QString>

#include "common/result.h"
#include "nats/profile.h"

namespace MqttDoctor::CredentialsJson {

/** The string value of `key` (absent: empty); an error naming `field` when it is not a string. */
Result<QString> stringField(const QJsonObject &object, const QString &key, const QString &field);
/** An error naming the first key that is not in `known` (keys starting with "_" are comments). */
Result<void> checkKnownKeys(const QJsonObject &object, std::initializer_list<QLatin1String> known, const QString &prefix);
/** Credentials from a JSON value that must be an object (`name` for messages). */
Result<Credentials> parseCredentialsValue(const QJsonValue &value, const QString &name, const QString &baseDir);
/** The JSON form of credentials; secrets only when withSecrets. */
QJsonObject credentialsToJson(const Credentials &c, bool withSecrets);
/** An error naming `field` when a referenced file does not exist or cannot be read. */
Result<void> checkFile(const FileOrData &file, const QString &field);
/** Checks the files the credentials refer to. */
Result<void> validateCredentials(const Credentials &c, const QString &name);
/** A file reference (path relative to baseDir, ~, $VAR, file://, data:). */
Result<FileOrData> parseFileReference(const QString &value, const QString &field, const QString &baseDir);
/** Credentials from an auth object (user/password, token, nkey, creds, user_jwt+user_seed); field names in errors start with `prefix`. */
Result<Credentials> parseCredentials(const QJsonObject &object, const QString &prefix, const QString &baseDir);
/** Writes a file reference (path) or, with secrets, inline data as a data: URI under `key`. */
void putFileOrData(QJsonObject &object, const QString &key, const FileOrData &value, bool withSecrets);

} // namespace MqttDoctor::CredentialsJson
