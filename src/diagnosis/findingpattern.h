#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace MqttDoctor {

class JsonStreamWriter;

/**
 * A text with named placeholders, parsed once: "Consumer {consumer} of session {client_id} does not exist".
 * Each {key} that names one of the keys given at construction is filled from the argument at that key's
 * place when the text is rendered; any other brace text stays as it is (as FindingCatalogue::title()
 * fills a title template). Arguments are inserted as they are, in one pass: an argument that itself
 * holds "{key}" or "%1" is not filled again.
 *
 * What a finding made per session keeps instead of its text (FindingText): the pattern lives as long
 * as the program (a static of the check that makes the findings), the arguments are shared strings.
 * Immutable once made; any thread.
 */
class FindingPattern final
{
public:
    FindingPattern() = default;
    FindingPattern(QStringView text, const QStringList &keys);

    /** The text with each known placeholder replaced by args[its key's index] (an empty string past the end). */
    QString render(const QStringList &args) const;
    /** The same, appended to `out`. */
    void appendTo(QString &out, const QStringList &args) const;
    /** The size of render(args) without rendering it. */
    qsizetype renderedSize(const QStringList &args) const;
    /**
     * render(args) as the string `key` (JsonStreamWriter::string()), written without making it: the fixed
     * text was escaped once, only the arguments are escaped here.
     */
    void writeJson(JsonStreamWriter &w, const QString &key, const QStringList &args) const;

private:
    struct Piece
    {
        QString literal; ///< text before the placeholder (or the tail, for the last piece)
        QByteArray escaped; ///< `literal` as a JSON string holds it
        qsizetype arg = -1; ///< index of the argument after `literal`; -1: none (the tail)
    };
    QList<Piece> m_pieces;
    qsizetype m_literalSize = 0;
};

} // namespace MqttDoctor
