#include "openmetricswriter.h"

#include <QDateTime>
#include <QMap>

namespace MqttDoctor::Cli::OpenMetricsWriter {

namespace {

const QList<Finding::Severity> kSeverities{Finding::Severity::Critical, Finding::Severity::Error, Finding::Severity::Warning,
                                           Finding::Severity::Info};

void family(QTextStream &out, const char *name, const char *help)
{
    out << "# TYPE " << name << " gauge\n# HELP " << name << ' ' << help << '\n';
}

QString labels(std::initializer_list<std::pair<const char *, QString>> pairs)
{
    QStringList parts;
    for (const auto &[key, value] : pairs)
        parts << QStringLiteral("%1=\"%2\"").arg(QLatin1String(key), escapeLabel(value));
    return u'{' + parts.join(u',') + u'}';
}

/** Messages in one of the account's streams; nullopt when the account's streams or that stream's state are unknown. */
std::optional<qint64> messagesIn(const AccountInfo &account, const QString &stream)
{
    if (!account.streamsKnown)
        return std::nullopt;
    for (const StreamInfo &s : account.streams)
        if (s.name == stream) {
            const QJsonValue v = s.state.value(QLatin1String("messages"));
            return v.isDouble() ? std::optional<qint64>(qint64(v.toDouble())) : std::nullopt;
        }
    return 0; // no such stream: nothing in it
}

} // namespace

QString escapeLabel(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == u'\\')
            out += QLatin1String("\\\\");
        else if (c == u'"')
            out += QLatin1String("\\\"");
        else if (c == u'\n')
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

void write(QTextStream &out, const DiagnosisInput &input, const QList<Finding> &findings, int exitCode)
{
    QList<const AccountInfo *> accounts;
    for (const AccountInfo &a : input.accounts)
        if (!a.isSystem || input.includeSystemAccount)
            accounts << &a;

    QMap<QString, QMap<Finding::Severity, int>> bySeverity; // account -> severity -> count
    QMap<std::tuple<QString, QString, int>, int> byCode; // (account, code, severity) -> count
    for (const Finding &f : findings) {
        ++bySeverity[f.account][f.severity];
        ++byCode[{f.account, f.code, int(f.severity)}];
    }

    family(out, "mqttdoctor_findings", "Findings of the last check by account and severity (account \"\": the cluster's own).");
    QStringList names;
    for (const AccountInfo *a : accounts)
        names << a->name;
    if (bySeverity.contains(QString()))
        names.prepend(QString());
    for (const QString &account : std::as_const(names))
        for (Finding::Severity s : kSeverities)
            out << "mqttdoctor_findings" << labels({{"account", account}, {"severity", Finding::severityName(s)}}) << ' '
                << bySeverity.value(account).value(s) << '\n';

    family(out, "mqttdoctor_findings_by_code", "Findings of the last check by account, code and severity (codes found only).");
    for (auto it = byCode.cbegin(); it != byCode.cend(); ++it)
        out << "mqttdoctor_findings_by_code"
            << labels({{"account", std::get<0>(it.key())},
                       {"code", std::get<1>(it.key())},
                       {"severity", Finding::severityName(Finding::Severity(std::get<2>(it.key())))}})
            << ' ' << it.value() << '\n';

    family(out, "mqttdoctor_session_records", "Session records in the account's $MQTT_sess (absent when its streams could not be read).");
    for (const AccountInfo *a : accounts)
        if (const auto n = messagesIn(*a, QStringLiteral("$MQTT_sess")); n && a->jetstream)
            out << "mqttdoctor_session_records" << labels({{"account", a->name}}) << ' ' << *n << '\n';
    family(out, "mqttdoctor_retained_messages",
           "Retained messages in the account's $MQTT_rmsgs (absent when its streams could not be read).");
    for (const AccountInfo *a : accounts)
        if (const auto n = messagesIn(*a, QStringLiteral("$MQTT_rmsgs")); n && a->jetstream)
            out << "mqttdoctor_retained_messages" << labels({{"account", a->name}}) << ' ' << *n << '\n';
    family(out, "mqttdoctor_connected_mqtt_clients", "MQTT clients connected to the account (where the system connection told).");
    for (const AccountInfo *a : accounts) {
        const auto it = input.sessions.constFind(a->name);
        if (it != input.sessions.cend() && it->connected)
            out << "mqttdoctor_connected_mqtt_clients" << labels({{"account", a->name}}) << ' ' << it->connected->size() << '\n';
    }

    family(out, "mqttdoctor_checked",
           "1 when the level (streams, records, connections, server_state) of the account was looked at, 0 when not.");
    for (const AccountInfo *a : accounts)
        for (CoverageGap::Level level :
             {CoverageGap::Level::Streams, CoverageGap::Level::Records, CoverageGap::Level::Connections, CoverageGap::Level::ServerState}) {
            bool missed = false;
            for (const CoverageGap &g : input.gaps)
                missed = missed || (g.account == a->name && g.level == level);
            out << "mqttdoctor_checked" << labels({{"account", a->name}, {"level", CoverageGap::levelName(level)}}) << ' '
                << (missed ? 0 : 1) << '\n';
        }

    family(out, "mqttdoctor_check_exit_code", "The exit code of the check (0 ok, 1 warnings, 2 errors, 3 could not check everything).");
    out << "mqttdoctor_check_exit_code " << exitCode << '\n';
    family(out, "mqttdoctor_check_timestamp_seconds", "When the check ran (Unix time).");
    out << "mqttdoctor_check_timestamp_seconds " << QString::number(double(QDateTime::currentMSecsSinceEpoch()) / 1000.0, 'f', 3) << '\n';
    out << "# EOF\n";
}

} // namespace MqttDoctor::Cli::OpenMetricsWriter
