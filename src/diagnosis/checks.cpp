#include "checks.h"

#include <QJsonArray>

#include <algorithm>
#include <vector>

#include "diagnosis/apierrorchecks.h"
#include "diagnosis/blockerchecks.h"
#include "diagnosis/checkcontext.h"
#include "diagnosis/retainedchecks.h"
#include "diagnosis/streamchecks.h"
#include "diagnosis/deliverychecks.h"
#include "diagnosis/findingcatalogue.h"
#include "diagnosis/findingcodes.h"
#include "diagnosis/missingconsumerfindings.h"
#include "diagnosis/metagroupcheck.h"
#include "diagnosis/qos2checks.h"
#include "diagnosis/sessionchecks.h"
#include "diagnosis/takeoverchecks.h"
#include "diagnosis/upgradereadiness.h"
#include "diagnosis/versionadvisories.h"
#include "mqtt/layouts.h"

namespace MqttDoctor::Checks {

using Sev = Finding::Severity;

QList<Finding> checkAccount(const AccountCheckInput &input)
{
    QList<Finding> out;
    const AccountInfo &acc = input.account;
    if (acc.jetstreamKnown && !acc.jetstream) {
        Finding f = FindingCatalogue::make(FindingCodes::jetStreamDisabled(), acc.name);
        f.expected = QJsonObject{{QStringLiteral("jetstream"), true}};
        f.actual = QJsonObject{{QStringLiteral("jetstream"), false}};
        if (input.assumeMqtt) {
            f.detail = QStringLiteral("nats-server keeps all MQTT state in JetStream: every MQTT connect to account \"%1\" fails with "
                                      "\"JetStream not enabled for account (10039)\" and no CONNACK. Enable JetStream for the account "
                                      "(accounts { %1: { jetstream: enabled } } or its JWT limits) and reload.")
                           .arg(acc.name);
        } else {
            f.severity = Sev::Info;
            f.detail = QStringLiteral("Account \"%1\" has no JetStream, so it cannot serve MQTT clients (their connects would fail with "
                                      "10039). Nothing to do unless MQTT clients are meant to use it.")
                           .arg(acc.name);
        }
        return {f};
    }
    if (!acc.streamsKnown)
        return out;

    CheckContext ctx = CheckContext::make(input);
    BlockerChecks blockers(ctx); // first: they record the streams the servers cannot create
    blockers.replicasConfig(out);
    blockers.overlap(out);
    blockers.headroom(out);
    const StreamChecks streams(ctx);
    streams.missing(out);
    streams.subjectsAndConfig(out);
    streams.replicas(out);
    streams.health(out);
    const RetainedChecks retained(ctx);
    retained.retained(out);
    retained.retainedConsumers(out);
    retained.legacySessions(out);

    // Upgrading to 2.10+ migrates the retained messages: say what going back would break.
    if (input.options.targetVersion && input.options.targetVersion->atLeast(2, 10))
        for (Finding &f : out)
            if (f.code == FindingCodes::retainedLegacyLayout())
                f.detail += QStringLiteral(" Once a %1 server has migrated $MQTT_rmsgs, going back to 2.9 breaks every MQTT connect "
                                           "of the account (\"consumer filter subject is not a valid subset of the interest subjects "
                                           "(10093)\", RETAINED_DOWNGRADE) until $MQTT_rmsgs is reverted to the 2.9 shape.")
                                .arg(input.options.targetVersion->toString());

    if (ctx.capAtWarning)
        for (Finding &f : out)
            if (int(f.severity) > int(Sev::Warning)) {
                f.severity = Sev::Warning;
                f.detail += QStringLiteral(" (Account \"%1\" has no MQTT stream yet: either no MQTT client has connected to it, or every "
                                           "one was refused because of this. Rated a warning because it cannot be told which; the "
                                           "next MQTT client to connect fails.)")
                                .arg(acc.name);
            }
    sortFindings(out);
    return out;
}

bool showsMqttUse(const AccountInfo &account)
{
    for (const StreamInfo &s : account.streams) {
        if (s.isMqtt())
            return true;
        for (const QString &subject : MqttStreamSpec::subjectsOf(s.config))
            if (subject.startsWith(QLatin1String("$MQTT.")))
                return true;
    }
    return false;
}

QList<Finding> checkCluster(const QList<ServerInfo> &servers, const CheckOptions &options)
{
    // Findings about the servers themselves: the meta group, and known defects of their versions.
    QList<Finding> out = MetaGroupCheck::findings(servers);
    out << VersionAdvisories::findings(servers);
    const LayoutChoice choice = Layouts::choose(servers, options.layout);
    if (!choice.mixed()) {
        sortFindings(out);
        return out;
    }
    QStringList legacyVersions;
    QStringList currentVersions;
    for (const ServerInfo &s : servers) {
        const QString name = s.name.isEmpty() ? s.id : s.name;
        const QString entry = QStringLiteral("%1 (%2)").arg(name, s.version);
        if (choice.legacyServers.contains(name))
            legacyVersions.append(entry);
        else if (choice.currentServers.contains(name))
            currentVersions.append(entry);
    }
    Finding f = FindingCatalogue::make(FindingCodes::mixedServerVersions(), QString(), QString(),
                                       {{QStringLiteral("versions"), choice.versions.join(QStringLiteral(", "))}});
    f.expected = QJsonObject{{QStringLiteral("layouts"), 1}};
    f.actual = QJsonObject{{QStringLiteral("2.9"), QJsonArray::fromStringList(legacyVersions)},
                           {QStringLiteral("2.10+"), QJsonArray::fromStringList(currentVersions)}};
    f.explains = QStringList{CheckContext::line(QStringLiteral("asm.create_retained_consumer"), QStringLiteral("js:10093"))};
    f.detail = QStringLiteral("%1 serve MQTT with the 2.9 layout and %2 with the 2.10+ layout. Each 2.10+ server, the first time it "
                              "sets up MQTT for an account, creates $MQTT_qos2in and $MQTT_out and migrates $MQTT_rmsgs to "
                              "$MQTT.rmsgs.>; from then on every MQTT connect to that account through a 2.9 server fails "
                              "(10093). Accounts checked here are held to the 2.9 retained layout until the upgrade is finished.")
                   .arg(legacyVersions.join(QStringLiteral(", ")), currentVersions.join(QStringLiteral(", ")));
    out.append(f);
    sortFindings(out);
    return out;
}

namespace {

// The catalogue's order of each code.
int codeRank(const QString &code)
{
    static const QHash<QString, int> order = [] {
        QHash<QString, int> rank;
        const QStringList codes = FindingCatalogue::codes();
        for (qsizetype i = 0; i < codes.size(); ++i)
            rank.insert(codes.at(i), int(i));
        return rank;
    }();
    return order.value(code, -1);
}

// sortFindings()' order of two findings.
bool sortsBefore(const Finding &a, const Finding &b)
{
    if (a.severity != b.severity)
        return int(a.severity) > int(b.severity);
    if (const int c = a.account.compare(b.account); c != 0)
        return c < 0;
    if (a.code != b.code)
        if (const int ra = codeRank(a.code), rb = codeRank(b.code); ra != rb)
            return ra < rb;
    if (const int c = a.stream.compare(b.stream); c != 0)
        return c < 0;
    if (const int c = a.subject.compare(b.subject); c != 0)
        return c < 0;
    return a.clientId.compare(b.clientId) < 0;
}

// `small` (sorted) merged into `big` (sorted) in place: `big` grows at its end by small's size, then is
// filled from the back, each finding moved once. On equal findings `small`'s go first when smallFirst.
void mergeInto(QList<Finding> &big, QList<Finding> &small, bool smallFirst)
{
    const qsizetype n = big.size();
    big.resize(n + small.size());
    qsizetype i = n - 1;
    for (qsizetype j = small.size() - 1, at = big.size() - 1; j >= 0; --at) {
        const bool bigLast = i >= 0 && (smallFirst ? !sortsBefore(big.at(i), small.at(j)) : sortsBefore(small.at(j), big.at(i)));
        big[at] = bigLast ? std::move(big[i--]) : std::move(small[j--]);
    }
}

// `more` (sorted) merged into `out` (sorted), after the equal findings already there: a few findings
// (the cluster's, an account's streams') go to their places in a list of a hundred thousand, which is not
// sorted again; two long lists are appended and merged by sortFindings.
void mergeFindings(QList<Finding> &out, QList<Finding> &&more)
{
    constexpr qsizetype kMergedInPlace = 64;
    if (more.size() > kMergedInPlace && out.size() > kMergedInPlace) {
        out.reserve(out.size() + more.size());
        for (Finding &f : more)
            out.append(std::move(f));
        sortFindings(out);
    } else if (more.size() > out.size()) {
        // The short list goes into the long one, its findings before the equal ones of `more`.
        out.swap(more);
        mergeInto(out, more, true);
    } else {
        mergeInto(out, more, false);
    }
}

} // namespace

namespace {

// diagnose(), each account's SESSION_MISSING_CONSUMER findings in `apart` instead of the list when set.
QList<Finding> diagnoseAccounts(const DiagnosisInput &input, QList<MissingConsumerFindings> *apart)
{
    QList<Finding> out = checkCluster(input.servers, input.options);
    for (const AccountInfo &acc : input.accounts) {
        if (acc.isSystem && !input.includeSystemAccount)
            continue;
        AccountCheckInput in;
        in.account = acc;
        in.servers = input.servers;
        in.options = input.options;
        if (input.limits.contains(acc.name))
            in.limits = input.limits.value(acc.name);
        in.assumeMqtt = showsMqttUse(acc);
        if (input.mqttManagers)
            in.managers = input.mqttManagers->value(acc.name);
        // Each check's findings are sorted (the takeovers' here): merged, not sorted again.
        mergeFindings(out, checkAccount(in));
        if (const auto sessions = input.sessions.constFind(acc.name); sessions != input.sessions.cend()) {
            MissingConsumerFindings missing;
            mergeFindings(out, checkSessions(*sessions, input.options, apart ? &missing : nullptr));
            if (!missing.isEmpty())
                apart->append(std::move(missing));
        }
        if (const auto closed = input.closedConnections.constFind(acc.name); closed != input.closedConnections.cend()) {
            QList<Finding> takeovers = checkTakeovers(acc.name, *closed);
            sortFindings(takeovers);
            mergeFindings(out, std::move(takeovers));
        }
        if (const auto sessions = input.sessions.constFind(acc.name); sessions != input.sessions.cend()) {
            QList<Finding> orphans = checkQos2Orphans(*sessions);
            sortFindings(orphans);
            mergeFindings(out, std::move(orphans));
            const auto previous = input.previousSamples.constFind(acc.name);
            mergeFindings(out,
                          checkStuckConsumers(*sessions, previous == input.previousSamples.cend() ? nullptr : &*previous, input.options));
            mergeFindings(out, checkInterestPinned(*sessions, acc, input.options));
            if (input.options.targetVersion)
                mergeFindings(out, UpgradeReadiness::accountFindings(*sessions, input.servers, input.options));
        }
        if (const auto previous = input.previousSamples.constFind(acc.name); previous != input.previousSamples.cend())
            if (auto errors = checkApiErrors(acc, *previous, input.sampledAt, input.options))
                mergeFindings(out, QList<Finding>{std::move(*errors)});
    }
    if (apart)
        MissingConsumerFindings::sortGroups(*apart);
    return out;
}

} // namespace

QList<Finding> diagnose(const DiagnosisInput &input)
{
    return diagnoseAccounts(input, nullptr);
}

std::optional<Finding> whyMissing(const QList<Finding> &findings, const QString &account, const QString &stream)
{
    for (const Finding &f : findings)
        if (f.account == account
            && ((f.code == FindingCodes::streamMissing() && f.stream == stream) || f.code == FindingCodes::jetStreamDisabled()))
            return f;
    for (const Finding &f : findings) {
        if (f.account != account)
            continue;
        if (f.code == FindingCodes::subjectsOverlap()) {
            for (const QJsonValue &v : f.expected.toObject().value(QLatin1String("mqtt_streams")).toArray())
                if (v.toObject().value(QLatin1String("stream")).toString() == stream && f.severity == Sev::Critical)
                    return f;
        } else if ((f.code == FindingCodes::streamLimitHeadroom() || f.code == FindingCodes::replicasMismatch())
                   && f.severity == Sev::Critical && f.detail.contains(stream)) {
            return f;
        }
    }
    return std::nullopt;
}

namespace {

/**
 * The place of each finding's `member` (account or stream) in the sorted order of the list's few distinct
 * names: one number per finding, compared instead of the strings.
 */
std::vector<int> namePlaces(const QList<Finding> &findings, QString Finding::*member)
{
    // Neighbours mostly share the name (often its very data): looked up only when it changes.
    QHash<QString, int> place;
    const QString *last = nullptr;
    for (const Finding &f : findings)
        if (!last || f.*member != *last)
            place.insert(*(last = &(f.*member)), 0);
    QStringList names = place.keys();
    std::sort(names.begin(), names.end());
    for (qsizetype i = 0; i < names.size(); ++i)
        place[names.at(i)] = int(i);
    const qsizetype n = findings.size();
    std::vector<int> places(static_cast<size_t>(n));
    last = nullptr;
    int at = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const QString &name = findings.at(i).*member;
        if (!last || name != *last)
            at = place.value(*(last = &name));
        places[size_t(i)] = at;
    }
    return places;
}

/** How many UTF-16 units at their start all the findings' subjects share (usually "$MQTT.sess."). */
qsizetype sharedSubjectStart(const QList<Finding> &findings)
{
    qsizetype shared = findings.at(0).subject.size();
    for (qsizetype i = 1; i < findings.size() && shared > 0; ++i) {
        const QString &a = findings.at(0).subject;
        const QString &b = findings.at(i).subject;
        qsizetype same = 0;
        const qsizetype most = std::min({shared, a.size(), b.size()});
        while (same < most && a.at(same) == b.at(same))
            ++same;
        shared = same;
    }
    return shared;
}

/**
 * The four UTF-16 units of `subject` after the `shared` start, as one number. Big-endian, shorter subjects
 * padded with 0: comparing two prefixes as numbers compares those units as QString's operator< does;
 * equal prefixes leave it to the strings.
 */
quint64 subjectPrefix(const QString &subject, qsizetype shared)
{
    quint64 prefix = 0;
    for (qsizetype k = 0; k < 4; ++k) {
        const qsizetype at = shared + k;
        prefix = (prefix << 16) | (at < subject.size() ? quint64(subject.at(at).unicode()) : 0u);
    }
    return prefix;
}

/**
 * A finding's place in sortFindings()' order as far as numbers tell it: everything but the rest of the
 * subject and the client ID (distinct per session); the finding's place last, so that the order is total
 * (a plain sort keeps equal findings in order).
 */
struct SortKey
{
    int severity;
    int account;
    int rank;
    int stream;
    quint64 subject;
    qsizetype index;
};

/**
 * `keys` sorted by `less`. Lists that are already sorted pieces (an account's findings after another's,
 * each sorted by its check) are merged, not sorted again. False when they were in order already.
 */
template<typename Less>
bool sortKeys(std::vector<SortKey> &keys, const Less &less)
{
    std::vector<size_t> runEnds;
    for (size_t i = 1; i < keys.size() && runEnds.size() <= 8; ++i)
        if (less(keys[i], keys[i - 1]))
            runEnds.push_back(i);
    if (runEnds.empty())
        return false;
    if (runEnds.size() <= 8) {
        runEnds.push_back(keys.size());
        for (size_t r = 1; r < runEnds.size(); ++r)
            std::inplace_merge(keys.begin(), keys.begin() + qsizetype(runEnds[r - 1]), keys.begin() + qsizetype(runEnds[r]), less);
    } else {
        std::sort(keys.begin(), keys.end(), less);
    }
    return true;
}

/**
 * `findings` put into the order of `index` (the finding that goes to place i is at index[i]) in place,
 * following each cycle of the permutation: no second list of findings.
 */
void permute(QList<Finding> &findings, std::vector<qsizetype> index)
{
    findings.detach();
    for (qsizetype start = 0; start < findings.size(); ++start) {
        if (index[size_t(start)] == start)
            continue;
        Finding held = std::move(findings[start]);
        qsizetype at = start;
        for (;;) {
            const qsizetype from = index[size_t(at)];
            index[size_t(at)] = at;
            if (from == start) {
                findings[at] = std::move(held);
                break;
            }
            findings[at] = std::move(findings[from]);
            at = from;
        }
    }
}

} // namespace

