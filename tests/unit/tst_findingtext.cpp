// The compact forms of a finding's text and evidence (FindingPattern, FindingText, FindingEvidence): what
// they render, and that writing them to JSON gives the bytes the rendered values give.
#include <QJsonArray>
#include <QJsonObject>
#include <QTest>
#include <QTextStream>

#include "common/jsonstreamwriter.h"
#include "diagnosis/evidencepattern.h"
#include "diagnosis/findingevidence.h"
#include "diagnosis/findingpattern.h"
#include "diagnosis/findingtext.h"

using namespace MqttDoctor;

namespace {

const QStringList keys{QStringLiteral("client_id"), QStringLiteral("consumer")};

// What `write` writes as the only member of an object.
template<typename Write>
QString written(const Write &write)
{
    QString text;
    {
        QTextStream out(&text);
        JsonStreamWriter w(out);
        w.beginObject();
        write(w);
        w.endObject();
        w.finish();
    }
    return text;
}

} // namespace

class TestFindingText : public QObject
{
    Q_OBJECT

private slots:
    void patternFillsKnownKeysOnly()
    {
        const FindingPattern p(u"Consumer {consumer} of {client_id}: {unknown} {client_id}{ {x", keys);
        const QStringList args{QStringLiteral("dev-1"), QStringLiteral("abc_1")};
        QCOMPARE(p.render(args), QStringLiteral("Consumer abc_1 of dev-1: {unknown} dev-1{ {x"));
        QCOMPARE(p.renderedSize(args), p.render(args).size());
        // Arguments are inserted as they are: braces or %1 in them are not filled again.
        const QStringList odd{QStringLiteral("{consumer} %1"), QStringLiteral("x")};
        QCOMPARE(p.render(odd), QStringLiteral("Consumer x of {consumer} %1: {unknown} {consumer} %1{ {x"));
        // Missing arguments are empty.
        QCOMPARE(FindingPattern(u"a{consumer}b", keys).render({QStringLiteral("only")}), QStringLiteral("ab"));
        QCOMPARE(FindingPattern(u"no placeholders", keys).render({}), QStringLiteral("no placeholders"));
    }

    void patternWritesWhatTheRenderedTextWrites()
    {
        // Escapes in the fixed text and in the arguments, non-ASCII and a pair of surrogates.
        const FindingPattern p(u"Session \"{client_id}\"\tnames {consumer} — \\ done", keys);
        const QStringList args{QStringLiteral("dev\"1\n\u00e9"), QString::fromUtf8("\xf0\x9f\x98\x80 x")};
        const QString expected = written([&](JsonStreamWriter &w) { w.string(QStringLiteral("detail"), p.render(args)); });
        QCOMPARE(written([&](JsonStreamWriter &w) { p.writeJson(w, QStringLiteral("detail"), args); }), expected);
        QVERIFY(expected.contains(QStringLiteral("\\\"dev\\\"1\\n")));
    }

    void textReadsLikeAString()
    {
        static const FindingPattern p(u"Consumer {consumer} of session {client_id} does not exist", keys);
        const FindingText deferred(p, {QStringLiteral("dev-1"), QStringLiteral("abc_1")});
        const QString rendered = QStringLiteral("Consumer abc_1 of session dev-1 does not exist");
        QVERIFY(deferred.isDeferred());
        QCOMPARE(deferred.toString(), rendered);
        QCOMPARE(QString(deferred), rendered);
        QVERIFY(deferred == rendered);
        QVERIFY(rendered == deferred);
        QVERIFY(deferred == FindingText(rendered));
        QVERIFY(deferred != QStringLiteral("Consumer"));
        QCOMPARE(deferred.size(), rendered.size());
        QVERIFY(!deferred.isEmpty());
        QVERIFY(deferred.contains(QStringLiteral("abc_1 of")));
        QVERIFY(deferred.startsWith(QStringLiteral("Consumer abc")));
        QVERIFY(!deferred.contains(QStringLiteral("{consumer}")));
        QString appended = QStringLiteral("> ");
        deferred.appendTo(appended);
        QCOMPARE(appended, QStringLiteral("> ") + rendered);
        QString streamed;
        QTextStream(&streamed) << deferred;
        QCOMPARE(streamed, rendered);

        FindingText more = deferred;
        more += QStringLiteral(" (more)");
        QVERIFY(!more.isDeferred());
        QCOMPARE(more.toString(), rendered + QStringLiteral(" (more)"));
        QCOMPARE(deferred.toString(), rendered);

        const FindingText plain = QStringLiteral("plain");
        QVERIFY(!plain.isDeferred());
        QCOMPARE(plain.toString(), QStringLiteral("plain"));
        QVERIFY(FindingText().isEmpty());
        QCOMPARE(written([&](JsonStreamWriter &w) { deferred.writeJson(w, QStringLiteral("title")); }),
                 written([&](JsonStreamWriter &w) { w.string(QStringLiteral("title"), rendered); }));
        QCOMPARE(written([&](JsonStreamWriter &w) { plain.writeJson(w, QStringLiteral("title")); }),
                 written([&](JsonStreamWriter &w) { w.string(QStringLiteral("title"), QStringLiteral("plain")); }));
    }

    void evidenceReadsLikeAJsonValue()
    {
        static const EvidencePattern shape(
            {{QStringLiteral("stream"), QStringLiteral("$MQTT_{consumer}")}, {QStringLiteral("consumer"), QStringLiteral("{consumer}")}},
            keys);
        const FindingEvidence deferred(shape, {QStringLiteral("dev-1"), QStringLiteral("abc_1")});
        const QJsonObject object{{QStringLiteral("consumer"), QStringLiteral("abc_1")},
                                 {QStringLiteral("stream"), QStringLiteral("$MQTT_abc_1")}};
        QCOMPARE(deferred.toJsonValue(), QJsonValue(object));
        QCOMPARE(deferred.toObject(), object);
        QVERIFY(deferred.isObject());
        QVERIFY(!deferred.isUndefined() && !deferred.isNull());
        QVERIFY(deferred == FindingEvidence(object));
        QCOMPARE(written([&](JsonStreamWriter &w) { deferred.writeJson(w, QStringLiteral("expected")); }),
                 written([&](JsonStreamWriter &w) { w.value(QStringLiteral("expected"), object); }));

        // Any value a QJsonValue is made from; null by default, as a QJsonValue.
        QVERIFY(FindingEvidence().isNull());
        QCOMPARE(FindingEvidence(QStringLiteral("missing")).toString(), QStringLiteral("missing"));
        QCOMPARE(FindingEvidence(qint64(9007199254740993LL)).toInteger(), qint64(9007199254740993LL));
        QCOMPARE(FindingEvidence(QJsonArray{1, 2}).toArray(), (QJsonArray{1, 2}));
        QVERIFY(FindingEvidence(QJsonValue(QJsonValue::Undefined)).isUndefined());
        const FindingEvidence plain = QJsonObject{{QStringLiteral("messages"), 1}};
        QCOMPARE(written([&](JsonStreamWriter &w) { plain.writeJson(w, QStringLiteral("actual")); }), written([&](JsonStreamWriter &w) {
                     w.value(QStringLiteral("actual"), QJsonObject{{QStringLiteral("messages"), 1}});
                 }));
    }
};

QTEST_APPLESS_MAIN(TestFindingText)
#include "tst_findingtext.moc"
