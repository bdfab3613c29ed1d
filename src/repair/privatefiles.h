#pragma once

#include <QFileDevice>
#include <QString>

namespace MqttDoctor::PrivateFiles {

/**
 * What the tool writes (backups, the audit log, repair journals) holds account data: stream contents, configs, client
 * IDs. Files are created readable and writable by their owner only (0600), folders the tool creates are 0700.
 */
inline constexpr QFileDevice::Permissions kFilePermissions = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
inline constexpr QFileDevice::Permissions kFolderPermissions = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;

/**
 * Creates @p dir and every missing parent with kFolderPermissions. Folders that exist already are left as they are
 * (they are the user's). False when a folder could not be created or the path is a file.
 */
bool makePath(const QString &dir);

/** Sets kFilePermissions on an existing file; false when that fails. */
bool restrict(const QString &file);

} // namespace MqttDoctor::PrivateFiles