void sortFindings(QList<Finding> &findings)
{
    const qsizetype n = findings.size();
    if (n < 2)
        return;
    // The catalogue's order of each finding's code is looked up once per finding, not per comparison,
    // and the few distinct account and stream names are replaced by their places in their sorted order.
    const std::vector<int> account = namePlaces(findings, &Finding::account);
    const std::vector<int> stream = namePlaces(findings, &Finding::stream);
    // Subjects differ per session but mostly share their start: the four units after it, as one number,
    // order most pairs without reading the strings.
    const qsizetype shared = sharedSubjectStart(findings);
    std::vector<SortKey> keys(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i) {
        const Finding &f = findings.at(i);
        keys[size_t(i)] =
            SortKey{-int(f.severity), account[size_t(i)], codeRank(f.code), stream[size_t(i)], subjectPrefix(f.subject, shared), i};
    }
    const auto less = [&](const SortKey &a, const SortKey &b) {
        if (a.severity != b.severity)
            return a.severity < b.severity;
        if (a.account != b.account)
            return a.account < b.account;
        if (a.rank != b.rank)
            return a.rank < b.rank;
        if (a.stream != b.stream)
            return a.stream < b.stream;
        if (a.subject != b.subject)
            return a.subject < b.subject;
        const Finding &fa = findings.at(a.index);
        const Finding &fb = findings.at(b.index);
        if (const int c = fa.subject.compare(fb.subject); c != 0)
            return c < 0;
        if (const int c = fa.clientId.compare(fb.clientId); c != 0)
            return c < 0;
        return a.index < b.index;
    };
    if (!sortKeys(keys, less))
        return;
    std::vector<qsizetype> index(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i)
        index[size_t(i)] = keys[size_t(i)].index;
    permute(findings, std::move(index));
}

