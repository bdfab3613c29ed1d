#include "historylocation.h"

#include <QDir>
#include <QFileInfo>
#include <QSqlQuery>
#include <QStandardPaths>

#include "historydatabase.h"

namespace MqttDoctor {

namespace {

const QString kSuffix = QStringLiteral(".sqlite");

QString safeFileName(const QString &name)
{
    QString out;
    for (const QChar c : name)
        out += c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') || c == QLatin1Char('.') ? c : QLatin1Char('_');
    if (out.isEmpty() || out.startsWith(QLatin1Char('.')))
        out.prepend(QLatin1String("cluster"));
    return out;
}

} // namespace

QString HistoryLocation::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) + QStringLiteral("/nats-mqtt-doctor/history");
}

QString HistoryLocation::folder(const QString &given)
{
    return given.isEmpty() ? defaultFolder() : given;
}

QString HistoryLocation::clusterName(const QList<ServerInfo> &servers)
{
    for (const ServerInfo &s : servers)
        if (!s.cluster.isEmpty())
            return s.cluster;
    for (const ServerInfo &s : servers)
        if (!s.name.isEmpty())
            return s.name;
    return servers.isEmpty() ? QString() : servers.first().id;
}

QString HistoryLocation::databasePath(const QString &folder, const QString &cluster)
{
    return QDir(folder).filePath(safeFileName(cluster) + kSuffix);
}

QStringList HistoryLocation::clustersIn(const QString &folder)
{
    QStringList out;
    for (const QFileInfo &f : QDir(folder).entryInfoList({QStringLiteral("*") + kSuffix}, QDir::Files, QDir::Name))
        out << f.completeBaseName();
    return out;
}

QString HistoryLocation::recordedThrough(const QString &folder, const QStringList &urls)
{
    if (urls.isEmpty())
        return {};
    for (const QString &name : clustersIn(folder)) {
        auto db = HistoryDatabase::open(databasePath(folder, name), HistoryDatabase::Mode::AnyVersion);
        if (!db)
            continue;
        QSqlQuery q((*db)->db());
        for (const QString &url : urls) {
            q.prepare(QStringLiteral("SELECT 1 FROM urls WHERE url = ?"));
            q.addBindValue(url);
            if (q.exec() && q.next())
                return (*db)->path();
        }
    }
    return {};
}

Result<QString> HistoryLocation::find(const QString &folder, const QString &cluster, const QStringList &urls)
{
    const QStringList known = clustersIn(folder);
    const QString listed = known.isEmpty() ? QStringLiteral("it holds no history yet")
                                           : QStringLiteral("it holds the history of %1").arg(known.join(QStringLiteral(", ")));
    if (!cluster.isEmpty()) {
        const QString path = databasePath(folder, cluster);
        if (QFileInfo::exists(path))
            return path;
        return Error(Error::Kind::NotFound,
                     QStringLiteral("no history of cluster %1 in %2 (%3)").arg(cluster, QDir::toNativeSeparators(folder), listed),
                     QStringLiteral("record checks first (check --record), or give another --history-dir"));
    }
    if (const QString through = recordedThrough(folder, urls); !through.isEmpty())
        return through;
    if (known.size() == 1)
        return databasePath(folder, known.first());
    return Error(Error::Kind::NotFound, QStringLiteral("which cluster's history? %1 (in %2)").arg(listed, QDir::toNativeSeparators(folder)),
                 known.isEmpty() ? QStringLiteral("record checks first: check --record, or the recorder (record)")
                                 : QStringLiteral("give --cluster NAME, or the --server a check was recorded through"));
}

} // namespace MqttDoctor
