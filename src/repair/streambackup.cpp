#include "repair/streambackup.h"

#include <optional>

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>

#include "nats/jetstreamclient.h"
#include "nats/jserrors.h"
#include "repair/backupfile.h"
#include "repair/backupformat.h"
#include "repair/repairtarget.h"
#include "repair/streamcontent.h"

#ifndef MQTTDOCTOR_CORE_VERSION
#define MQTTDOCTOR_CORE_VERSION "unknown"
#endif

namespace MqttDoctor {

namespace StreamBackup {

namespace {

const QLatin1String kCancelledHint("cancelled by the user");

QString accountText(const RepairTarget &target)
{
    return target.account.isEmpty() ? QStringLiteral("the connected account") : QStringLiteral("account ") + target.account;
}

} // namespace

Error cancelledError(const QString &what)
{
    return Error(Error::Kind::Internal, what + QStringLiteral(" cancelled"), kCancelledHint);
}

bool isCancelled(const Error &error)
{
    return error.kind() == Error::Kind::Internal && error.hint() == kCancelledHint;
}

namespace {

bool cancelledNow(const BackupOptions &options)
{
    return options.cancel && options.cancel->load(std::memory_order_relaxed);
}

void progress(const BackupOptions &options, const QString &phase, quint64 done, quint64 total)
{
    if (options.progress)
        options.progress(RepairProgress{phase, done, total});
}

/** The stream's info (config and state); a missing stream is NotFound, named as such. */
Result<QJsonObject> streamInfo(JetStreamClient &js, const RepairTarget &target, const QString &stream, const QString &what)
{
    auto info = js.streamInfo(stream);
    if (info)
        return *info;
    Error e = info.error();
    if (e.jsErrCode() == JsErrors::StreamNotFound)
        return Error(Error::Kind::NotFound, QStringLiteral("%1: the stream does not exist in %2").arg(what, accountText(target)),
                     QStringLiteral("check the stream name (the streams command lists them)"))
            .withJsErrCode(JsErrors::StreamNotFound);
    return e.prefixed(what);
}

/** The backup's first line, its consumers still to come: the stream, where and when it was taken, its config and state. */
BackupHeader headerOf(const RepairTarget &target, const BackupRequest &request, const BackupOptions &options, const QJsonObject &info)
{
    BackupHeader header;
    header.stream = request.stream;
    header.account = target.account;
    header.domain = target.apiDomain;
    header.created = BackupFormat::formatTime(QDateTime::currentMSecsSinceEpoch() * 1000000);
    header.toolVersion = options.toolVersion.isEmpty() ? QStringLiteral(MQTTDOCTOR_CORE_VERSION) : options.toolVersion;
    header.subjectFilter = request.subject;
    header.messagesIncluded = request.includeMessages;
    header.config = info.value(QLatin1String("config")).toObject();
    header.state = info.value(QLatin1String("state")).toObject();
    return header;
}

/** The consumers asked for, with their configs, into the header and their names into `result`; each one named must exist. */
Result<void> addConsumers(JetStreamClient &js, const BackupRequest &request, BackupHeader &header, BackupResult &result,
                          const QString &what)
{
    auto consumers = js.consumerList(request.stream);
    if (!consumers)
        return Error(consumers.error()).prefixed(what + QStringLiteral(": listing consumers"));
    QStringList wanted = request.consumers;
    for (const QJsonObject &c : *consumers) {
        const QString name = c.value(QLatin1String("name")).toString();
        if (!request.allConsumers && !wanted.contains(name))
            continue;
        wanted.removeAll(name);
        header.consumers.append(QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("config"), c.value(QLatin1String("config"))}});
        result.consumers << name;
    }
    if (!request.allConsumers && !wanted.isEmpty())
        return Error(Error::Kind::NotFound,
                     QStringLiteral("%1: consumer %2 does not exist on the stream").arg(what, wanted.join(QStringLiteral(", "))));
    return {};
}

/**
 * The stream's messages (within the subject filter) in sequence order, a line each, counted in `result`.
 * A sequence that does not grow is a protocol error: the file would not restore as the stream was.
 */
Result<void> writeMessages(const RepairTarget &target, const BackupRequest &request, const BackupOptions &options,
                           const BackupHeader &header, AtomicFileWriter &writer, BackupResult &result, const QString &what)
{
    const quint64 expected = quint64(header.state.value(QLatin1String("messages")).toInteger());
    progress(options, QStringLiteral("reading"), 0, request.subject.isEmpty() ? expected : 0);
    StreamReader::Options readOptions;
    readOptions.batchSize = options.batchSize;
    readOptions.cancel = options.cancel;
    std::optional<Error> writeError;
    quint64 lastSeq = 0;
    auto read =
        StreamContent::read(target.connection, target.apiDomain, request.stream, header.config, request.subject, readOptions,
                            [&](QList<StreamMessage> &&batch, const ReadProgress &p) {
                                QByteArray chunk;
                                for (StreamMessage &m : batch) {
                                    if (m.sequence <= lastSeq) {
                                        writeError =
                                            Error(Error::Kind::Protocol,
                                                  QStringLiteral("the stream delivered sequence %1 after %2").arg(m.sequence).arg(lastSeq));
                                        return false;
                                    }
                                    lastSeq = m.sequence;
                                    BackupMessage b{m.subject, m.sequence, m.timeNs, std::move(m.headers), std::move(m.data)};
                                    chunk += BackupFormat::encodeLine(b.toJson());
                                    ++result.messages;
                                    result.bytes += quint64(b.size());
                                }
                                if (auto w = writer.write(chunk); !w) {
                                    writeError = w.error();
                                    return false;
                                }
                                progress(options, QStringLiteral("reading"), result.messages, std::max<quint64>(p.total, result.messages));
                                return true;
                            });
    if (!read)
        return Error(read.error()).prefixed(what);
    if (writeError)
        return writeError->prefixed(what);
    if (read->cancelled || cancelledNow(options))
        return cancelledError(what);
    return {};
}

} // namespace

