#include "repair/actions/streamconfigedit.h"

#include "nats/jserrors.h"

namespace MqttDoctor::StreamConfigEdit {

namespace {

QString subjectsKey()
{
    return QStringLiteral("subjects");
}

QStringList sortedSubjects(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out.append(s.toString());
    out.sort();
    out.removeDuplicates();
    return out;
}

/** Fields in the order they are shown: in-place ones first, then the rest alphabetically. */
QStringList orderedFields(const QJsonObject &a, const QJsonObject &b)
{
    QStringList out;
    const QStringList known = QStringList{QStringLiteral("retention"), QStringLiteral("storage")} + inPlaceFields();
    for (const QString &f : known)
        if (a.contains(f) || b.contains(f))
            out.append(f);
    QStringList rest;
    for (const QString &k : a.keys() + b.keys())
        if (!out.contains(k) && !rest.contains(k))
            rest.append(k);
    rest.sort();
    return out + rest;
}

} // namespace

QStringList inPlaceFields()
{
    return {subjectsKey(), QStringLiteral("discard"), QStringLiteral("max_msgs_per_subject"), QStringLiteral("discard_new_per_subject"),
            QStringLiteral("num_replicas")};
}

std::optional<MqttStreamSpec> feasibleSpec(const PlanContext &ctx, const QString &name)
{
    std::optional<MqttStreamSpec> spec = ctx.layout.layout.stream(name);
    if (spec)
        spec->replicas = qBound(1, spec->replicas, ctx.layout.peerCount());
    return spec;
}

MqttStreamSpec specFromConfig(const QJsonObject &config)
{
    MqttStreamSpec s;
    s.name = config.value(QLatin1String("name")).toString();
    s.subjects = MqttStreamSpec::subjectsOf(config);
    s.retention = MqttStreamSpec::normalizedField(config, QStringLiteral("retention")).toString();
    s.storage = MqttStreamSpec::normalizedField(config, QStringLiteral("storage")).toString();
    s.discard = MqttStreamSpec::normalizedField(config, QStringLiteral("discard")).toString();
    s.maxMsgsPerSubject = MqttStreamSpec::normalizedField(config, QStringLiteral("max_msgs_per_subject")).toInteger();
    s.discardNewPerSubject = MqttStreamSpec::normalizedField(config, QStringLiteral("discard_new_per_subject")).toBool();
    s.replicas = int(MqttStreamSpec::normalizedField(config, QStringLiteral("num_replicas")).toInteger());
    return s;
}

QJsonObject inPlaceChanges(const MqttStreamSpec &spec, const QJsonObject &config, MqttLayout::Kind kind)
{
    QList<MqttStreamSpec::Difference> diffs = spec.differences(config);
    if (spec.name == MqttLayout::retainedStream()) {
        const QStringList actual = MqttStreamSpec::subjectsOf(config);
        const bool legacyShape = MqttStreamSpec::sameSubjects(actual, {MqttLayout::retainedLegacySubject()});
        const bool modernShape = MqttStreamSpec::sameSubjects(actual, {MqttLayout::retainedSubjects()});
        const bool modernLayout = kind == MqttLayout::Kind::V2_10;
        if ((modernLayout && (legacyShape || modernShape)) || (!modernLayout && modernShape))
            diffs.removeIf([](const MqttStreamSpec::Difference &d) {
                return d.field == QLatin1String("subjects") || d.field == QLatin1String("max_msgs_per_subject");
            });
    }
    QJsonObject out;
    const QStringList fields = inPlaceFields();
    for (const MqttStreamSpec::Difference &d : std::as_const(diffs))
        if (fields.contains(d.field))
            out.insert(d.field, d.field == subjectsKey() ? QJsonValue(QJsonArray::fromStringList(spec.subjects)) : d.expected);
    return out;
}

QJsonObject currentValues(const QJsonObject &config, const QStringList &fields)
{
    QJsonObject out;
    for (const QString &f : fields) {
        QJsonValue v = MqttStreamSpec::normalizedField(config, f);
        if (f == subjectsKey())
            v = QJsonArray::fromStringList(sortedSubjects(v));
        out.insert(f, v);
    }
    return out;
}

bool sameValue(const QString &field, const QJsonValue &a, const QJsonValue &b)
{
    if (field == subjectsKey())
        return sortedSubjects(a) == sortedSubjects(b);
    const QJsonObject ca{{field, a}};
    const QJsonObject cb{{field, b}};
    const QJsonValue na = MqttStreamSpec::normalizedField(ca, field);
    const QJsonValue nb = MqttStreamSpec::normalizedField(cb, field);
    if (na.isDouble() && nb.isDouble())
        return na.toInteger() == nb.toInteger();
    return na == nb;
}

QJsonObject placedIn(QJsonObject config, const QString &cluster)
{
    if (cluster.isEmpty() || config.contains(QLatin1String("placement")))
        return config;
    config.insert(QStringLiteral("placement"), QJsonObject{{QStringLiteral("cluster"), cluster}});
    return config;
}

QJsonObject withChanges(QJsonObject config, const QJsonObject &changes)
{
    for (auto it = changes.constBegin(); it != changes.constEnd(); ++it)
        config.insert(it.key(), it.value());
    return config;
}

QString renderValue(const QJsonValue &value)
{
    if (value.isArray()) {
        QStringList items;
        for (const QJsonValue &v : value.toArray())
            items.append(renderValue(v));
        items.sort();
        return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
    }
    if (value.isString())
        return value.toString();
    if (value.isBool())
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.isDouble())
        return QString::number(value.toInteger());
    if (value.isUndefined() || value.isNull())
        return QStringLiteral("(unset)");
    return QStringLiteral("{...}");
}

