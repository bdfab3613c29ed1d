// Every icon of the application is drawn from its SVG in the Qt resources: present, drawn (the SVG
// plugins are there), at the SVG's own size, and each kind its own picture. Fails on a machine
// without Qt's SVG plugins or on a build that lost a resource, where the icons would be blank.
#include <QFile>
#include <QIcon>
#include <QImage>
#include <QImageReader>
#include <QTest>

#include "models/iconfactory.h"

using namespace MqttDoctor;
using Kind = IconFactory::Kind;

namespace {

const QList<Kind> kAllKinds = {Kind::App,      Kind::Cluster,      Kind::Server,   Kind::Account, Kind::AccountWithoutJetStream,
                               Kind::Stream,   Kind::LegacyStream, Kind::Warning,  Kind::Error,   Kind::Ok,
                               Kind::Sessions, Kind::Retained,     Kind::Consumers};

QImage normalised(const QImage &image)
{
    return image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
}

qsizetype paintedPixels(const QImage &image)
{
    qsizetype painted = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            painted += qAlpha(image.pixel(x, y)) > 0 ? 1 : 0;
    return painted;
}

} // namespace

class TestIconFactory : public QObject
{
    Q_OBJECT

private slots:
    void everyKindIsDrawnFromItsSvg_data()
    {
        QTest::addColumn<int>("kindValue");
        QTest::addColumn<QSize>("svgSize");
        for (const Kind kind : kAllKinds)
            QTest::newRow(qPrintable(IconFactory::svgPath(kind))) << int(kind) << (kind == Kind::App ? QSize(256, 256) : QSize(64, 64));
    }

    void everyKindIsDrawnFromItsSvg()
    {
        QFETCH(int, kindValue);
        QFETCH(QSize, svgSize);
        const auto kind = Kind(kindValue);
        const QString path = IconFactory::svgPath(kind);
        QVERIFY2(path.startsWith(QStringLiteral(":/mqttdoctor/icons/")) && path.endsWith(QStringLiteral(".svg")), qPrintable(path));
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QImageReader reader(path);
        QCOMPARE(reader.format(), QByteArray("svg"));
        QCOMPARE(reader.size(), svgSize); // the width and height the SVG declares
        const QImage drawn = reader.read();
        QVERIFY2(!drawn.isNull(), qPrintable(reader.errorString()));

        const QIcon icon = IconFactory::icon(kind);
        QVERIFY(!icon.isNull());
        QVERIFY(icon.availableSizes().contains(svgSize));
        const QImage normal = icon.pixmap(svgSize).toImage();
        QCOMPARE(normal.size(), svgSize);
        QCOMPARE(normalised(normal), normalised(drawn)); // the SVG's picture, not another drawing
        QVERIFY(paintedPixels(normal) > svgSize.width() * svgSize.height() / 10); // not a blank
        for (const int size : {16, 24, 32})
            QCOMPARE(icon.pixmap(size, size).size(), QSize(size, size));

        // A selected row shows a white silhouette of the same shape (the application's own icon keeps its colours).
        const QImage selected = icon.pixmap(svgSize, QIcon::Selected).toImage();
        QCOMPARE(selected.size(), svgSize);
        QCOMPARE(paintedPixels(selected), paintedPixels(normal));
        if (kind == Kind::App) {
            QCOMPARE(normalised(selected), normalised(normal));
            return;
        }
        for (int y = 0; y < selected.height(); ++y)
            for (int x = 0; x < selected.width(); ++x) {
                const QRgb pixel = selected.pixel(x, y);
                if (qAlpha(pixel) == 255)
                    QVERIFY2(qRed(pixel) == 255 && qGreen(pixel) == 255 && qBlue(pixel) == 255,
                             qPrintable(QStringLiteral("(%1, %2) is #%3").arg(x).arg(y).arg(pixel, 8, 16, QLatin1Char('0'))));
            }
    }

    void eachKindHasItsOwnPicture()
    {
        QList<QImage> seen;
        for (const Kind kind : kAllKinds) {
            const QImage image = normalised(IconFactory::icon(kind).pixmap(32, 32).toImage());
            QVERIFY(!image.isNull());
            for (const QImage &other : std::as_const(seen))
                QVERIFY2(image != other, qPrintable(IconFactory::svgPath(kind)));
            seen << image;
        }
    }

    void appIconScalesAsVector()
    {
        // The window icon is the SVG itself: Qt's SVG icon engine draws it at any size, larger than
        // the file's 256 pixels too (a pixmap icon would stop at 256).
        const QIcon icon = IconFactory::appIcon();
        QVERIFY(!icon.isNull());
        QCOMPARE(icon.pixmap(512, 512).size(), QSize(512, 512));
        QCOMPARE(icon.pixmap(16, 16).size(), QSize(16, 16));
        QVERIFY(paintedPixels(icon.pixmap(64, 64).toImage()) > 64 * 64 / 2);
    }
};

QTEST_MAIN(TestIconFactory)
#include "tst_iconfactory.moc"