Result<BackupResult> run(const RepairTarget &target, const BackupRequest &request, const BackupOptions &options)
{
    const QString what = QStringLiteral("backup of stream %1").arg(request.stream);
    if (request.stream.isEmpty())
        return Error(Error::Kind::InvalidInput, QStringLiteral("backup: no stream given"));
    if (!target.connection)
        return Error(Error::Kind::Internal, what + QStringLiteral(": no connection"));

    // Refuse a bad output path before asking the server anything.
    AtomicFileWriter writer(request.outputPath);
    if (auto opened = writer.open(request.overwrite); !opened)
        return Error(opened.error()).prefixed(what);

    JetStreamClient js(target.connection, target.apiDomain);
    const auto info = streamInfo(js, target, request.stream, what);
    if (!info)
        return info.error();
    BackupHeader header = headerOf(target, request, options, *info);
    BackupResult result;
    result.stream = request.stream;
    result.account = target.account;
    result.subjectFilter = request.subject;
    result.interestRetention = StreamContent::readsWithoutConsumer(header.config);
    if (auto c = addConsumers(js, request, header, result, what); !c)
        return c.error();
    if (auto w = writer.write(BackupFormat::encodeLine(header.toJson())); !w)
        return Error(w.error()).prefixed(what);
    if (request.includeMessages)
        if (auto m = writeMessages(target, request, options, header, writer, result, what); !m)
            return m.error();

    if (cancelledNow(options))
        return cancelledError(what);
    if (auto w = writer.write(BackupFormat::encodeLine(BackupTrailer{result.messages, result.bytes}.toJson())); !w)
        return Error(w.error()).prefixed(what);
    result.fileBytes = writer.bytesWritten();
    if (auto c = writer.commit(); !c)
        return Error(c.error()).prefixed(what);
    result.path = QFileInfo(request.outputPath).absoluteFilePath();
    progress(options, QStringLiteral("done"), result.messages, result.messages);
    return result;
}

} // namespace StreamBackup

} // namespace MqttDoctor
