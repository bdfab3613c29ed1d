#include "historyreport.h"

#include <algorithm>

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointF>
#include <QSqlQuery>

#include "common/duration.h"
#include "history/historydatabase.h"
#include "mqtt/clientidhash.h"

namespace MqttDoctor {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

QString utcText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QString();
}

/** Replaces each known client ID by "client <hash>" in texts, when asked. */
class Pseudonyms
{
public:
    explicit Pseudonyms(bool on) : m_on(on) {}
    void add(const QString &clientId)
    {
        if (m_on && !clientId.isEmpty() && !m_ids.contains(clientId))
            m_ids.insert(clientId, QStringLiteral("client#") + ClientIdHash::hash(clientId));
    }
    QString id(const QString &clientId) const { return m_on ? m_ids.value(clientId, clientId) : clientId; }
    QString text(QString s) const
    {
        if (!m_on)
            return s;
        // Longest first, so that an ID that contains another is replaced whole.
        QStringList ids = m_ids.keys();
        std::sort(ids.begin(), ids.end(), [](const QString &a, const QString &b) { return a.size() > b.size(); });
        for (const QString &i : std::as_const(ids))
            s.replace(i, m_ids.value(i));
        return s;
    }

private:
    bool m_on;
    QHash<QString, QString> m_ids;
};

struct Series
{
    QString name;
    QString colour;
    QList<QPointF> points; ///< x: ms since the epoch, y: value
};

/** A line chart as SVG (900×220): time along x, values from 0 up along y, a legend. */
QByteArray lineChart(const QString &title, const QList<Series> &series, qint64 from, qint64 to)
{
    constexpr double W = 900, H = 220, L = 60, R = 20, T = 30, B = 40;
    double top = 1;
    for (const Series &s : series)
        for (const QPointF &p : s.points)
            top = std::max(top, p.y());
    const double span = std::max<double>(1, double(to - from));
    const auto x = [&](double ms) { return L + (ms - double(from)) / span * (W - L - R); };
    const auto y = [&](double v) { return H - B - v / top * (H - T - B); };
    QString svg = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
                                 "font-family=\"sans-serif\" font-size=\"11\">")
                      .arg(W)
                      .arg(H);
    svg += QStringLiteral("<rect width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>").arg(W).arg(H);
    svg += QStringLiteral("<text x=\"%1\" y=\"18\" font-size=\"13\" font-weight=\"bold\">%2</text>").arg(L).arg(esc(title));
    svg += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#888\"/>").arg(L).arg(H - B).arg(W - R);
    svg += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#888\"/>").arg(L).arg(T).arg(H - B);
    svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">%3</text>").arg(L - 6).arg(T + 4).arg(qint64(top));
    svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">0</text>").arg(L - 6).arg(H - B + 4);
    const QDateTime a = QDateTime::fromMSecsSinceEpoch(from, Qt::UTC), b = QDateTime::fromMSecsSinceEpoch(to, Qt::UTC);
    svg += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>").arg(L).arg(H - B + 16).arg(esc(utcText(a)));
    svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">%3</text>").arg(W - R).arg(H - B + 16).arg(esc(utcText(b)));
    double legend = L;
    for (const Series &s : series) {
        if (s.points.isEmpty())
            continue;
        QStringList pts;
        for (const QPointF &p : s.points)
            pts << QStringLiteral("%1,%2").arg(x(p.x()), 0, 'f', 1).arg(y(p.y()), 0, 'f', 1);
        svg += QStringLiteral("<polyline fill=\"none\" stroke=\"%1\" stroke-width=\"2\" points=\"%2\"/>").arg(s.colour, pts.join(u' '));
        svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"10\" height=\"10\" fill=\"%3\"/><text x=\"%4\" y=\"%5\">%6</text>")
                   .arg(legend)
                   .arg(H - 14)
                   .arg(s.colour)
                   .arg(legend + 14)
                   .arg(H - 5)
                   .arg(esc(s.name));
        legend += 24 + 7 * s.name.size();
    }
    svg += QStringLiteral("</svg>");
    return svg.toUtf8();
}

struct AuditRow
{
    QDateTime time;
    QString account;
    QString action;
    QString stream;
    QString outcome;
    QString error;
};

QList<AuditRow> auditRows(const QString &path, qint64 since, qint64 until, const QString &account)
{
    QList<AuditRow> out;
    QFile f(path);
    if (path.isEmpty() || !f.open(QIODevice::ReadOnly))
        return out;
    while (!f.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
        const QDateTime t = QDateTime::fromString(o.value(QLatin1String("time")).toString(), Qt::ISODateWithMs);
        if (!t.isValid() || t.toMSecsSinceEpoch() < since || t.toMSecsSinceEpoch() > until)
            continue;
        const QString a = o.value(QLatin1String("account")).toString();
        if (!account.isEmpty() && a != account)
            continue;
        out.append({t, a, o.value(QLatin1String("action")).toString(), o.value(QLatin1String("stream")).toString(),
                    o.value(QLatin1String("outcome")).toString(), o.value(QLatin1String("error")).toString()});
    }
    return out;
}

