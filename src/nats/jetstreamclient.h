#pragma once

#include <memory>

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include "common/result.h"

namespace MqttDoctor {

class NatsConnection;

/**
 * The JetStream API of one account, spoken as raw JSON over `$JS.API.*` (or `$JS.<domain>.API.*`)
 * so that fields this tool does not know survive a read-modify-write (docs/safety.md). Every call
 * blocks: use it on a worker thread. A JetStream error reply becomes an Error of kind JetStream
 * carrying the server's err_code and description.
 */
class JetStreamClient final
{
public:
    JetStreamClient(std::shared_ptr<NatsConnection> connection, QString domain = {});

    /** "$JS.API.<op>" or "$JS.<domain>.API.<op>": the one place that spells a JetStream API subject. */
    static QString apiSubject(const QString &domain, const QString &op);
    /** apiSubject() in this client's domain. */
    QString apiSubject(const QString &op) const { return apiSubject(m_domain, op); }
    /** One API request; the reply object on success. */
    Result<QJsonObject> call(const QString &op, const QJsonObject &body = {});

    /** `$JS.API.INFO`: usage and limits of the account. */
    Result<QJsonObject> accountInfo();
    /** Names of all streams, optionally only those capturing `subjectFilter`. Pages as needed. */
    Result<QStringList> streamNames(const QString &subjectFilter = {});
    /**
     * `STREAM.INFO`: {config, state, cluster, created, ...}, checked (checkStreamInfo). `request` asks for more
     * (`deleted_details`, `subjects_filter` with `offset`).
     */
    Result<QJsonObject> streamInfo(const QString &name, const QJsonObject &request = {});
    /** `STREAM.LIST`: every stream's info object. Pages as needed. */
    Result<QList<QJsonObject>> streamList(const QString &subjectFilter = {});
    /** `CONSUMER.LIST`: every consumer's info object on a stream. Pages as needed. */
    Result<QList<QJsonObject>> consumerList(const QString &stream);
    /**
     * Like consumerList, for reading and diagnosis: a consumer a cluster listed as `missing` whose CONSUMER.INFO
     * also fails (its servers down or electing) is included as `{"name", "config": {}, "unavailable": reason}`
     * instead of failing the whole list: it exists, its state is not known. Backups and restores use consumerList.
     */
    Result<QList<QJsonObject>> consumerListAllowUnavailable(const QString &stream);

    /**
     * Parses the body of one `$JS.API.<op>` reply sent on `subject`: the reply object, an Error from its "error"
     * object (errorFromReply), or a Protocol error naming `op` for anything else (empty, not JSON, not an object,
     * an "error" that is not an object). Pure and total (fuzzed): any thread, any bytes.
     */
    static Result<QJsonObject> parseReply(const QByteArray &body, const QString &op, const QString &subject);
    /** Turns a JetStream error object ({code, err_code, description}) into an Error. */
    static Error errorFromReply(const QJsonObject &error, const QString &op);
    /** A Protocol error for a reply of the wrong shape: "JetStream <op>: malformed reply: <what>". */
    static Error malformed(const QString &op, const QString &what);
    /** Checks the parts of a STREAM.INFO / STREAM.LIST entry the tool relies on (config.name, state counts). */
    static Result<void> checkStreamInfo(const QJsonObject &info, const QString &op, const QString &expectedName = {});
    /** Checks a CONSUMER.INFO / CONSUMER.LIST entry: a name and a config object. */
    static Result<void> checkConsumerInfo(const QJsonObject &info, const QString &op);

private:
    Result<QList<QJsonObject>> listConsumers(const QString &stream, bool allowUnavailable);
    std::shared_ptr<NatsConnection> m_connection;
    QString m_domain;
};

} // namespace MqttDoctor
