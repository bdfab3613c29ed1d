#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "repair/repairplan.h"

namespace MqttDoctor {

class JsonStreamWriter;

/** What an operator action selected: the objects it acts on and those it leaves alone, each with why. */
struct ActionSelection
{
    struct Item
    {
        QString clientId; ///< sessions, clients, backlogs
        QString topic; ///< retained messages
        QString subject; ///< the record's subject (`$MQTT.sess.<hash>`, `$MQTT.rmsgs.<...>`), when there is one
        QString why; ///< left alone: why ("connected to n2", "no session record", ...); acted on: empty or a remark
    };
    QList<Item> selected; ///< what the plan acts on
    QList<Item> left; ///< asked for (by ID, topic or policy) but left alone, with why

    /** {selected: [{client_id?, topic?, subject?}], left: [{..., why}]} (a JSON with 100,000 entries stays one array). */
    QJsonObject toJson() const;
    /** The same, written item by item (a selection of 100,000 sessions is never one JSON tree). */
    void writeJson(JsonStreamWriter &w, const QString &key) const;
};

/** How much an operator plan touches: what a dry run says before anything changes. */
struct ActionCounts
{
    qint64 sessions = 0; ///< session records deleted (or whose backlog is dropped)
    qint64 durables = 0; ///< durables deleted (or recreated)
    qint64 qos2Records = 0; ///< `$MQTT_qos2in` / `$MQTT_out` records deleted
    qint64 queuedMessages = 0; ///< queued messages the deleted or recreated durables held (pending + unacknowledged)
    qint64 retained = 0; ///< retained messages cleared
    qint64 connections = 0; ///< connections closed

    QJsonObject toJson() const;
    /** "2 session records, 4 durables, 1 QoS 2 record, 50,000 queued messages" (only the non-zero ones; "nothing" when all are). */
    QString text() const;
};

/** After a disconnect: whether the client came back, where, and when. */
struct ClientReturn
{
    QString clientId;
    bool returned = false;
    QString server; ///< the server it is connected to now
    QString address; ///< ip:port of the new connection
    qint64 afterMs = 0; ///< how long after the disconnect it was seen again (the wait when it was not)

    QJsonObject toJson() const;
};

/** An operator action's plan: the repair engine's plan plus what was selected and how much it touches. */
struct OperatorPlan
{
    QString action; ///< OperatorRequest::verbName
    RepairPlan plan;
    ActionSelection selection;
    ActionCounts counts;
    /** How the change reaches MQTT clients, in words (e.g. "through the MQTT listener 127.0.0.1:1883 as probe"). */
    QString path;
    QStringList notes; ///< what the operator should know (versions that cannot, a cache that lingers, ...)

    bool isEmpty() const { return plan.steps.isEmpty(); }
};

} // namespace MqttDoctor
