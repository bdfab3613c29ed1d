#include "mqtt/payloadpreview.h"

#include <QStringDecoder>

namespace MqttDoctor::PayloadPreview {

QString text(const QByteArray &payload, int maxChars)
{
    const QChar ellipsis(0x2026);
    if (payload.isEmpty())
        return {};
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString decoded = decoder.decode(payload);
    bool printable = !decoder.hasError();
    if (printable) {
        for (QChar c : decoded) {
            const char16_t u = c.unicode();
            if ((u < 0x20 && u != u'\t' && u != u'\n' && u != u'\r') || u == 0x7F) {
                printable = false;
                break;
            }
        }
    }
    if (printable) {
        QString out = decoded;
        out.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
        out.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
        out.replace(QLatin1Char('\r'), QStringLiteral("\\r"));
        out.replace(QLatin1Char('\t'), QStringLiteral("\\t"));
        if (out.size() > maxChars)
            return out.left(maxChars) + ellipsis;
        return out;
    }
    const int maxBytes = qMax(1, maxChars / 3);
    QString out = QStringLiteral("hex: ") + QString::fromLatin1(payload.left(maxBytes).toHex(' '));
    if (payload.size() > maxBytes)
        out += ellipsis;
    return out;
}

} // namespace MqttDoctor::PayloadPreview
