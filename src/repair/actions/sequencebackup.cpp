#include "sequencebackup.h"

#include <algorithm>

#include <QDateTime>
#include <QJsonArray>

#include "nats/jserrors.h"
#include "repair/backupfile.h"
#include "repair/repairexecutor.h"

namespace MqttDoctor::SequenceBackup {

namespace {

/** A `STREAM.MSG.GET` reply's message as a backup line's. */
BackupMessage fromReply(const QJsonObject &reply)
{
    const QJsonObject m = reply.value(QLatin1String("message")).toObject();
    BackupMessage b;
    b.subject = m.value(QLatin1String("subject")).toString();
    b.seq = quint64(m.value(QLatin1String("seq")).toInteger());
    b.timeNs = BackupFormat::parseTime(m.value(QLatin1String("time")).toString()).value_or(0);
    b.headers = QByteArray::fromBase64(m.value(QLatin1String("hdrs")).toString().toLatin1());
    b.data = QByteArray::fromBase64(m.value(QLatin1String("data")).toString().toLatin1());
    return b;
}

} // namespace

Result<QList<std::optional<BackupMessage>>> read(const ExecContext &ctx, const QString &stream, const QList<quint64> &sequences)
{
    QList<ExecContext::ApiCall> calls;
    calls.reserve(sequences.size());
    for (quint64 seq : sequences)
        calls.append({QStringLiteral("STREAM.MSG.GET.") + stream, QJsonObject{{QStringLiteral("seq"), qint64(seq)}}});
    auto replies = ctx.apiEach(calls);
    if (!replies)
        return replies.error().prefixed(QStringLiteral("reading %1").arg(stream));
    QList<std::optional<BackupMessage>> out;
    out.reserve(sequences.size());
    for (qsizetype i = 0; i < replies->size(); ++i) {
        const Result<QJsonObject> &r = replies->at(i);
        if (!r) {
            const int code = r.error().jsErrCode();
            if (code == JsErrors::NoMessageFound || code == JsErrors::StreamNotFound) {
                out.append(std::nullopt);
                continue;
            }
            return Error(r.error()).prefixed(QStringLiteral("reading %1 sequence %2").arg(stream).arg(sequences.at(i)));
        }
        out.append(fromReply(*r));
    }
    return out;
}

Result<QList<std::optional<QJsonObject>>> consumers(const ExecContext &ctx, const QList<std::pair<QString, QString>> &streamAndName)
{
    QList<ExecContext::ApiCall> calls;
    calls.reserve(streamAndName.size());
    for (const auto &[stream, name] : streamAndName)
        calls.append({QStringLiteral("CONSUMER.INFO.%1.%2").arg(stream, name), {}});
    auto replies = ctx.apiEach(calls);
    if (!replies)
        return replies.error().prefixed(QStringLiteral("reading the durables"));
    QList<std::optional<QJsonObject>> out;
    out.reserve(streamAndName.size());
    for (qsizetype i = 0; i < replies->size(); ++i) {
        const Result<QJsonObject> &r = replies->at(i);
        if (!r) {
            const int code = r.error().jsErrCode();
            if (code == JsErrors::ConsumerNotFound || code == JsErrors::StreamNotFound) {
                out.append(std::nullopt);
                continue;
            }
            return Error(r.error()).prefixed(QStringLiteral("reading durable %1").arg(streamAndName.at(i).second));
        }
        out.append(QJsonObject{{QStringLiteral("name"), r->value(QLatin1String("name"))},
                               {QStringLiteral("config"), r->value(QLatin1String("config"))}});
    }
    return out;
}

Result<QString> write(const ExecContext &ctx, const RepairStep &step, const QString &stream, QList<BackupMessage> messages,
                      const QList<QJsonObject> &consumerInfos, int index)
{
    auto info = ctx.streamInfo(stream);
    if (!info)
        return info.error().prefixed(QStringLiteral("backing up %1").arg(stream));
    if (!*info)
        return Error(Error::Kind::NotFound, QStringLiteral("backing up %1: the stream does not exist").arg(stream));
    std::sort(messages.begin(), messages.end(), [](const BackupMessage &a, const BackupMessage &b) { return a.seq < b.seq; });
    BackupHeader h;
    h.stream = stream;
    h.account = ctx.target.account;
    h.domain = ctx.target.apiDomain;
    h.created = BackupFormat::formatTime(QDateTime::currentDateTimeUtc().toMSecsSinceEpoch() * 1000000);
    h.toolVersion = QStringLiteral("nats-mqtt-doctor");
    h.messagesIncluded = !messages.isEmpty();
    h.config = (*info)->value(QLatin1String("config")).toObject();
    h.state = (*info)->value(QLatin1String("state")).toObject();
    h.consumers = consumerInfos;
    RepairBackupSpec spec;
    spec.stream = stream;
    AtomicFileWriter file(RepairExecutor::backupPath(ctx.backupDir, step, spec, index));
    if (auto o = file.open(false); !o)
        return o.error();
    QByteArray chunk = BackupFormat::encodeLine(h.toJson());
    BackupTrailer t;
    for (const BackupMessage &m : std::as_const(messages)) {
        chunk += BackupFormat::encodeLine(m.toJson());
        ++t.messages;
        t.bytes += quint64(m.size());
        if (chunk.size() > (1 << 20)) {
            if (auto w = file.write(chunk); !w)
                return w.error();
            chunk.clear();
        }
    }
    chunk += BackupFormat::encodeLine(t.toJson());
    if (auto w = file.write(chunk); !w)
        return w.error();
    if (auto c = file.commit(); !c)
        return c.error();
    return file.finalPath();
}

} // namespace MqttDoctor::SequenceBackup
