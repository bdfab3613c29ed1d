#include "mqttstreamspec.h"

#include <QJsonArray>

namespace MqttDoctor {

namespace {

QString key(const char *k)
{
    return QString::fromLatin1(k);
}

} // namespace

QJsonObject MqttStreamSpec::createConfig() const
{
    QJsonObject c{{key("name"), name},
                  {key("subjects"), QJsonArray::fromStringList(subjects)},
                  {key("retention"), retention},
                  {key("storage"), storage},
                  {key("num_replicas"), replicas}};
    if (maxMsgsPerSubject != -1)
        c.insert(key("max_msgs_per_subject"), maxMsgsPerSubject);
    if (discard != QLatin1String("old"))
        c.insert(key("discard"), discard);
    if (discardNewPerSubject)
        c.insert(key("discard_new_per_subject"), true);
    return c;
}

QJsonObject MqttStreamSpec::expectedConfig() const
{
    QJsonObject c{{key("name"), name},
                  {key("subjects"), QJsonArray::fromStringList(subjects)},
                  {key("retention"), retention},
                  {key("max_consumers"), -1},
                  {key("max_msgs"), -1},
                  {key("max_bytes"), -1},
                  {key("max_age"), 0},
                  {key("max_msgs_per_subject"), maxMsgsPerSubject},
                  {key("max_msg_size"), -1},
                  {key("discard"), discard},
                  {key("storage"), storage},
                  {key("num_replicas"), replicas},
                  {key("duplicate_window"), qint64(120000000000)},
                  {key("allow_direct"), false},
                  {key("mirror_direct"), false},
                  {key("sealed"), false},
                  {key("deny_delete"), false},
                  {key("deny_purge"), false},
                  {key("allow_rollup_hdrs"), false}};
    // Servers report this field only when it is set (2.10+).
    if (discardNewPerSubject)
        c.insert(key("discard_new_per_subject"), true);
    return c;
}

QStringList MqttStreamSpec::comparedFields()
{
    return {
        key("subjects"),    key("retention"), key("storage"), key("discard"), key("max_msgs_per_subject"), key("discard_new_per_subject"),
        key("num_replicas")};
}

QStringList MqttStreamSpec::subjectsOf(const QJsonObject &config)
{
    QStringList out;
    for (const QJsonValue &v : config.value(QLatin1String("subjects")).toArray())
        out.append(v.toString());
    return out;
}

bool MqttStreamSpec::sameSubjects(const QStringList &a, const QStringList &b)
{
    QStringList sa = a;
    QStringList sb = b;
    sa.sort();
    sb.sort();
    sa.removeDuplicates();
    sb.removeDuplicates();
    return sa == sb;
}

QJsonValue MqttStreamSpec::normalizedField(const QJsonObject &config, const QString &field)
{
    const QJsonValue v = config.value(field);
    if (field == QLatin1String("subjects"))
        return QJsonArray::fromStringList(subjectsOf(config));
    if (field == QLatin1String("retention"))
        return v.isString() ? v : QJsonValue(key("limits"));
    if (field == QLatin1String("storage"))
        return v.isString() ? v : QJsonValue(key("file"));
    if (field == QLatin1String("discard"))
        return v.isString() ? v : QJsonValue(key("old"));
    if (field == QLatin1String("max_msgs_per_subject")) {
        const qint64 n = v.toInteger(-1);
        return n == 0 ? qint64(-1) : n;
    }
    if (field == QLatin1String("discard_new_per_subject"))
        return v.toBool(false);
    if (field == QLatin1String("num_replicas")) {
        const qint64 n = v.toInteger(1);
        return n <= 0 ? qint64(1) : n;
    }
    return v;
}

QJsonObject MqttStreamSpec::comparedValues() const
{
    QStringList sorted = subjects;
    sorted.sort();
    return QJsonObject{{key("subjects"), QJsonArray::fromStringList(sorted)},
                       {key("retention"), retention},
                       {key("storage"), storage},
                       {key("discard"), discard},
                       {key("max_msgs_per_subject"), maxMsgsPerSubject},
                       {key("discard_new_per_subject"), discardNewPerSubject},
                       {key("num_replicas"), replicas}};
}

QList<MqttStreamSpec::Difference> MqttStreamSpec::differences(const QJsonObject &actualConfig) const
{
    // Field by field, without building the expected object: every account of a fleet is compared.
    QList<Difference> out;
    const QStringList actualSubjects = subjectsOf(actualConfig);
    if (!sameSubjects(subjects, actualSubjects))
        out.append({key("subjects"), QJsonArray::fromStringList(subjects), QJsonArray::fromStringList(actualSubjects)});
    const auto compareText = [&](const char *field, const QString &want) {
        const QString fieldName = key(field);
        const QJsonValue have = normalizedField(actualConfig, fieldName);
        if (have.toString() != want)
            out.append({fieldName, want, have});
    };
    const auto compareNumber = [&](const char *field, qint64 want) {
        const QString fieldName = key(field);
        const QJsonValue have = normalizedField(actualConfig, fieldName);
        if (have.toInteger() != want || !have.isDouble())
            out.append({fieldName, want, have});
    };
    compareText("retention", retention);
    compareText("storage", storage);
    compareText("discard", discard);
    compareNumber("max_msgs_per_subject", maxMsgsPerSubject);
    const QJsonValue newPerSubject = normalizedField(actualConfig, key("discard_new_per_subject"));
    if (newPerSubject.toBool() != discardNewPerSubject)
        out.append({key("discard_new_per_subject"), discardNewPerSubject, newPerSubject});
    compareNumber("num_replicas", replicas);
    return out;
}

} // namespace MqttDoctor
