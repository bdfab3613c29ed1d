#include "repairplan.h"

namespace MqttDoctor {

namespace {
QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}
} // namespace

QJsonObject RepairRequest::toJson() const
{
    return QJsonObject{{QStringLiteral("subject"), subject}, {QStringLiteral("body"), body}};
}

QJsonObject RepairBackupSpec::toJson() const
{
    QJsonObject o{
        {QStringLiteral("stream"), stream}, {QStringLiteral("subject"), orNull(subject)}, {QStringLiteral("messages"), includeMessages}};
    o.insert(QStringLiteral("consumers"),
             allConsumers ? QJsonValue(QStringLiteral("all")) : QJsonValue(QJsonArray::fromStringList(consumers)));
    return o;
}

QJsonObject RepairStep::toJson() const
{
    QJsonArray reqs;
    for (const RepairRequest &r : requests)
        reqs.append(r.toJson());
    QJsonArray bks;
    for (const RepairBackupSpec &b : backups)
        bks.append(b.toJson());
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("action"), action},
                       {QStringLiteral("finding"), findingCode},
                       {QStringLiteral("account"), account},
                       {QStringLiteral("stream"), orNull(stream)},
                       {QStringLiteral("subject"), orNull(subject)},
                       {QStringLiteral("consumer"), orNull(consumer)},
                       {QStringLiteral("client_id"), orNull(clientId)},
                       {QStringLiteral("description"), description},
                       {QStringLiteral("requests"), reqs},
                       {QStringLiteral("diff"), orNull(diff)},
                       {QStringLiteral("destructive"), destructive},
                       {QStringLiteral("backups"), bks},
                       {QStringLiteral("precondition"), precondition},
                       {QStringLiteral("undo"), undo},
                       {QStringLiteral("verification"), verification},
                       {QStringLiteral("depends_on"), QJsonArray::fromStringList(dependsOn)}};
}

QJsonObject RepairStep::toJournalJson() const
{
    QJsonObject o = toJson();
    o.insert(QStringLiteral("params"), params);
    return o;
}

RepairStep RepairStep::fromJson(const QJsonObject &json)
{
    const auto str = [&json](const char *k) { return json.value(QLatin1String(k)).toString(); };
    RepairStep s;
    s.id = str("id");
    s.action = str("action");
    s.findingCode = str("finding");
    s.account = str("account");
    s.stream = str("stream");
    s.subject = str("subject");
    s.consumer = str("consumer");
    s.clientId = str("client_id");
    s.description = str("description");
    for (const QJsonValue &v : json.value(QLatin1String("requests")).toArray())
        s.requests.append({v.toObject().value(QLatin1String("subject")).toString(), v.toObject().value(QLatin1String("body")).toObject()});
    s.diff = str("diff");
    s.destructive = json.value(QLatin1String("destructive")).toBool();
    for (const QJsonValue &v : json.value(QLatin1String("backups")).toArray()) {
        const QJsonObject b = v.toObject();
        RepairBackupSpec spec;
        spec.stream = b.value(QLatin1String("stream")).toString();
        spec.subject = b.value(QLatin1String("subject")).toString();
        spec.includeMessages = b.value(QLatin1String("messages")).toBool(true);
        const QJsonValue consumers = b.value(QLatin1String("consumers"));
        spec.allConsumers = consumers.isString();
        for (const QJsonValue &c : consumers.toArray())
            spec.consumers << c.toString();
        s.backups.append(spec);
    }
    s.precondition = str("precondition");
    s.undo = str("undo");
    s.verification = str("verification");
    for (const QJsonValue &v : json.value(QLatin1String("depends_on")).toArray())
        s.dependsOn << v.toString();
    s.params = json.value(QLatin1String("params")).toObject();
    return s;
}

bool RepairPlan::hasDestructiveSteps() const
{
    for (const RepairStep &s : steps)
        if (s.destructive)
            return true;
    return false;
}

QJsonObject RepairPlan::toJson() const
{
    QJsonArray st;
    for (const RepairStep &s : steps)
        st.append(s.toJson());
    QJsonArray un;
    for (const Finding &f : unrepairable)
        un.append(f.toJson());
    return QJsonObject{{QStringLiteral("account"), account},
                       {QStringLiteral("steps"), st},
                       {QStringLiteral("unrepairable"), un},
                       {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

QString StepOutcome::stateName(State s)
{
    switch (s) {
    case State::Applied: return QStringLiteral("applied");
    case State::AlreadyDone: return QStringLiteral("already_done");
    case State::Failed: return QStringLiteral("failed");
    case State::Skipped: return QStringLiteral("skipped");
    case State::NotRun: return QStringLiteral("not_run");
    }
    return QStringLiteral("not_run");
}

QJsonObject StepOutcome::toJson() const
{
    return QJsonObject{{QStringLiteral("step"), stepId},
                       {QStringLiteral("state"), stateName(state)},
                       {QStringLiteral("message"), orNull(message)},
                       {QStringLiteral("backups"), QJsonArray::fromStringList(backupFiles)},
                       {QStringLiteral("responses"), responses}};
}

} // namespace MqttDoctor
