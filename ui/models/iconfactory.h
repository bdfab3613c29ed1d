#pragma once

#include <QIcon>
#include <QString>

namespace MqttDoctor {

/**
 * The application's icons, drawn from the SVG files in resources/icons (compiled into the Qt
 * resources under :/mqttdoctor/icons). Qt draws SVG through its SVG image plugin (Debian: libqt6svg6,
 * which the package depends on); without it every icon is null. GUI thread only, after
 * QGuiApplication exists (QPixmap).
 */
class IconFactory final
{
public:
    enum class Kind {
        App, ///< nats-mqtt-doctor.svg
        Cluster, ///< cluster.svg
        Server, ///< server.svg
        Account, ///< account.svg
        AccountWithoutJetStream, ///< account-no-jetstream.svg
        Stream, ///< stream.svg
        LegacyStream, ///< stream-legacy.svg
        Warning, ///< warning.svg
        Error, ///< error.svg
        Ok, ///< ok.svg
        Sessions, ///< sessions.svg
        Retained, ///< retained.svg
        Consumers, ///< consumers.svg
    };

    /**
     * The icon of `kind` at the sizes views ask for (16 to 256 pixels). On a selected row it is a
     * white silhouette (the colours vanish on the selection highlight); App keeps its colours.
     */
    static QIcon icon(Kind kind);
    /** The window icon: the application's SVG as it is, at any size. */
    static QIcon appIcon();
    /** The resource path of the SVG that `kind` is drawn from. */
    static QString svgPath(Kind kind);
};

} // namespace MqttDoctor
