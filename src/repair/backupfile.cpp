#include "repair/backupfile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

#ifdef Q_OS_UNIX
#include <fcntl.h>
#include <unistd.h>
#endif

#include "repair/privatefiles.h"

namespace MqttDoctor {

QString freshBackupPath(const QString &dir, const std::function<QString(const QString &stamp)> &fileName)
{
    QString path;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        path = QDir(dir).filePath(fileName(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'"))));
        if (!QFileInfo::exists(path))
            break;
        QThread::msleep(1);
    }
    return path;
}

namespace {

#ifdef Q_OS_UNIX
bool syncDirectory(const QString &dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return false;
    const bool ok = ::fsync(fd) == 0;
    ::close(fd);
    return ok;
}
#endif

} // namespace

AtomicFileWriter::AtomicFileWriter(QString finalPath) : m_finalPath(std::move(finalPath)) {}

AtomicFileWriter::~AtomicFileWriter()
{
    if (!m_committed)
        discard();
}

QString AtomicFileWriter::temporaryPath() const
{
    return m_file ? m_file->fileName() : QString();
}

Error AtomicFileWriter::ioError(const QString &what) const
{
    return Error(Error::Kind::Io, QStringLiteral("%1 %2: %3").arg(what, m_finalPath, m_file ? m_file->errorString() : QString()),
                 QStringLiteral("check that the folder exists, is writable and has free space"));
}

Result<void> AtomicFileWriter::open(bool overwrite)
{
    if (m_finalPath.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("no output file given"));
    const QFileInfo info(m_finalPath);
    if (info.isDir())
        return Error(Error::Kind::Io, QStringLiteral("cannot write %1: it is a folder").arg(m_finalPath));
    if (info.exists() && !overwrite)
        return Error(Error::Kind::Io, QStringLiteral("%1 already exists").arg(m_finalPath),
                     QStringLiteral("choose another file name, or allow overwriting it"));
    const QString dir = info.absolutePath();
    if (!QFileInfo(dir).isDir())
        return Error(Error::Kind::Io, QStringLiteral("cannot write %1: the folder %2 does not exist").arg(m_finalPath, dir));
    const QString temp =
        QStringLiteral("%1/.%2.tmp-%3").arg(dir, info.fileName(), QString::number(QRandomGenerator::global()->generate64(), 36));
    m_file = std::make_unique<QFile>(temp);
    if (!m_file->open(QIODevice::WriteOnly | QIODevice::NewOnly, PrivateFiles::kFilePermissions)) {
        Error e(Error::Kind::Io, QStringLiteral("cannot write %1: %2").arg(m_finalPath, m_file->errorString()),
                QStringLiteral("check that the folder is writable"));
        m_file.reset();
        return e;
    }
    m_written = 0;
    return {};
}

Result<void> AtomicFileWriter::write(const QByteArray &bytes)
{
    if (!m_file || !m_file->isOpen())
        return Error(Error::Kind::Internal, QStringLiteral("writing %1: the file is not open").arg(m_finalPath));
    if (m_file->write(bytes) != bytes.size())
        return ioError(QStringLiteral("writing"));
    m_written += bytes.size();
    return {};
}

Result<void> AtomicFileWriter::commit()
{
    if (!m_file || !m_file->isOpen())
        return Error(Error::Kind::Internal, QStringLiteral("committing %1: the file is not open").arg(m_finalPath));
    if (!m_file->flush())
        return ioError(QStringLiteral("writing"));
#ifdef Q_OS_UNIX
    if (::fsync(m_file->handle()) != 0)
        return Error(Error::Kind::Io,
                     QStringLiteral("syncing %1 to disk: %2").arg(m_finalPath, QString::fromLocal8Bit(std::strerror(errno))));
#endif
    m_file->close();
    if (m_file->error() != QFileDevice::NoError)
        return ioError(QStringLiteral("closing"));
    // rename(2) replaces the target atomically; QFile::rename refuses an existing target.
    if (std::rename(QFile::encodeName(m_file->fileName()).constData(), QFile::encodeName(m_finalPath).constData()) != 0)
        return Error(Error::Kind::Io,
                     QStringLiteral("renaming the finished file to %1: %2").arg(m_finalPath, QString::fromLocal8Bit(std::strerror(errno))));
    m_committed = true;
#ifdef Q_OS_UNIX
    syncDirectory(QFileInfo(m_finalPath).absolutePath());
#endif
    return {};
}

void AtomicFileWriter::discard()
{
    if (!m_file)
        return;
    m_file->close();
    if (!m_committed)
        QFile::remove(m_file->fileName());
    m_file.reset();
}

Result<BackupFileReader::Summary> BackupFileReader::read(const QString &path, const MessageHandler &onMessage)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error(Error::Kind::Io, QStringLiteral("cannot read backup %1: %2").arg(path, file.errorString()));
    const QString name = QFileInfo(path).fileName();
    const auto lineError = [&](qint64 n, const QString &what) {
        return Error(Error::Kind::InvalidInput, QStringLiteral("backup %1 line %2: %3").arg(name).arg(n).arg(what),
                     QStringLiteral("the file is damaged or not a backup; nothing was changed"));
    };

    Summary summary;
    bool haveHeader = false;
    bool haveTrailer = false;
    quint64 messages = 0;
    quint64 bytes = 0;
    quint64 lastSeq = 0;
    qint64 n = 0;
    while (!file.atEnd()) {
        QByteArray line = file.readLine();
        ++n;
        if (!line.endsWith('\n'))
            return lineError(n, QStringLiteral("the line is cut off (no line end): the file is incomplete"));
        line.chop(1);
        if (haveTrailer)
            return lineError(n, QStringLiteral("text after the end line"));
        auto parsed = BackupFormat::parseLine(line);
        if (!parsed)
            return lineError(n, parsed.error().message());
        BackupFormat::Line &l = *parsed;
        if (!haveHeader) {
            if (l.kind != BackupFormat::Line::Kind::Header)
                return lineError(n, QStringLiteral("the first line must be the backup header"));
            summary.header = std::move(l.header);
            haveHeader = true;
            continue;
        }
        switch (l.kind) {
        case BackupFormat::Line::Kind::Header: return lineError(n, QStringLiteral("a second header"));
        case BackupFormat::Line::Kind::Trailer:
            if (l.trailer.messages != messages || l.trailer.bytes != bytes)
                return lineError(n,
                                 QStringLiteral("the end line counts %1 messages / %2 bytes, the file holds %3 / %4")
                                     .arg(l.trailer.messages)
                                     .arg(l.trailer.bytes)
                                     .arg(messages)
                                     .arg(bytes));
            summary.trailer = l.trailer;
            haveTrailer = true;
            break;
        case BackupFormat::Line::Kind::Message:
            if (l.message.seq <= lastSeq)
                return lineError(n, QStringLiteral("sequence %1 does not follow %2").arg(l.message.seq).arg(lastSeq));
            if (!summary.header.messagesIncluded)
                return lineError(n, QStringLiteral("a message in a backup of configs only"));
            lastSeq = l.message.seq;
            ++messages;
            bytes += quint64(l.message.size());
            if (onMessage && !onMessage(std::move(l.message), n)) {
                summary.lines = n;
                summary.stopped = true;
                return summary;
            }
            break;
        }
    }
    if (file.error() != QFileDevice::NoError)
        return Error(Error::Kind::Io, QStringLiteral("reading backup %1: %2").arg(path, file.errorString()));
    if (!haveHeader)
        return lineError(1, QStringLiteral("the file is empty"));
    if (!haveTrailer)
        return lineError(n + 1, QStringLiteral("the end line is missing: the file is incomplete (cut short?)"));
    summary.lines = n;
    return summary;
}

} // namespace MqttDoctor
