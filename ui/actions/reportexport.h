#pragma once

#include <memory>

#include <QObject>
#include <QString>
#include <QStringList>

#include "common/error.h"

namespace MqttDoctor {

class AsyncRunner;

/**
 * Export Report: the incident report of one account (or the cluster, when the account is empty) over the
 * last `seconds` of the local history, written as HTML (QSaveFile) and PDF (ReportPdf) side by side: the
 * same base name with .html and .pdf. Everything (opening the database, HistoryReport::make, writing the
 * files) runs on this object's own one-thread worker; the answer arrives on the GUI thread as finished()
 * or failed(). A second export while one runs is refused (start() returns false).
 *
 * Threads: every member function is for the GUI thread.
 */
class ReportExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ReportExport)

public:
    struct Request
    {
        QString folder; ///< the history folder (HistoryLocation::folder of it: empty is the default folder)
        QString cluster;
        QStringList urls; ///< to find the database when the cluster is not known yet
        QString account; ///< empty: the cluster
        qint64 seconds = 3600;
        /** Where to write: its .html/.pdf suffix (if any) is dropped, then both suffixes are added. */
        QString path;
        bool hashClientIds = false;
        QString auditLogPath; ///< empty: no repairs section
    };

    explicit ReportExport(QObject *parent = nullptr);
    ~ReportExport() override;

    /** The base name (without .html or .pdf) the files of `path` are written to. */
    static QString basePath(const QString &path);

    /** Starts the export on the worker; false (and nothing started) while another one runs. */
    bool start(const Request &request);
    bool isRunning() const { return m_running; }
    /** Drops a queued export and waits for the running one. */
    void shutdown();

Q_SIGNALS:
    void finished(const QString &htmlPath, const QString &pdfPath, int findings, int checks);
    void failed(const MqttDoctor::Error &error);

private:
    std::unique_ptr<AsyncRunner> m_runner;
    bool m_running = false;
    bool m_shutDown = false;
    quint64 m_generation = 0;
};

} // namespace MqttDoctor
