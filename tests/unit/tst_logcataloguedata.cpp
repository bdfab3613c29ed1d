// The log catalogue's data file (src/diagnosis/logcatalogue.json, compiled in): its schema, its links to
// the finding catalogue and its causes, and clear errors for a malformed file.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include "diagnosis/findingcatalogue.h"
#include "diagnosis/logcatalogue.h"

using namespace MqttDoctor;
using namespace Qt::StringLiterals;

namespace {

QByteArray sourceFile()
{
    QFile f(qEnvironmentVariable("MQTTDOCTOR_SOURCE_DIR") + u"/src/diagnosis/logcatalogue.json"_s);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int verbCount(const QString &text)
{
    int verbs = 0;
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != u'%')
            continue;
        if (text.at(i + 1) != u'%')
            ++verbs;
        ++i;
    }
    return verbs;
}

QString errorOf(const QByteArray &json)
{
    const auto parsed = LogCatalogue::parseData(json);
    return parsed.ok() ? QString() : parsed.error().message();
}

} // namespace

class TestLogCatalogueData : public QObject
{
    Q_OBJECT

private slots:
    void compiledInIsTheSourceFile()
    {
        const QByteArray source = sourceFile();
        QVERIFY2(!source.isEmpty(), "src/diagnosis/logcatalogue.json not found (MQTTDOCTOR_SOURCE_DIR)");
        QFile compiled(LogCatalogue::dataResource());
        QVERIFY(compiled.open(QIODevice::ReadOnly));
        QCOMPARE(compiled.readAll(), source);
        QCOMPARE(LogCatalogue::entries().size(), LogCatalogue::parseData(source)->entries.size());
    }

    void everyEntryFollowsTheSchema()
    {
        const auto data = LogCatalogue::parseData(sourceFile());
        QVERIFY2(data.ok(), qPrintable(data.ok() ? QString() : data.error().message()));
        QVERIFY(data->entries.size() > 50);
        const QSet<QString> roles{u"account"_s,  u"client"_s, u"stream_label"_s, u"stream_name"_s, u"subject"_s,  u"request_subject"_s,
                                  u"kind"_s,     u"reply"_s,  u"seq"_s,          u"count"_s,       u"duration"_s, u"error"_s,
                                  u"consumer"_s, u"other"_s,  u"domain"_s,       u"js_code"_s};
        const QSet<QString> levels{u"ERR"_s, u"WRN"_s, u"INF"_s, u"DBG"_s, QString()};
        const QSet<QString> severities{u"info"_s, u"warning"_s, u"error"_s, u"critical"_s, QString()};
        const QSet<QString> captured{u"2.9.10"_s, u"2.10.27"_s, u"2.15.1"_s};
        QSet<QString> causeKeys;
        for (const LogCatalogueCause &c : data->causes) {
            causeKeys.insert(c.key);
            for (const QString &code : c.codes)
                QVERIFY2(FindingCatalogue::entry(code), qPrintable(c.key + u": unknown finding code "_s + code));
        }
        // Keys the matcher makes itself: a "<nil>" error, and a timeout resolved by request type.
        const QSet<QString> derivedKeys{u"nil"_s, u"timeout"_s};
        for (const LogCatalogueEntry &e : data->entries) {
            const QString id = e.id;
            QCOMPARE(verbCount(e.text), int(e.fields.size()));
            for (const QString &f : e.fields)
                QVERIFY2(roles.contains(f), qPrintable(id + u": unknown field role "_s + f));
            QVERIFY2(levels.contains(e.level), qPrintable(id + u": level "_s + e.level));
            QVERIFY2(severities.contains(e.severity), qPrintable(id + u": severity "_s + e.severity));
            QVERIFY2(!e.versions.isEmpty(), qPrintable(id + u": no versions"_s));
            for (const QString &v : e.verifiedOn)
                QVERIFY2(captured.contains(v), qPrintable(id + u": verified on an uncaptured version "_s + v));
            for (const QString &code : e.codes)
                QVERIFY2(FindingCatalogue::entry(code), qPrintable(id + u": unknown finding code "_s + code));
            for (auto it = e.codesByCause.cbegin(); it != e.codesByCause.cend(); ++it) {
                QVERIFY2(causeKeys.contains(it.key()) || derivedKeys.contains(it.key()), qPrintable(id + u": unknown cause "_s + it.key()));
                for (const QString &code : it.value())
                    QVERIFY2(FindingCatalogue::entry(code), qPrintable(id + u": unknown finding code "_s + code));
            }
            if (!e.causeKey.isEmpty())
                QVERIFY2(causeKeys.contains(e.causeKey) || derivedKeys.contains(e.causeKey),
                         qPrintable(id + u": cause_key "_s + e.causeKey));
            QVERIFY2(!e.meaning.isEmpty() || e.causeDecides, qPrintable(id + u": no meaning"_s));
            // Nothing is lost between the file and the entry.
            const auto back = LogCatalogueEntry::fromDataJson(e.toDataJson());
            QVERIFY(back.ok());
            QCOMPARE(back->toDataJson(), e.toDataJson());
        }
    }

    void malformedFilesAreRefusedWithTheReason()
    {
        QVERIFY(errorOf("{").contains(u"not JSON"_s));
        QVERIFY(errorOf(R"({"entries": {}, "causes": []})").contains(u"must be arrays"_s));
        QVERIFY(errorOf(R"({"entries": [], "causes": [], "extra": 1})").contains(u"unknown member 'extra'"_s));
        QCOMPARE(errorOf(R"({"entries": [{"id": "a.b", "template": "x %v", "colour": "red"}], "causes": []})"),
                 u"log catalogue entry a.b: unknown member 'colour'"_s);
        QCOMPARE(errorOf(R"({"entries": [{"id": "a.b"}], "causes": []})"), u"log catalogue entry a.b: member 'template' is missing"_s);
        QCOMPARE(errorOf(R"({"entries": [{"id": "a.b", "template": "x", "inner": "yes"}], "causes": []})"),
                 u"log catalogue entry a.b: member 'inner' must be true or false"_s);
        QVERIFY(errorOf(R"({"entries": [{"id": "a", "template": "x"}, {"id": "a", "template": "y"}], "causes": []})")
                    .contains(u"appears twice"_s));
        QVERIFY(errorOf(R"({"entries": [], "causes": [{"key": "js:1", "codes": "X"}]})").contains(u"must be an array of strings"_s));
        const auto ok = LogCatalogue::parseData(R"({"entries": [{"id": "a", "template": "x %q", "fields": ["account"]}], "causes": []})");
        QVERIFY(ok.ok());
        QCOMPARE(ok->entries.first().fields, QStringList{u"account"_s});
        QVERIFY(ok->entries.first().anchored);
    }
};

QTEST_GUILESS_MAIN(TestLogCatalogueData)
#include "tst_logcataloguedata.moc"
