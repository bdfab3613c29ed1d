#pragma once
// Reading the server logs captured from nats-server 2.9.10, 2.10.27 and 2.15.1 (tests/unit/data/logs, see its
// README): shared by tst_logcatalogue and tst_logexplain.

#include <QDir>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <utility>

namespace MqttDoctor::Test::CapturedLogs {

using namespace Qt::StringLiterals;

inline const QStringList kVersions{u"2.9.10"_s, u"2.10.27"_s, u"2.15.1"_s};

/** The source tree: from CTest's environment, else where the test was built from (running it by hand). */
inline QString sourceDir()
{
    const QString fromEnv = qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR");
    return !fromEnv.isEmpty() ? fromEnv : QStringLiteral(QT_TESTCASE_SOURCEDIR "/../..");
}

inline QString logsDir()
{
    return sourceDir() + u"/tests/unit/data/logs"_s;
}

/** Every line of every captured log of one server version, with the file it came from. */
inline QList<std::pair<QString, QString>> readCapturedLogs(const QString &version)
{
    QList<std::pair<QString, QString>> lines;
    QDir dir(logsDir() + u'/' + version);
    const QStringList files = dir.entryList({u"*.log"_s}, QDir::Files, QDir::Name);
    if (files.isEmpty())
        qFatal("no captured logs in %s", qPrintable(dir.path()));
    for (const QString &name : files) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(f.fileName()));
        for (const QByteArray &raw : f.readAll().split('\n'))
            if (!raw.trimmed().isEmpty())
                lines.append({name, QString::fromUtf8(raw)});
    }
    return lines;
}

inline QString joined(const QStringList &l)
{
    return l.join(u',');
}

} // namespace MqttDoctor::Test::CapturedLogs
