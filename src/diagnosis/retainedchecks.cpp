#include "diagnosis/retainedchecks.h"

#include <QJsonArray>

#include "diagnosis/checkcontext.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/mqttlogformats.h"
#include "mqtt/serverversion.h"

namespace MqttDoctor {

RetainedChecks::RetainedChecks(const CheckContext &context) : m_ctx(context) {}

namespace F = MqttLogFormats;
using Sev = Finding::Severity;

void RetainedChecks::retained(QList<Finding> &out) const
{
    const StreamInfo *rm = m_ctx.stream(MqttLayout::retainedStream());
    if (!rm)
        return;
    const QStringList subjects = MqttStreamSpec::subjectsOf(rm->config);
    const qint64 perSubject = MqttStreamSpec::normalizedField(rm->config, QStringLiteral("max_msgs_per_subject")).toInteger(-1);
    const qint64 messages = CheckContext::messagesOf(*rm);
    const bool legacyShape = MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedLegacySubject()});
    const bool modernShape = MqttStreamSpec::sameSubjects(subjects, {MqttLayout::retainedSubjects()});
    const MqttLayout::Kind kind = m_ctx.layout().kind();
    const MqttStreamSpec modern = MqttLayout::retainedSpec(MqttLayout::Kind::V2_10, m_ctx.layout().replicas());
    const QJsonObject actualShape{{QStringLiteral("subjects"), QJsonArray::fromStringList(subjects)},
                                  {QStringLiteral("max_msgs_per_subject"), perSubject},
                                  {QStringLiteral("messages"), messages}};

    const bool upgradeView = kind == MqttLayout::Kind::V2_10 || (kind == MqttLayout::Kind::V2_9 && m_ctx.input->options.upgradePlanned);
    if (upgradeView && (legacyShape || (modernShape && perSubject != 1))) {
        Finding f = FindingCatalogue::make(FindingCodes::retainedLegacyLayout(), m_ctx.account, rm->name,
                                           {{QStringLiteral("messages"), QString::number(messages)}});
        f.subject = MqttLayout::retainedLegacySubject();
        f.expected = QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(modern.subjects)},
                                 {QStringLiteral("max_msgs_per_subject"), 1}};
        f.actual = actualShape;
        bool earlyTransfer = false;
        for (const QString &v : m_ctx.choice.versions) {
            const auto parsed = ServerVersion::parse(v);
            earlyTransfer =
                earlyTransfer || (parsed && parsed->majorVersion() == 2 && parsed->minorVersion() == 10 && parsed->patchVersion() <= 5);
        }
        const QString when = kind == MqttLayout::Kind::V2_10
            ? QStringLiteral("The next time a 2.10+ server sets up MQTT for account \"%1\" (its first MQTT connect after a start), it")
                  .arg(m_ctx.account)
            : QStringLiteral("After the planned upgrade, the first 2.10+ server that sets up MQTT for account \"%1\"").arg(m_ctx.account);
        f.detail = (legacyShape ? QString()
                                : QStringLiteral("The subjects were already changed but max_msgs_per_subject was not: a "
                                                 "migration started and did not finish. "))
            + when
            + QStringLiteral(" changes the subjects to $MQTT.rmsgs.>, moves each of the %1 message(s) on $MQTT.rmsgs to "
                             "$MQTT.rmsgs.<subject> (three JetStream round trips each, 10 s deadline; messages that fail are "
                             "deleted anyway), then sets max_msgs_per_subject to 1: every message not moved by then is purged "
                             "except the newest, which stays orphaned on $MQTT.rmsgs.")
                  .arg(messages);
        if (messages > m_ctx.input->options.retainedMigrationWarnAt) {
            f.severity = Sev::Warning;
            f.detail += QStringLiteral(" With %1 messages the deadline is likely to be hit: migrate them beforehand.").arg(messages);
        }
        if (earlyTransfer && messages > 0) {
            f.severity = Sev::Warning;
            f.detail += QStringLiteral(" 2.10.0-2.10.5 servers retry a message they cannot parse or store forever, inside the MQTT "
                                       "connect: one corrupt record blocks MQTT for the account.");
        }
        out.append(f);
    }

    if (kind == MqttLayout::Kind::V2_10 && modernShape && perSubject == 1) {
        const QJsonObject counts = rm->state.value(QLatin1String("subjects")).toObject();
        const qint64 orphans = counts.value(MqttLayout::retainedLegacySubject()).toInteger(0);
        if (orphans > 0) {
            Finding f = FindingCatalogue::make(FindingCodes::retainedOrphaned(), m_ctx.account, rm->name,
                                               {{QStringLiteral("count"), QString::number(orphans)}});
            f.subject = MqttLayout::retainedLegacySubject();
            f.expected = QJsonObject{{MqttLayout::retainedLegacySubject(), 0}};
            f.actual = QJsonObject{{MqttLayout::retainedLegacySubject(), orphans},
                                   {QStringLiteral("evidence"), QStringLiteral("state.subjects of %1").arg(rm->name)}};
            f.detail = QStringLiteral("The stream state counts %1 message(s) on the literal subject $MQTT.rmsgs, left over from a "
                                      "2.9 → 2.10+ migration that hit its deadline. The stream now only serves $MQTT.rmsgs.>, and "
                                      "max_msgs_per_subject is already 1, so no server will ever migrate or deliver them: those "
                                      "retained messages are lost until republished to $MQTT.rmsgs.<subject>.")
                           .arg(orphans);
            out.append(f);
        }
    }

    if ((kind == MqttLayout::Kind::V2_9 || kind == MqttLayout::Kind::Mixed) && modernShape) {
        Finding f = FindingCatalogue::make(FindingCodes::retainedDowngrade(), m_ctx.account, rm->name,
                                           {{QStringLiteral("servers"), m_ctx.choice.legacyServers.join(QStringLiteral(", "))}});
        const MqttStreamSpec old = MqttLayout::retainedSpec(MqttLayout::Kind::V2_9, m_ctx.layout().replicas());
        f.expected = QJsonObject{{QStringLiteral("subjects"), QJsonArray::fromStringList(old.subjects)},
                                 {QStringLiteral("max_msgs_per_subject"), old.maxMsgsPerSubject}};
        f.actual = actualShape;
        f.explains = QStringList{CheckContext::withCause(F::createRetainedConsumer(), F::errFilterNotSubset())};
        f.detail = QStringLiteral("$MQTT_rmsgs was migrated to the 2.10+ layout (subjects $MQTT.rmsgs.>), but %1 serve%2 MQTT with "
                                  "the 2.9 layout. A 2.9 server builds its retained consumer on $MQTT.rmsgs, which the stream no "
                                  "longer contains (10093): every MQTT connect to account \"%3\" through %4 fails without a CONNACK.")
                       .arg(m_ctx.choice.legacyServers.isEmpty() ? QStringLiteral("2.9 servers")
                                                                 : m_ctx.choice.legacyServers.join(QStringLiteral(", ")),
                            m_ctx.choice.legacyServers.size() == 1 ? QStringLiteral("s") : QString(), m_ctx.account,
                            m_ctx.choice.legacyServers.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
        if (kind == MqttLayout::Kind::Mixed)
            f.detail += QStringLiteral(" The 2.10+ servers (%1) migrated it; finishing the upgrade fixes it.")
                            .arg(m_ctx.choice.currentServers.join(QStringLiteral(", ")));
        out.append(f);
    }

    // An interrupted revert_retained: the 2.9 shape is back, but messages are still stored on
    // $MQTT.rmsgs.<subject>, outside the stream's subjects, where no 2.9 server reads them. Known only
    // when the count on $MQTT.rmsgs was read (the account's own API).
    const QJsonValue legacyCount = rm->state.value(QLatin1String("subjects")).toObject().value(MqttLayout::retainedLegacySubject());
    if (kind == MqttLayout::Kind::V2_9 && legacyShape && rm->state.value(QLatin1String("subjects")).isObject()
        && messages > legacyCount.toInteger(0)) {
        const qint64 outside = messages - legacyCount.toInteger(0);
        Finding f = FindingCatalogue::make(FindingCodes::retainedDowngrade(), m_ctx.account, rm->name,
                                           {{QStringLiteral("servers"), m_ctx.choice.legacyServers.join(QStringLiteral(", "))}});
        f.severity = Sev::Error;
        f.title = QStringLiteral("$MQTT_rmsgs holds %1 message(s) outside its subjects (an interrupted revert)").arg(outside);
        f.expected = QJsonObject{{QStringLiteral("messages_outside_subjects"), 0}};
        f.actual = QJsonObject{
            {QStringLiteral("subjects"), QJsonArray::fromStringList(subjects)},
            {QStringLiteral("messages"), messages},
            {QStringLiteral("messages_outside_subjects"), outside},
            {QStringLiteral("evidence"), QStringLiteral("state.messages minus state.subjects[$MQTT.rmsgs] of %1").arg(rm->name)}};
        f.explains = {};
        f.detail = QStringLiteral("$MQTT_rmsgs is back in the 2.9 layout (subjects $MQTT.rmsgs), but %1 message(s) are stored on other "
                                  "subjects, most likely $MQTT.rmsgs.<subject> records of a revert that stopped after changing the "
                                  "subjects. No 2.9 server reads them: those retained messages are missing until the revert is "
                                  "finished.")
                       .arg(outside);
        out.append(f);
    }
}

