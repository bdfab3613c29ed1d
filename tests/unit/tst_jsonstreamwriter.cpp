// JsonStreamWriter writes the same text as QJsonDocument::toJson(Indented) for the whole document.
#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QTextStream>

#include "common/jsonstreamwriter.h"

using namespace MqttDoctor;

namespace {

// Streams `doc` member by member (arrays of the top level element by element).
QByteArray streamed(const QJsonObject &doc, bool toDevice)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    QString text;
    buffer.open(QIODevice::WriteOnly);
    {
        QTextStream out(&buffer);
        QTextStream outString(&text);
        JsonStreamWriter w(toDevice ? out : outString);
        w.beginObject();
        for (auto it = doc.begin(); it != doc.end(); ++it) {
            if (it->isArray()) {
                w.beginArray(it.key());
                for (const QJsonValue &v : it->toArray())
                    w.value({}, v);
                w.endArray();
            } else if (it->isObject() && it.key().startsWith(QLatin1Char('o'))) {
                w.beginObject(it.key());
                const QJsonObject o = it->toObject();
                for (auto m = o.begin(); m != o.end(); ++m)
                    w.value(m.key(), *m);
                w.endObject();
            } else {
                w.value(it.key(), *it);
            }
        }
        w.endObject();
        w.finish();
    }
    return toDevice ? bytes : text.toUtf8();
}

} // namespace

class TestJsonStreamWriter : public QObject
{
    Q_OBJECT

private slots:
    void sameAsDocument_data()
    {
        QTest::addColumn<QJsonObject>("doc");
        QTest::newRow("empty") << QJsonObject();
        QTest::newRow("scalars") << QJsonObject{{QStringLiteral("a"), 1}, {QStringLiteral("b"), QStringLiteral("x\"y\\n\u00e9")},
                                                {QStringLiteral("c"), true}, {QStringLiteral("d"), QJsonValue::Null},
                                                {QStringLiteral("e"), 1.5}, {QStringLiteral("f"), -9007199254740991LL}};
        QTest::newRow("empty containers") << QJsonObject{{QStringLiteral("list"), QJsonArray()}, {QStringLiteral("obj"), QJsonObject()},
                                                         {QStringLiteral("x"), QJsonObject()}};
        const QJsonObject finding{{QStringLiteral("code"), QStringLiteral("STREAM_MISSING")},
                                  {QStringLiteral("evidence"), QJsonObject{{QStringLiteral("expected"), QJsonArray{1, QJsonArray{}, QJsonObject{}}},
                                                                           {QStringLiteral("actual"), QJsonValue::Null}}},
                                  {QStringLiteral("explains"), QJsonArray{QStringLiteral("a \"quoted\" line"), QStringLiteral("b")}}};
        QTest::newRow("nested") << QJsonObject{{QStringLiteral("findings"), QJsonArray{finding, finding, 3, QStringLiteral("s")}},
                                               {QStringLiteral("obj"), QJsonObject{{QStringLiteral("inner"), finding}, {QStringLiteral("n"), 2}}},
                                               {QStringLiteral("summary"), QJsonObject{{QStringLiteral("critical"), 0}}},
                                               {QStringLiteral("key with \"quotes\" and \u00fc"), QJsonArray{QJsonArray{QJsonArray{}}}}};
    }

    void sameAsDocument()
    {
        QFETCH(QJsonObject, doc);
        const QByteArray expected = QJsonDocument(doc).toJson(QJsonDocument::Indented);
        QCOMPARE(streamed(doc, true), expected);
        QCOMPARE(streamed(doc, false), expected);
    }

    void finishClosesWhatIsOpen()
    {
        QString text;
        QTextStream out(&text);
        {
            JsonStreamWriter w(out);
            w.beginObject();
            w.beginArray(QStringLiteral("sessions"));
            w.value({}, QJsonObject{{QStringLiteral("id"), 1}});
            // Destroyed half-way (an error): the text is still one valid JSON object.
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value(QLatin1String("sessions")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestJsonStreamWriter)
#include "tst_jsonstreamwriter.moc"
