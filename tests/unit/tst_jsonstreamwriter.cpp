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
        QTest::newRow("scalars") << QJsonObject{{QStringLiteral("a"), 1},    {QStringLiteral("b"), QStringLiteral("x\"y\\n\u00e9")},
                                                {QStringLiteral("c"), true}, {QStringLiteral("d"), QJsonValue::Null},
                                                {QStringLiteral("e"), 1.5},  {QStringLiteral("f"), -9007199254740991LL}};
        QTest::newRow("empty containers") << QJsonObject{
            {QStringLiteral("list"), QJsonArray()}, {QStringLiteral("obj"), QJsonObject()}, {QStringLiteral("x"), QJsonObject()}};
        const QJsonObject finding{{QStringLiteral("code"), QStringLiteral("STREAM_MISSING")},
                                  {QStringLiteral("evidence"),
                                   QJsonObject{{QStringLiteral("expected"), QJsonArray{1, QJsonArray{}, QJsonObject{}}},
                                               {QStringLiteral("actual"), QJsonValue::Null}}},
                                  {QStringLiteral("explains"), QJsonArray{QStringLiteral("a \"quoted\" line"), QStringLiteral("b")}}};
        QTest::newRow("nested") << QJsonObject{
            {QStringLiteral("findings"), QJsonArray{finding, finding, 3, QStringLiteral("s")}},
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

    // The typed members write what value() writes for the same QJsonValue, escapes and UTF-8 included,
    // also across the writer's buffer (many members: more than one flush).
    void typedScalarsAsDocument()
    {
        const QList<QString> texts{QString(),
                                   QStringLiteral("plain"),
                                   QStringLiteral("q\"b\\s/"),
                                   QStringLiteral("\b\f\n\r\t"),
                                   QString(QChar(1)) + QChar(0x1f) + QChar(0x7f),
                                   QStringLiteral("caf\u00e9 \u20ac \u4e2d"),
                                   QString::fromUtf8("\xf0\x9f\x98\x80 emoji"),
                                   QString(QChar(0xd800)) + QStringLiteral("lone"),
                                   QString(70000, QLatin1Char('x'))};
        QJsonObject expected;
        QByteArray bytes;
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        {
            QTextStream out(&buffer);
            JsonStreamWriter w(out);
            w.beginObject();
            w.beginArray(QStringLiteral("a"));
            QJsonArray list;
            for (int round = 0; round < 300; ++round)
                for (const QString &t : texts) {
                    w.string({}, t);
                    list.append(t);
                }
            w.endArray();
            expected.insert(QStringLiteral("a"), list);
            w.boolean(QStringLiteral("b"), true);
            expected.insert(QStringLiteral("b"), true);
            w.boolean(QStringLiteral("c"), false);
            expected.insert(QStringLiteral("c"), false);
            w.null(QStringLiteral("d"));
            expected.insert(QStringLiteral("d"), QJsonValue::Null);
            w.number(QStringLiteral("e"), -9007199254740993LL);
            expected.insert(QStringLiteral("e"), -9007199254740993LL);
            w.stringOrNull(QStringLiteral("f"), QString());
            expected.insert(QStringLiteral("f"), QJsonValue::Null);
            w.strings(QStringLiteral("g"), QStringList{QStringLiteral("x"), QStringLiteral("\u00fc")});
            expected.insert(QStringLiteral("g"), QJsonArray{QStringLiteral("x"), QStringLiteral("\u00fc")});
            w.string(QString::fromUtf8("h \xc3\xbc \"key\""), QStringLiteral("v"));
            expected.insert(QString::fromUtf8("h \xc3\xbc \"key\""), QStringLiteral("v"));
            w.endObject();
            w.finish();
        }
        QCOMPARE(bytes, QJsonDocument(expected).toJson(QJsonDocument::Indented));
    }
};

QTEST_GUILESS_MAIN(TestJsonStreamWriter)
#include "tst_jsonstreamwriter.moc"