void RetainedChecks::legacySessions(QList<Finding> &out) const
{
    const bool sessPresent = m_ctx.stream(MqttLayout::sessionsStream()) != nullptr;
    for (const StreamInfo &s : m_ctx.input->account.streams) {
        if (!MqttLayout::isLegacySessionStream(s.name))
            continue;
        const qint64 messages = CheckContext::messagesOf(s);
        Finding f = FindingCatalogue::make(FindingCodes::legacySessionStreams(), m_ctx.account, s.name,
                                           {{QStringLiteral("messages"), QString::number(messages)}});
        f.expected = QJsonObject{{QStringLiteral("stream"), MqttLayout::sessionsStream()},
                                 {QStringLiteral("subject"), m_ctx.layout().sessionSubject(QStringLiteral("<hash>"))}};
        f.actual = QJsonObject{{QStringLiteral("stream"), s.name},
                               {QStringLiteral("subjects"), QJsonArray::fromStringList(MqttStreamSpec::subjectsOf(s.config))},
                               {QStringLiteral("messages"), messages}};
        if (messages == 0) {
            f.severity = Sev::Warning;
            f.explains = QStringList{CheckContext::withCause(F::transferSessionLoad(), F::errNoMessageFound()), F::transferSessionsRetry()};
            f.detail = QStringLiteral("%1 is an empty legacy per-session stream. When a server creates $MQTT_sess it moves legacy "
                                      "streams into it; an empty one makes that fail and retry every 5 s, forever (the streams "
                                      "after it are never moved).%2")
                           .arg(s.name,
                                sessPresent ? QStringLiteral(" $MQTT_sess exists, so this only happens if it is ever recreated.")
                                            : QStringLiteral(" $MQTT_sess does not exist: the next MQTT connect starts the loop."));
        } else if (sessPresent) {
            f.severity = Sev::Warning;
            f.explains = QStringList{F::transferSessionsStart(), F::transferSessionUnmarshal()};
            f.detail = QStringLiteral("%1 holds a session record of a server up to 2.4. Servers move these into $MQTT_sess only when "
                                      "they create $MQTT_sess, which already exists: this session is never restored.")
                           .arg(s.name);
        } else {
            f.severity = Sev::Info;
            f.explains = QStringList{F::transferSessionsStart(), F::transferSessionUnmarshal(), F::transferSessionStore()};
            f.detail = QStringLiteral("%1 holds a session record of a server up to 2.4. The server that creates $MQTT_sess moves it "
                                      "there and deletes this stream (a record that is not a session is skipped and kept).")
                           .arg(s.name);
        }
        out.append(f);
    }
}

} // namespace MqttDoctor
