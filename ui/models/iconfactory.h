#pragma once

#include <QIcon>

namespace MqttDoctor {

/**
 * The application's icons, painted in code so they need no image plugin (Debian's Qt has no SVG
 * plugin unless qt6-svg is installed). The app icon matches resources/icons/nats-mqtt-doctor.svg.
 * GUI thread only, after QGuiApplication exists (QPixmap).
 */
class IconFactory final
{
public:
    enum class Kind {
        App,
        Cluster,
        Server,
        Account,
        AccountWithoutJetStream,
        Stream,
        LegacyStream,
        Warning,
        Error,
        Ok,
        Sessions,  ///< resources/icons/sessions.svg
        Retained,  ///< resources/icons/retained.svg
        Consumers, ///< resources/icons/consumers.svg
    };

    /** The icon of `kind`: painted (the record-view kinds from their SVG when an SVG plugin is there). */
    static QIcon icon(Kind kind);
    /** The window icon: the SVG when an SVG plugin is there, else the painted one. */
    static QIcon appIcon();
};

} // namespace MqttDoctor
