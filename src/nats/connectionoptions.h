#pragma once

#include <QCommandLineOption>
#include <QList>
#include <QString>

#include "common/result.h"
#include "nats/profile.h"

class QCommandLineParser;

namespace MqttDoctor {

/**
 * The connection options shared by the CLI and the GUI's command line, named as natscli names them
 * (docs/cli.md): -s/--server, --user, --password, --token, --creds, --nkey, --tlscert, --tlskey,
 * --tlsca, --context, --js-domain, --timeout, the system connection's --system-user,
 * --system-password, --system-creds, --system-context, and --profile FILE.
 * Precedence: the profile file, then --context, then the explicit options.
 */
struct ConnectionOptions
{
    QString profileFile;
    QString context;
    QString server;
    QString user;
    QString password;
    QString token;
    QString creds;
    QString nkey;
    QString tlsCert;
    QString tlsKey;
    QString tlsCa;
    QString jsDomain;
    QString timeout;
    QString systemUser;
    QString systemPassword;
    QString systemCreds;
    QString systemContext;
    QString mqttListener;
    QString mqttUser;
    QString mqttPassword;
    bool allowChanges = false;

    /** The options with their help texts, in the order of addTo(). */
    static QList<QCommandLineOption> options();
    /** Adds the options to a parser (help texts included). */
    static void addTo(QCommandLineParser &parser);
    /** Reads them back after parsing. */
    static ConnectionOptions fromParser(const QCommandLineParser &parser);
    /** True when nothing at all was given (no server, no profile, no context). */
    bool isEmpty() const;
    /** Builds the profile; errors name the offending option. Reads files (profile, contexts). */
    Result<Profile> toProfile() const;
};

/**
 * Parses --timeout: a natscli-style duration ("5s", "500ms", "1m30s", "2h", or plain seconds "5") into ms,
 * within timeoutInRange() (1ms to 24h). Its errors are usage errors naming --timeout.
 */
Result<int> parseDurationMs(const QString &text);

} // namespace MqttDoctor
