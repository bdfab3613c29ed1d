#include "nats/profile.h"

#include "common/inputparsing.h"

namespace MqttDoctor {

using namespace InputParsing;

Result<QString> normalizeServerUrl(const QString &url)
{
    const QString text = url.trimmed();
    // Never echo a password: show "scheme://***@host" when the URL holds user info.
    QString shown = text;
    if (const qsizetype at = text.lastIndexOf(QLatin1Char('@')); at >= 0) {
        const qsizetype sep = text.indexOf(QLatin1String("://"));
        const qsizetype userStart = (sep >= 0 && sep < at) ? sep + 3 : 0;
        shown = text.left(userStart) + QStringLiteral("***") + text.mid(at);
    }
    const QString schemesHint = QStringLiteral("use host, host:port or nats://, tls://, ws://, wss:// URLs such as nats://host:4222");
    auto bad = [&shown, &schemesHint](const QString &why, const QString &hint = {}) {
        return invalid(QStringLiteral("server URL ") + quoted(shown) + QLatin1Char(' ') + why, hint.isEmpty() ? schemesHint : hint);
    };

    if (text.isEmpty())
        return invalid(QStringLiteral("empty server URL"), schemesHint);
    for (QChar c : text) {
        if (c.isSpace())
            return bad(QStringLiteral("contains a space"), QStringLiteral("separate several URLs with commas"));
    }

    QString scheme = QStringLiteral("nats");
    QString rest = text;
    if (const qsizetype sep = text.indexOf(QLatin1String("://")); sep >= 0) {
        scheme = text.left(sep).toLower();
        rest = text.mid(sep + 3);
        if (scheme != QLatin1String("nats") && scheme != QLatin1String("tls") && scheme != QLatin1String("ws")
            && scheme != QLatin1String("wss"))
            return bad(scheme.isEmpty() ? QStringLiteral("has no scheme before \"://\"")
                                        : QStringLiteral("has the unsupported scheme ") + quoted(scheme));
    }

    if (rest.contains(QLatin1Char('?')) || rest.contains(QLatin1Char('#')))
        return bad(QStringLiteral("has a query or fragment, which NATS URLs do not use"));
    QString path;
    if (const qsizetype slash = rest.indexOf(QLatin1Char('/')); slash >= 0) {
        path = rest.mid(slash);
        rest = rest.left(slash);
        if (path == QLatin1String("/"))
            path.clear();
        if (!path.isEmpty() && scheme != QLatin1String("ws") && scheme != QLatin1String("wss"))
            return bad(QStringLiteral("has a path; only ws:// and wss:// URLs may have one"));
    }
    if (rest.contains(QLatin1Char('@')))
        return bad(QStringLiteral("holds credentials"),
                   QStringLiteral("put the user, password or token in the profile's auth settings, not in the URL"));

    QString host;
    QString port;
    bool hasPort = false;
    if (rest.startsWith(QLatin1Char('['))) {
        const qsizetype close = rest.indexOf(QLatin1Char(']'));
        if (close < 0)
            return bad(QStringLiteral("has an IPv6 address without its closing ']'"));
        host = rest.left(close + 1);
        const QString after = rest.mid(close + 1);
        if (!after.isEmpty()) {
            if (!after.startsWith(QLatin1Char(':')))
                return bad(QStringLiteral("has unexpected text after the IPv6 address"));
            hasPort = true;
            port = after.mid(1);
        }
        for (qsizetype i = 1; i + 1 < host.size(); ++i) {
            const QChar c = host.at(i);
            const bool hex = isAsciiDigit(c) || (c.toLower() >= QLatin1Char('a') && c.toLower() <= QLatin1Char('f'));
            if (!hex && c != QLatin1Char(':') && c != QLatin1Char('.'))
                return bad(QStringLiteral("has an invalid IPv6 address"));
        }
        if (host.size() <= 2)
            return bad(QStringLiteral("has no host"));
    } else {
        const qsizetype colons = rest.count(QLatin1Char(':'));
        if (colons > 1)
            return bad(QStringLiteral("has too many ':'"), QStringLiteral("write IPv6 addresses in brackets: nats://[::1]:4222"));
        if (colons == 1) {
            const qsizetype colon = rest.indexOf(QLatin1Char(':'));
            host = rest.left(colon);
            port = rest.mid(colon + 1);
            hasPort = true;
        } else {
            host = rest;
        }
        if (host.isEmpty())
            return bad(QStringLiteral("has no host"));
        for (QChar c : host) {
            if (!isAsciiLetter(c) && !isAsciiDigit(c) && c != QLatin1Char('-') && c != QLatin1Char('.') && c != QLatin1Char('_'))
                return bad(QStringLiteral("has an invalid host name"));
        }
    }
    host = host.toLower();

    int portNumber = 4222;
    if (scheme == QLatin1String("ws"))
        portNumber = 80;
    else if (scheme == QLatin1String("wss"))
        portNumber = 443;
    if (hasPort) {
        bool ok = !port.isEmpty() && port.size() <= 5;
        for (QChar c : port)
            ok = ok && isAsciiDigit(c);
        const int value = ok ? port.toInt() : 0;
        if (!ok || value < 1 || value > 65535)
            return bad(QStringLiteral("has an invalid port ") + quoted(port), QStringLiteral("a port is a number from 1 to 65535"));
        portNumber = value;
    }
    return scheme + QStringLiteral("://") + host + QLatin1Char(':') + QString::number(portNumber) + path;
}

} // namespace MqttDoctor
