#include "takeoverwatch.h"

namespace MqttDoctor {

TakeoverWatch::TakeoverWatch() = default;

TakeoverWatch::TakeoverWatch(Options options) : m_options(options) {}

std::optional<TakeoverWatch::Storm> TakeoverWatch::add(const MqttClientEvent &event)
{
    if (event.clientId.isEmpty())
        return std::nullopt;
    const QString key = event.account + u'\n' + event.clientId;
    Track &track = m_tracks[key];
    if (!event.address.isEmpty() && !track.addresses.contains(event.address))
        track.addresses << event.address;
    if (!event.isTakeover())
        return std::nullopt;
    ++m_total;
    track.times << event.time;
    const QDateTime oldest = event.time.addMSecs(-m_options.windowMs);
    while (!track.times.isEmpty() && track.times.first() < oldest)
        track.times.removeFirst();
    const int inWindow = int(track.times.size());
    if (inWindow > track.peak) {
        track.peak = inWindow;
        track.peakFirst = track.times.first();
        track.peakLast = event.time;
    }
    if (inWindow <= m_options.threshold) {
        if (inWindow <= 1)
            track.storming = false; // the window emptied: a later storm is a new one
        return std::nullopt;
    }
    if (track.storming)
        return std::nullopt;
    track.storming = true;
    return Storm{event.account, event.clientId, inWindow, track.addresses, track.times.first(), event.time};
}

QList<TakeoverWatch::Storm> TakeoverWatch::storms() const
{
    QList<Storm> out;
    for (auto it = m_tracks.cbegin(); it != m_tracks.cend(); ++it) {
        if (it->peak <= m_options.threshold)
            continue;
        const qsizetype split = it.key().indexOf(u'\n');
        out << Storm{it.key().left(split), it.key().mid(split + 1), it->peak, it->addresses, it->peakFirst, it->peakLast};
    }
    std::sort(out.begin(), out.end(), [](const Storm &a, const Storm &b) {
        return a.takeovers != b.takeovers ? a.takeovers > b.takeovers : std::tie(a.account, a.clientId) < std::tie(b.account, b.clientId);
    });
    return out;
}

} // namespace MqttDoctor
