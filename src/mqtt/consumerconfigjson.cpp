#include "mqtt/consumerconfigjson.h"

#include <QJsonDocument>

#include <string>
#include <string_view>
#include <unordered_map>

#include "mqtt/gojson.h"

namespace MqttDoctor {

ConsumerConfigJson::ConsumerConfigJson(const QJsonObject &object)
    : m_json(object.isEmpty() ? QByteArray() : GoJson::value(object)), m_durable(object.value(QLatin1String("durable_name")).toString())
{}

ConsumerConfigJson ConsumerConfigJson::fromSlice(const QByteArray &body, qsizetype offset, qsizetype length, QString durableName)
{
    ConsumerConfigJson c;
    if (offset < 0 || length <= 0 || offset + length > body.size())
        return c;
    // A copy of just the slice: the rest of the record is decoded, its bytes need not stay.
    c.m_json = QByteArray(body.constData() + offset, length);
    c.m_durable = std::move(durableName);
    return c;
}

ConsumerConfigJson ConsumerConfigJson::fromSliceShared(const QByteArray &body, qsizetype offset, qsizetype length, QString durableName,
                                                       ValueSpan durable, ValueSpan deliver)
{
    const auto inside = [&](ValueSpan v) { return v.offset >= offset && v.length >= 0 && v.offset + v.length <= offset + length; };
    const auto sameAsName = [&] { // the raw bytes are the name (unescaped ASCII), so json() can write it back
        for (qsizetype i = 0; i < durable.length; ++i)
            if (durableName.at(i).unicode() != static_cast<unsigned char>(body.at(durable.offset + i)))
                return false;
        return true;
    };
    const bool cutDurable = durable.offset >= 0 && inside(durable) && durable.length == durableName.size() && sameAsName();
    const bool cutDeliver = deliver.offset >= 0 && inside(deliver);
    if (!cutDurable && !cutDeliver)
        return fromSlice(body, offset, length, std::move(durableName));
    if (offset < 0 || length <= 0 || offset + length > body.size())
        return {};
    // The slice without the cut values, built in a per-thread scratch buffer and looked up in a
    // per-thread pool: equal rests share one QByteArray. Bounded like the string interning.
    struct Cut
    {
        qsizetype at, length;
        bool isDurable;
    };
    Cut cuts[2];
    int n = 0;
    if (cutDurable)
        cuts[n++] = {durable.offset, durable.length, true};
    if (cutDeliver)
        cuts[n++] = {deliver.offset, deliver.length, false};
    if (n == 2 && cuts[1].at < cuts[0].at)
        std::swap(cuts[0], cuts[1]);
    if (n == 2 && cuts[0].at + cuts[0].length > cuts[1].at)
        return fromSlice(body, offset, length, std::move(durableName)); // overlapping: not two values

    thread_local std::string scratch;
    scratch.clear();
    ConsumerConfigJson c;
    qsizetype from = offset;
    for (int i = 0; i < n; ++i) {
        scratch.append(body.constData() + from, size_t(cuts[i].at - from));
        (cuts[i].isDurable ? c.m_durableAt : c.m_deliverAt) = qint32(scratch.size());
        if (!cuts[i].isDurable)
            c.m_deliver = QByteArray(body.constData() + cuts[i].at, cuts[i].length);
        from = cuts[i].at + cuts[i].length;
    }
    scratch.append(body.constData() + from, size_t(offset + length - from));

    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
    };
    thread_local std::unordered_map<std::string, QByteArray, Hash, std::equal_to<>> pool;
    const auto it = pool.find(std::string_view(scratch));
    if (it != pool.end()) {
        c.m_json = it->second;
    } else {
        c.m_json = QByteArray(scratch.data(), qsizetype(scratch.size()));
        if (pool.size() >= 4096)
            pool.clear();
        pool.emplace(scratch, c.m_json);
    }
    c.m_durable = std::move(durableName);
    return c;
}

QByteArray ConsumerConfigJson::json() const
{
    if (m_durableAt < 0 && m_deliverAt < 0)
        return m_json;
    const QByteArray durable = m_durableAt >= 0 ? m_durable.toLatin1() : QByteArray();
    QByteArray out;
    out.reserve(m_json.size() + durable.size() + m_deliver.size());
    qsizetype from = 0;
    const bool durableFirst = m_deliverAt < 0 || (m_durableAt >= 0 && m_durableAt <= m_deliverAt);
    const auto put = [&](qint32 at, const QByteArray &value) {
        if (at < 0)
            return;
        out.append(m_json.constData() + from, at - from);
        out.append(value);
        from = at;
    };
    if (durableFirst) {
        put(m_durableAt, durable);
        put(m_deliverAt, m_deliver);
    } else {
        put(m_deliverAt, m_deliver);
        put(m_durableAt, durable);
    }
    out.append(m_json.constData() + from, m_json.size() - from);
    return out;
}

QJsonObject ConsumerConfigJson::toObject() const
{
    if (m_json.isEmpty())
        return {};
    return QJsonDocument::fromJson(json()).object();
}

bool ConsumerConfigJson::isEmpty() const
{
    for (const char c : json()) {
        if (c != '{' && c != '}' && c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return false;
    }
    return true;
}

bool ConsumerConfigJson::operator==(const ConsumerConfigJson &other) const
{
    if (json() == other.json())
        return true;
    return toObject() == other.toObject();
}

} // namespace MqttDoctor