const char *kStyle = "body{font-family:sans-serif;font-size:13px;color:#1a1a1a;margin:24px;}"
                     "h1{font-size:20px;}h2{font-size:16px;margin-top:24px;border-bottom:1px solid #ccc;}"
                     "table{border-collapse:collapse;}td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;vertical-align:top;}"
                     "th{background:#f0f0f0;}.open{font-weight:bold;}.note{color:#555;}";

} // namespace

Result<HistoryReport::Output> HistoryReport::make(HistoryDatabase &database, const Options &o)
{
    HistoryQuery query(database);
    auto checks = query.checks(o.window);
    if (!checks)
        return checks.error();
    auto findings = query.findings(o.window);
    if (!findings)
        return findings.error();
    auto entries = query.changes(o.window);
    if (!entries)
        return entries.error();
    auto severities = query.severities(o.window, 400);
    if (!severities)
        return severities.error();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const qint64 from =
        o.window.since.isValid() ? o.window.since.toMSecsSinceEpoch() : (checks->first.isValid() ? checks->first.toMSecsSinceEpoch() : 0);
    const qint64 to = o.window.until.isValid() ? o.window.until.toMSecsSinceEpoch() : now.toMSecsSinceEpoch();

    Pseudonyms names(o.hashClientIds);
    for (const HistoryQuery::FindingSpan &f : std::as_const(*findings))
        names.add(f.clientId);
    for (const HistoryQuery::Entry &e : std::as_const(*entries))
        names.add(e.clientId);

    Output out;
    out.checks = checks->count;
    out.findings = int(findings->size());
    out.entries = int(entries->size());
    const QString scope = o.window.account.isEmpty() ? QStringLiteral("cluster %1").arg(o.cluster)
                                                     : QStringLiteral("account %1 of cluster %2").arg(o.window.account, o.cluster);
    QString body;
    body += QStringLiteral("<h1>NATS MQTT incident report: %1</h1>").arg(esc(scope));
    body += QStringLiteral("<p>From %1 to %2. Made %3 by NATS MQTT Doctor from its local history.</p>")
                .arg(esc(utcText(QDateTime::fromMSecsSinceEpoch(from, Qt::UTC))), esc(utcText(QDateTime::fromMSecsSinceEpoch(to, Qt::UTC))),
                     esc(utcText(now)));
    if (checks->count == 0)
        body += QStringLiteral("<p class=\"open\">No check was recorded in this time: the history cannot tell what happened then.</p>");
    else
        body += QStringLiteral("<p>%1 checks recorded (%2 to %3), %4 of them looked at everything.</p>")
                    .arg(checks->count)
                    .arg(esc(utcText(checks->first)), esc(utcText(checks->last)))
                    .arg(checks->complete);
    if (o.hashClientIds)
        body += QStringLiteral("<p class=\"note\">Client IDs are replaced by their session hashes (client#&lt;hash&gt;, the token of "
                               "their $MQTT.sess.&lt;hash&gt; subject).</p>");

    // Servers and their versions, as last seen.
    QSqlQuery q(database.db());
    body += QStringLiteral("<h2>Servers</h2><table><tr><th>Server</th><th>Version</th></tr>");
    if (q.exec(QStringLiteral("SELECT name, version FROM server_state ORDER BY name")))
        while (q.next())
            body += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(esc(q.value(0).toString()), esc(q.value(1).toString()));
    body += QStringLiteral("</table>");

    body += QStringLiteral("<h2>Findings</h2>");
    if (findings->isEmpty())
        body += QStringLiteral("<p>%1</p>")
                    .arg(checks->count > 0 ? QStringLiteral("No finding was open in this time.")
                                           : QStringLiteral("None known (nothing recorded)."));
    else {
        body += QStringLiteral("<table><tr><th>State</th><th>Severity</th><th>Code</th><th>Account</th><th>Client</th><th>Title</th>"
                               "<th>First seen</th><th>Last seen</th><th>Closed</th><th>Open for</th></tr>");
        for (const HistoryQuery::FindingSpan &f : std::as_const(*findings)) {
            const QDateTime end = f.closedAt.isValid() ? f.closedAt : f.lastSeen;
            body += QStringLiteral("<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td><td>%8</td><td>%9</td>")
                        .arg(f.closedAt.isValid() ? QString() : QStringLiteral(" class=\"open\""),
                             f.closedAt.isValid() ? QStringLiteral("closed") : QStringLiteral("open"), esc(f.severity), esc(f.code),
                             f.account.isEmpty() ? QStringLiteral("(cluster)") : esc(f.account), esc(names.id(f.clientId)),
                             esc(names.text(f.title)), esc(utcText(f.firstSeen)), esc(utcText(f.lastSeen)))
                + QStringLiteral("<td>%1</td><td>%2</td></tr>").arg(esc(utcText(f.closedAt)), esc(formatAge(f.firstSeen.secsTo(end))));
        }
        body += QStringLiteral("</table>");
    }

    // Charts.
    QList<Series> bySeverity{{QStringLiteral("critical"), QStringLiteral("#8e0018"), {}},
                             {QStringLiteral("error"), QStringLiteral("#c62828"), {}},
                             {QStringLiteral("warning"), QStringLiteral("#b26a00"), {}},
                             {QStringLiteral("info"), QStringLiteral("#1565c0"), {}}};
    for (const HistoryQuery::SeverityPoint &p : std::as_const(*severities)) {
        const double t = double(p.at.toMSecsSinceEpoch());
        bySeverity[0].points.append({t, double(p.critical)});
        bySeverity[1].points.append({t, double(p.error)});
        bySeverity[2].points.append({t, double(p.warning)});
        bySeverity[3].points.append({t, double(p.info)});
    }
    out.charts.append(lineChart(QStringLiteral("Open findings by severity"), bySeverity, from, to));
    if (!o.window.account.isEmpty()) {
        auto counts = query.counts(o.window, 400);
        if (!counts)
            return counts.error();
        QList<Series> c{{QStringLiteral("sessions"), QStringLiteral("#1565c0"), {}},
                        {QStringLiteral("retained"), QStringLiteral("#6a1b9a"), {}},
                        {QStringLiteral("queued messages"), QStringLiteral("#2e7d32"), {}}};
        for (const HistoryQuery::CountsPoint &p : std::as_const(*counts)) {
            const double t = double(p.at.toMSecsSinceEpoch());
            if (p.sessions >= 0)
                c[0].points.append({t, double(p.sessions)});
            if (p.retained >= 0)
                c[1].points.append({t, double(p.retained)});
            if (p.queuedMessages >= 0)
                c[2].points.append({t, double(p.queuedMessages)});
        }
        out.charts.append(lineChart(QStringLiteral("Sessions, retained and queued messages of %1").arg(o.window.account), c, from, to));
    }
    QString chartsInline, chartsImages;
    for (qsizetype i = 0; i < out.charts.size(); ++i) {
        chartsInline += QStringLiteral("<p>") + QString::fromUtf8(out.charts.at(i)) + QStringLiteral("</p>");
        chartsImages += QStringLiteral("<p><img src=\"chart-%1.svg\" width=\"900\" height=\"220\"/></p>").arg(i);
    }

    QString rest;
    rest += QStringLiteral("<h2>Timeline</h2>");
    if (entries->isEmpty())
        rest += QStringLiteral("<p>Nothing changed between the recorded checks.</p>");
    else {
        rest += QStringLiteral("<table><tr><th>Time</th><th>Account</th><th>What</th></tr>");
        for (const HistoryQuery::Entry &e : std::as_const(*entries))
            rest +=
                QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                    .arg(esc(utcText(e.at)), e.account.isEmpty() ? QStringLiteral("(cluster)") : esc(e.account), esc(names.text(e.text)));
        rest += QStringLiteral("</table>");
    }
    const QList<AuditRow> repairs = auditRows(o.auditLogPath, from, to, o.window.account);
    out.repairs = int(repairs.size());
    rest += QStringLiteral("<h2>Repairs and operator actions</h2>");
    if (o.auditLogPath.isEmpty())
        rest += QStringLiteral("<p class=\"note\">The audit log was not read.</p>");
    else if (repairs.isEmpty())
        rest += QStringLiteral("<p>The audit log holds no change in this time.</p>");
    else {
        rest += QStringLiteral("<table><tr><th>Time</th><th>Account</th><th>Action</th><th>Stream</th><th>Outcome</th></tr>");
        for (const AuditRow &r : repairs)
            rest += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                        .arg(esc(utcText(r.time)), esc(r.account), esc(r.action), esc(r.stream),
                             esc(r.error.isEmpty() ? r.outcome : QStringLiteral("%1: %2").arg(r.outcome, names.text(r.error))));
        rest += QStringLiteral("</table>");
    }

    const QString head =
        QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title><style>%2</style></head><body>")
            .arg(esc(QStringLiteral("NATS MQTT incident report: ") + scope), QString::fromLatin1(kStyle));
    const QString chartsTitle = QStringLiteral("<h2>Over time</h2>");
    out.html = head + body + chartsTitle + chartsInline + rest + QStringLiteral("</body></html>");
    out.htmlWithImages = head + body + chartsTitle + chartsImages + rest + QStringLiteral("</body></html>");
    return out;
}

} // namespace MqttDoctor