QString renderFields(const QJsonObject &values)
{
    QStringList parts;
    for (const QString &f : orderedFields(values, {}))
        parts.append(QStringLiteral("%1 %2").arg(f, renderValue(values.value(f))));
    return parts.join(QStringLiteral(", "));
}

QString renderChanges(const QJsonObject &oldValues, const QJsonObject &newValues)
{
    QStringList parts;
    for (const QString &f : orderedFields(oldValues, newValues))
        if (newValues.contains(f))
            parts.append(QStringLiteral("%1 %2 → %3").arg(f, renderValue(oldValues.value(f)), renderValue(newValues.value(f))));
    return parts.join(QStringLiteral(", "));
}

QString renderDiff(const QJsonObject &oldValues, const QJsonObject &newValues)
{
    QStringList lines;
    for (const QString &f : orderedFields(oldValues, newValues)) {
        const bool hasOld = oldValues.contains(f);
        const bool hasNew = newValues.contains(f);
        if (hasOld && hasNew && sameValue(f, oldValues.value(f), newValues.value(f)))
            continue;
        if (hasOld)
            lines.append(QStringLiteral("-%1: %2").arg(f, renderValue(oldValues.value(f))));
        if (hasNew)
            lines.append(QStringLiteral("+%1: %2").arg(f, renderValue(newValues.value(f))));
    }
    return lines.join(QLatin1Char('\n'));
}

QString renderCreateDiff(const QJsonObject &config)
{
    return renderDiff({}, config);
}

QString describeSpec(const MqttStreamSpec &spec)
{
    QStringList parts{QStringLiteral("subjects %1").arg(spec.subjects.join(QStringLiteral(", "))), spec.retention, spec.storage};
    if (spec.discard != QLatin1String("old"))
        parts.append(QStringLiteral("discard %1").arg(spec.discard));
    if (spec.maxMsgsPerSubject != -1)
        parts.append(QStringLiteral("max_msgs_per_subject %1").arg(spec.maxMsgsPerSubject));
    if (spec.discardNewPerSubject)
        parts.append(QStringLiteral("discard_new_per_subject"));
    parts.append(QStringLiteral("R%1").arg(spec.replicas));
    return parts.join(QStringLiteral(", "));
}

bool lowersPerSubjectLimit(const QJsonValue &oldValue, const QJsonValue &newValue)
{
    const qint64 o = oldValue.toInteger(-1);
    const qint64 n = newValue.toInteger(-1);
    if (n <= 0)
        return false;
    return o <= 0 || o > n;
}

Precondition fieldsPrecondition(const QString &stream, const QJsonObject &config, const QJsonObject &oldValues,
                                const QJsonObject &newValues)
{
    QStringList toDo;
    QStringList moved;
    for (auto it = newValues.constBegin(); it != newValues.constEnd(); ++it) {
        const QJsonValue now = MqttStreamSpec::normalizedField(config, it.key());
        if (sameValue(it.key(), now, it.value()))
            continue;
        if (sameValue(it.key(), now, oldValues.value(it.key())))
            toDo.append(it.key());
        else
            moved.append(QStringLiteral("%1 is %2 (planned: %3 → %4)")
                             .arg(it.key(), renderValue(now), renderValue(oldValues.value(it.key())), renderValue(it.value())));
    }
    if (!moved.isEmpty())
        return Precondition::changed(QStringLiteral("%1 changed since the plan: %2").arg(stream, moved.join(QStringLiteral("; "))));
    if (toDo.isEmpty())
        return Precondition::alreadyDone(QStringLiteral("%1 already has %2").arg(stream, renderFields(newValues)));
    return Precondition::run();
}

Error failed(const QString &what, const Error &error)
{
    Error e = error;
    return e.prefixed(what);
}

Error stateChanged(const QString &what)
{
    return Error(Error::Kind::InvalidInput, what, QStringLiteral("check again and plan the repair anew"));
}

bool isAlreadyInUse(const Error &error)
{
    return error.jsErrCode() == JsErrors::StreamNameInUse || error.message().contains(QLatin1String("already in use"), Qt::CaseInsensitive);
}

} // namespace MqttDoctor::StreamConfigEdit
