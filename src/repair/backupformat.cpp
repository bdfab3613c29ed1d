#include "repair/backupformat.h"

#include <algorithm>

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

#include "common/rfc3339time.h"
#include "nats/natsheaders.h"

namespace MqttDoctor {

namespace {

const QLatin1String kMagic("nats-mqtt-doctor");

Error formatError(const QString &what)
{
    return Error(Error::Kind::InvalidInput, what);
}

std::optional<QByteArray> strictBase64(const QJsonValue &value)
{
    if (!value.isString())
        return std::nullopt;
    auto decoded = QByteArray::fromBase64Encoding(value.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return *decoded;
}

// A non-negative integer stored as a JSON number (QJsonValue keeps qint64 exactly).
std::optional<quint64> unsignedField(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble())
        return std::nullopt;
    const double d = v.toDouble();
    const qint64 i = v.toInteger(-1);
    if (i < 0 || static_cast<double>(i) != d)
        return std::nullopt;
    return quint64(i);
}

} // namespace

QJsonObject BackupHeader::toJson() const
{
    QJsonArray cons;
    for (const QJsonObject &c : consumers)
        cons.append(c);
    return QJsonObject{{QStringLiteral("backup"), kMagic},
                       {QStringLiteral("format"), format},
                       {QStringLiteral("stream"), stream},
                       {QStringLiteral("account"), account},
                       {QStringLiteral("domain"), domain},
                       {QStringLiteral("created"), created},
                       {QStringLiteral("tool_version"), toolVersion},
                       {QStringLiteral("subject_filter"), subjectFilter},
                       {QStringLiteral("messages_included"), messagesIncluded},
                       {QStringLiteral("config"), config},
                       {QStringLiteral("state"), state},
                       {QStringLiteral("consumers"), cons}};
}

Result<BackupHeader> BackupHeader::fromJson(const QJsonObject &json)
{
    if (json.value(QLatin1String("backup")).toString() != kMagic)
        return formatError(QStringLiteral("not a nats-mqtt-doctor backup (the first line has no \"backup\":\"nats-mqtt-doctor\")"));
    BackupHeader h;
    h.format = json.value(QLatin1String("format")).toInt(0);
    if (h.format != CurrentFormat)
        return formatError(
            QStringLiteral("backup format %1 is not supported (this version reads format %2)").arg(h.format).arg(CurrentFormat));
    h.stream = json.value(QLatin1String("stream")).toString();
    if (h.stream.isEmpty())
        return formatError(QStringLiteral("the header has no stream name"));
    const QJsonValue config = json.value(QLatin1String("config"));
    if (!config.isObject() || config.toObject().value(QLatin1String("name")).toString() != h.stream)
        return formatError(QStringLiteral("the header's stream config is missing or names another stream"));
    h.config = config.toObject();
    h.state = json.value(QLatin1String("state")).toObject();
    h.account = json.value(QLatin1String("account")).toString();
    h.domain = json.value(QLatin1String("domain")).toString();
    h.created = json.value(QLatin1String("created")).toString();
    h.toolVersion = json.value(QLatin1String("tool_version")).toString();
    h.subjectFilter = json.value(QLatin1String("subject_filter")).toString();
    h.messagesIncluded = json.value(QLatin1String("messages_included")).toBool(true);
    const QJsonValue cons = json.value(QLatin1String("consumers"));
    if (!cons.isUndefined() && !cons.isArray())
        return formatError(QStringLiteral("the header's consumers is not a list"));
    for (const QJsonValue &c : cons.toArray()) {
        const QJsonObject o = c.toObject();
        if (o.value(QLatin1String("name")).toString().isEmpty() || !o.value(QLatin1String("config")).isObject())
            return formatError(QStringLiteral("a consumer in the header has no name or no config"));
        h.consumers.append(o);
    }
    return h;
}

bool BackupHeader::isInterestRetention() const
{
    const QString retention = config.value(QLatin1String("retention")).toString();
    return retention == QLatin1String("interest") || retention == QLatin1String("workqueue");
}

qint64 BackupHeader::maxMsgsPerSubject() const
{
    return config.value(QLatin1String("max_msgs_per_subject")).toInteger(-1);
}

QJsonObject BackupMessage::toJson() const
{
    QJsonObject o{{QStringLiteral("seq"), qint64(seq)},
                  {QStringLiteral("subject"), subject},
                  {QStringLiteral("time"), BackupFormat::formatTime(timeNs)},
                  {QStringLiteral("data"), QString::fromLatin1(data.toBase64())}};
    if (!headers.isEmpty())
        o.insert(QStringLiteral("hdrs"), QString::fromLatin1(headers.toBase64()));
    return o;
}

Result<BackupMessage> BackupMessage::fromJson(const QJsonObject &json)
{
    BackupMessage m;
    m.subject = json.value(QLatin1String("subject")).toString();
    if (m.subject.isEmpty() || m.subject.contains(QLatin1Char(' ')))
        return formatError(QStringLiteral("the message has no valid subject"));
    const auto seq = unsignedField(json, "seq");
    if (!seq || *seq == 0)
        return formatError(QStringLiteral("the message has no valid sequence"));
    m.seq = *seq;
    const auto time = BackupFormat::parseTime(json.value(QLatin1String("time")).toString());
    if (!time)
        return formatError(QStringLiteral("the message's time is not RFC 3339"));
    m.timeNs = *time;
    const auto data = strictBase64(json.value(QLatin1String("data")));
    if (!data)
        return formatError(QStringLiteral("the message's data is missing or not base64"));
    m.data = *data;
    const QJsonValue hdrs = json.value(QLatin1String("hdrs"));
    if (!hdrs.isUndefined()) {
        const auto block = strictBase64(hdrs);
        if (!block)
            return formatError(QStringLiteral("the message's hdrs is not base64"));
        if (auto parsed = NatsHeaders::parse(*block); !parsed)
            return formatError(QStringLiteral("the message's header block is invalid: ") + parsed.error().message());
        m.headers = *block;
    }
    return m;
}

QJsonObject BackupTrailer::toJson() const
{
    return QJsonObject{
        {QStringLiteral("end"), true}, {QStringLiteral("messages"), qint64(messages)}, {QStringLiteral("bytes"), qint64(bytes)}};
}

Result<BackupTrailer> BackupTrailer::fromJson(const QJsonObject &json)
{
    const auto messages = unsignedField(json, "messages");
    const auto bytes = unsignedField(json, "bytes");
    if (json.value(QLatin1String("end")) != QJsonValue(true) || !messages || !bytes)
        return formatError(QStringLiteral("the end line needs \"end\":true, \"messages\" and \"bytes\""));
    return BackupTrailer{*messages, *bytes};
}

namespace BackupFormat {

QByteArray encodeLine(const QJsonObject &object)
{
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    return line;
}

QString formatTime(qint64 ns)
{
    // Floor division without overflow, also for the earliest 64-bit time.
    qint64 secs = ns / 1000000000;
    qint64 frac = ns % 1000000000;
    if (frac < 0) {
        frac += 1000000000;
        --secs;
    }
    const QDateTime dt = QDateTime::fromSecsSinceEpoch(secs, Qt::UTC);
    return dt.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss")) + QLatin1Char('.') + QStringLiteral("%1").arg(frac, 9, 10, QLatin1Char('0'))
        + QLatin1Char('Z');
}

std::optional<qint64> parseTime(const QString &input)
{
    return Rfc3339Time::parseNs(input);
}

Result<Line> parseLine(const QByteArray &bytes)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return formatError(QStringLiteral("not JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset));
    if (!doc.isObject())
        return formatError(QStringLiteral("not a JSON object"));
    const QJsonObject o = doc.object();
    Line line;
    if (o.contains(QLatin1String("backup"))) {
        auto h = BackupHeader::fromJson(o);
        if (!h)
            return h.error();
        line.kind = Line::Kind::Header;
        line.header = std::move(*h);
    } else if (o.contains(QLatin1String("end"))) {
        auto t = BackupTrailer::fromJson(o);
        if (!t)
            return t.error();
        line.kind = Line::Kind::Trailer;
        line.trailer = *t;
    } else {
        auto m = BackupMessage::fromJson(o);
        if (!m)
            return m.error();
        line.kind = Line::Kind::Message;
        line.message = std::move(*m);
    }
    return line;
}

bool isStrippedHeader(const QString &key)
{
    return key.startsWith(QLatin1String("Nats-Expected-"), Qt::CaseInsensitive)
        || key.compare(QLatin1String("Nats-Msg-Id"), Qt::CaseInsensitive) == 0
        || key.compare(QLatin1String("Nats-Rollup"), Qt::CaseInsensitive) == 0
        || key.startsWith(QLatin1String("Nats-Batch-"), Qt::CaseInsensitive);
}

NatsHeaders restorableHeaders(const NatsHeaders &headers)
{
    NatsHeaders out;
    for (const auto &[key, value] : headers.entries())
        if (!isStrippedHeader(key))
            out.append(key, value);
    return out;
}

QByteArray fingerprint(const QString &subject, const QByteArray &headerBlock, const QByteArray &data)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(subject.toUtf8());
    hash.addData(QByteArrayView("\0", 1));
    if (auto parsed = NatsHeaders::parse(headerBlock)) {
        QList<std::pair<QString, QString>> entries = restorableHeaders(*parsed).entries();
        std::sort(entries.begin(), entries.end());
        for (const auto &[key, value] : entries) {
            hash.addData(key.toUtf8());
            hash.addData(QByteArrayView(":", 1));
            hash.addData(value.toUtf8());
            hash.addData(QByteArrayView("\n", 1));
        }
    } else {
        hash.addData(headerBlock);
    }
    hash.addData(QByteArrayView("\0", 1));
    hash.addData(data);
    return hash.result();
}

} // namespace BackupFormat

} // namespace MqttDoctor
