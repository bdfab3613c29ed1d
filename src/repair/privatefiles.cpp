#include "repair/privatefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace MqttDoctor::PrivateFiles {

bool makePath(const QString &dir)
{
    if (dir.isEmpty())
        return false;
    QStringList missing; // deepest first
    QString path = QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    while (!QFileInfo::exists(path)) {
        missing.prepend(path);
        const QString parent = QFileInfo(path).path();
        if (parent == path)
            break;
        path = parent;
    }
    for (const QString &folder : std::as_const(missing)) {
        // mkdir with permissions sets them exactly (not filtered by the umask); another process may create it first.
        if (!QDir().mkdir(folder, kFolderPermissions) && !QFileInfo(folder).isDir())
            return false;
    }
    return QFileInfo(dir).isDir();
}

bool restrict(const QString &file)
{
    return QFile::setPermissions(file, kFilePermissions);
}

} // namespace MqttDoctor::PrivateFiles
