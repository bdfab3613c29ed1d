// mqttdoctor-docgen: the build's maker of the documents that come from a program's own tables
// (`--help-json`): man pages (with sections of Markdown documents), the bash completion, and the
// check that docs/cli.md names every command and option of the table.
//
//   mqttdoctor-docgen man --table T.json --version V --date YYYY-MM-DD --out F
//                         [--section "TITLE=FILE.md#Heading"]... [--see-also "page(1)"]...
//   mqttdoctor-docgen bash --table T.json --out F
//   mqttdoctor-docgen check-docs --table T.json --docs docs/cli.md
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QTextStream>

#include "bashcompletionwriter.h"
#include "docscoverage.h"
#include "manpagewriter.h"
#include "markdownsection.h"

using namespace MqttDoctor::Docgen;

namespace {

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

bool readText(const QString &path, QString *text)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        err() << "mqttdoctor-docgen: cannot read " << path << ": " << f.errorString() << '\n';
        return false;
    }
    *text = QString::fromUtf8(f.readAll());
    return true;
}

bool writeText(const QString &path, const QString &text)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text.toUtf8()) < 0 || !f.commit()) {
        err() << "mqttdoctor-docgen: cannot write " << path << ": " << f.errorString() << '\n';
        return false;
    }
    return true;
}

bool readTable(const QString &path, QJsonObject *table)
{
    QString text;
    if (!readText(path, &text))
        return false;
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &e);
    if (!doc.isObject() || doc.object().value(QStringLiteral("program")).toString().isEmpty()) {
        err() << "mqttdoctor-docgen: " << path << " is not a --help-json table"
              << (e.error ? QStringLiteral(": ") + e.errorString() : QString()) << '\n';
        return false;
    }
    *table = doc.object();
    return true;
}

/** "EXIT STATUS=docs/cli.md#Exit codes": the section's title and its roff, or false with a message. */
bool section(const QString &spec, ManPageWriter::Section *out)
{
    const qsizetype eq = spec.indexOf(QLatin1Char('='));
    const qsizetype hash = spec.indexOf(QLatin1Char('#'), eq);
    if (eq <= 0 || hash < 0) {
        err() << "mqttdoctor-docgen: --section wants TITLE=FILE#Heading, not \"" << spec << "\"\n";
        return false;
    }
    const QString file = spec.mid(eq + 1, hash - eq - 1);
    const QString heading = spec.mid(hash + 1);
    QString markdown;
    if (!readText(file, &markdown))
        return false;
    const MarkdownSection found = MarkdownSection::find(markdown, heading);
    if (found.isEmpty()) {
        err() << "mqttdoctor-docgen: " << file << " has no section \"" << heading << "\"\n";
        return false;
    }
    *out = {spec.left(eq), found.toRoff()};
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("what"), QStringLiteral("man, bash or check-docs"));
    const QCommandLineOption tableOption(QStringLiteral("table"), QStringLiteral("The program's --help-json output."),
                                         QStringLiteral("file"));
    const QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("Where to write."), QStringLiteral("file"));
    const QCommandLineOption versionOption(QStringLiteral("version"), QStringLiteral("The project's version."), QStringLiteral("v"));
    const QCommandLineOption dateOption(QStringLiteral("date"), QStringLiteral("The release date."), QStringLiteral("date"));
    const QCommandLineOption sectionOption(QStringLiteral("section"), QStringLiteral("TITLE=FILE.md#Heading"), QStringLiteral("spec"));
    const QCommandLineOption seeAlsoOption(QStringLiteral("see-also"), QStringLiteral("A page for SEE ALSO."), QStringLiteral("page"));
    const QCommandLineOption docsOption(QStringLiteral("docs"), QStringLiteral("The Markdown reference."), QStringLiteral("file"));
    parser.addOptions({tableOption, outOption, versionOption, dateOption, sectionOption, seeAlsoOption, docsOption});
    parser.process(app);
    const QString what = parser.positionalArguments().value(0);

    QJsonObject table;
    if (!readTable(parser.value(tableOption), &table))
        return 1;
    if (what == QStringLiteral("man")) {
        table.insert(QStringLiteral("version"), parser.value(versionOption));
        ManPageWriter writer(table, parser.value(dateOption),
                             QStringLiteral("\"%1 --help-json\"").arg(table.value(QStringLiteral("program")).toString()));
        for (const QString &spec : parser.values(sectionOption)) {
            ManPageWriter::Section s;
            if (!section(spec, &s))
                return 1;
            writer.addSection(s);
        }
        writer.setSeeAlso(parser.values(seeAlsoOption));
        return writeText(parser.value(outOption), writer.page()) ? 0 : 1;
    }
    if (what == QStringLiteral("bash")) {
        QString error;
        const QString script = BashCompletionWriter(table).script(&error);
        if (script.isEmpty()) {
            err() << "mqttdoctor-docgen: " << error << '\n';
            return 1;
        }
        return writeText(parser.value(outOption), script) ? 0 : 1;
    }
    if (what == QStringLiteral("check-docs")) {
        QString markdown;
        if (!readText(parser.value(docsOption), &markdown))
            return 1;
        const QStringList differences = DocsCoverage::differences(table, markdown);
        for (const QString &d : differences)
            err() << QFileInfo(parser.value(docsOption)).fileName() << ": " << d << '\n';
        if (!differences.isEmpty())
            return 1;
        QTextStream(stdout) << "docs and command table agree: " << table.value(QStringLiteral("commands")).toArray().size()
                            << " commands\n";
        return 0;
    }
    err() << "mqttdoctor-docgen: say man, bash or check-docs\n";
    return 64;
}
