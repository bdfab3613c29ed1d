#pragma once

#include <optional>

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "common/result.h"
#include "mqtt/mqttlayout.h"
#include "mqtt/mqttstreamspec.h"
#include "repair/repairaction.h"

namespace MqttDoctor {

/**
 * A change of an MQTT stream's config, as the stream-level repair actions (streamactions.cpp,
 * streamrecreate.cpp) and the retained ones work it out and report it: the expected spec with feasible
 * replicas, which config fields differ and can change in place, the config with the changes written
 * over it, the natscli-style `-old +new` diff (subject order ignored) that plans and the GUI show, the
 * field-by-field precondition of a read-modify-write, and the errors a change reports. Pure; any thread.
 */
namespace StreamConfigEdit {

/** The fields STREAM.UPDATE can change on an MQTT stream (retention and storage cannot). */
QStringList inPlaceFields();

/**
 * The layout's spec of `name` with replicas the cluster can hold: the layout's replicas, never more
 * than the JetStream peers (ctx.layout.peerCount()). nullopt when the layout has no such stream.
 */
std::optional<MqttStreamSpec> feasibleSpec(const PlanContext &ctx, const QString &name);

/** An MQTT stream spec rebuilt from a create config (MqttStreamSpec::createConfig()'s shape). */
MqttStreamSpec specFromConfig(const QJsonObject &config);

/**
 * {field: expected value} for every in-place field of `config` that differs from `spec`. On
 * `$MQTT_rmsgs` the subjects and max_msgs_per_subject of its two known shapes are left out (the
 * retained actions migrate or revert them; lowering max_msgs_per_subject there would purge
 * retained messages), as the stream checks do.
 */
QJsonObject inPlaceChanges(const MqttStreamSpec &spec, const QJsonObject &config, MqttLayout::Kind kind);

/** The normalised current values of `fields` (MqttStreamSpec::normalizedField; subjects sorted). */
QJsonObject currentValues(const QJsonObject &config, const QStringList &fields);

/** True when two values of `field` are the same (subjects: as sets; numbers normalised). */
bool sameValue(const QString &field, const QJsonValue &a, const QJsonValue &b);

/** `config` with `changes` written over it (raw JSON: every other field kept; docs/safety.md). */
QJsonObject withChanges(QJsonObject config, const QJsonObject &changes);
/** `config` with `placement.cluster` set to `cluster` (unchanged when it is empty or a placement is set already). */
QJsonObject placedIn(QJsonObject config, const QString &cluster);

/** One value for people: subjects as "[a, b]" (sorted), strings bare, numbers as integers. */
QString renderValue(const QJsonValue &value);
/** "field value, ..." */
QString renderFields(const QJsonObject &values);
/** "field old → new, ..." */
QString renderChanges(const QJsonObject &oldValues, const QJsonObject &newValues);
/** natscli-style "-field: old" / "+field: new" lines, fields in a stable order; subject order ignored. */
QString renderDiff(const QJsonObject &oldValues, const QJsonObject &newValues);
/** "+field: value" lines of a config that is created. */
QString renderCreateDiff(const QJsonObject &config);
/** "subjects $MQTT.sess.>, limits, file, max_msgs_per_subject 1, R1" */
QString describeSpec(const MqttStreamSpec &spec);

/** True when lowering max_msgs_per_subject from `oldValue` to `newValue` may purge messages. */
bool lowersPerSubjectLimit(const QJsonValue &oldValue, const QJsonValue &newValue);

/**
 * The read-modify-write precondition: every field of `newValues` is either still at its value in
 * `oldValues` (→ Run) or already at its new value; all new → AlreadyDone; anything else → Changed.
 */
Precondition fieldsPrecondition(const QString &stream, const QJsonObject &config, const QJsonObject &oldValues,
                                const QJsonObject &newValues);

/** A JetStream error or a missing reply as an Error prefixed with what was being done. */
Error failed(const QString &what, const Error &error);
/** A Changed/Internal error for apply() when the state moved on between precondition and apply. */
Error stateChanged(const QString &what);

/** "Name already in use" on STREAM.CREATE (10058), to be re-read rather than fatal (docs/safety.md). */
bool isAlreadyInUse(const Error &error);

} // namespace StreamConfigEdit
} // namespace MqttDoctor