std::optional<Finding::Severity> highestSeverity(const QList<Finding> &findings)
{
    std::optional<Sev> best;
    for (const Finding &f : findings)
        if (!best || int(f.severity) > int(*best))
            best = f.severity;
    return best;
}

int exitCodeFor(const QList<Finding> &findings)
{
    const auto worst = highestSeverity(findings);
    if (!worst || *worst == Sev::Info)
        return 0;
    return *worst == Sev::Warning ? 1 : 2;
}

} // namespace MqttDoctor::Checks

namespace MqttDoctor {

QList<Finding> MissingConsumerFindings::diagnoseApart(const DiagnosisInput &input, QList<MissingConsumerFindings> &apart)
{
    apart.clear();
    return Checks::diagnoseAccounts(input, &apart);
}

qsizetype MissingConsumerFindings::placeIn(const QList<Finding> &sorted) const
{
    // No finding of the list has their code and account: they all sort on the same side of each.
    const Finding first = at(0);
    return std::partition_point(sorted.cbegin(), sorted.cend(), [&first](const Finding &f) { return Checks::sortsBefore(f, first); })
        - sorted.cbegin();
}

void MissingConsumerFindings::sortGroups(QList<MissingConsumerFindings> &groups)
{
    std::sort(groups.begin(), groups.end(),
              [](const MissingConsumerFindings &a, const MissingConsumerFindings &b) { return Checks::sortsBefore(a.at(0), b.at(0)); });
}

} // namespace MqttDoctor
