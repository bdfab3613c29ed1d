// The whole-process benches' rounds and figures.
#include "processrounds.h"

#include <QCoreApplication>
#include <QDir>
#include <QLocale>

#include <algorithm>
#include <cstdio>

namespace MqttDoctor::BenchData {

QMap<QString, ProcessSeries> ProcessRounds::run(const QStringList &commands, int rounds, const Hooks &hooks)
{
    QMap<QString, ProcessSeries> series;
    for (int round = 0; round < rounds; ++round) {
        QStringList order = commands;
        if (round % 2 == 1)
            std::reverse(order.begin(), order.end());
        QMap<QString, double> thisRound;
        for (const QString &command : std::as_const(order)) {
            ProcessSeries &s = series[command];
            if (!s.failure.isEmpty())
                continue;
            const TimedProcess::Outcome o = hooks.run(command);
            if (!hooks.completed(command, o)) {
                s.failure = QStringLiteral("run %1: %2").arg(round + 1).arg(o.describe());
                continue;
            }
            const double ms = hooks.timeOf ? hooks.timeOf(command, o) : o.wallMs;
            s.ms << ms;
            s.rssMiB << double(o.peakRssKiB) / 1024;
            s.cpuSeconds << o.cpuSeconds;
            thisRound.insert(command, ms);
            if (s.content.isEmpty() && s.extra.isEmpty() && hooks.describe)
                hooks.describe(command, o, s);
        }
        for (auto it = thisRound.cbegin(); it != thisRound.cend(); ++it) {
            const QString base = hooks.baselineOf ? hooks.baselineOf(it.key()) : QString();
            if (!base.isEmpty() && base != it.key() && thisRound.contains(base))
                series[it.key()].ratios << it.value() / thisRound.value(base);
        }
        std::fprintf(stderr, "  run %d of %d done\n", round + 1, rounds);
    }
    return series;
}

void ProcessRounds::print(const QString &title, int width, const ProcessSeries &series, const QString &figures)
{
    const QString pad = QString().leftJustified(width);
    std::printf("  %s %7.0f ms [runs: %s]%s\n", qPrintable(title.leftJustified(width)), median(series.ms), qPrintable(runsList(series.ms)),
                qPrintable(figures));
    for (const QString &line : {series.content, series.extra})
        if (!line.isEmpty())
            std::printf("  %s %s\n", qPrintable(pad), qPrintable(line));
    if (!series.failure.isEmpty())
        std::printf("  %s then failed: %s\n", qPrintable(pad), qPrintable(series.failure));
}

double ProcessRounds::median(QList<double> values)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype mid = values.size() / 2;
    return values.size() % 2 == 1 ? values.at(mid) : (values.at(mid - 1) + values.at(mid)) / 2;
}

QString ProcessRounds::thousands(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

QString ProcessRounds::runsList(const QList<double> &ms)
{
    QStringList s;
    for (double v : ms)
        s << QString::number(v, 'f', 0);
    return s.join(QStringLiteral(", "));
}

QString ProcessRounds::verdict(double value, double target, const QString &unit)
{
    if (target < 0)
        return {};
    return QStringLiteral("  target <= %1 %2: %3")
        .arg(target)
        .arg(unit, value <= target ? QStringLiteral("met") : QStringLiteral("NOT met"));
}

QString ProcessRounds::treeProgram(const QString &relative)
{
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../") + relative);
}

} // namespace MqttDoctor::BenchData
