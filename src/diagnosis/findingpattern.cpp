#include "findingpattern.h"

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

FindingPattern::FindingPattern(QStringView text, const QStringList &keys)
{
    // The same scan as the catalogue's template filling: an opening brace, the next closing brace after
    // it, and what is between them is the key; unknown keys stay in the literal text.
    QString literal;
    qsizetype from = 0;
    for (;;) {
        const qsizetype open = text.indexOf(u'{', from);
        const qsizetype close = open < 0 ? -1 : text.indexOf(u'}', open + 1);
        if (close < 0) {
            literal += text.sliced(from);
            break;
        }
        literal += text.sliced(from, open - from);
        const qsizetype index = keys.indexOf(text.sliced(open + 1, close - open - 1).toString());
        if (index >= 0) {
            m_literalSize += literal.size();
            m_pieces.append(Piece{literal, JsonStreamWriter::escaped(literal), index});
            literal.clear();
        } else {
            literal += text.sliced(open, close - open + 1);
        }
        from = close + 1;
    }
    m_literalSize += literal.size();
    m_pieces.append(Piece{literal, JsonStreamWriter::escaped(literal), -1});
}

qsizetype FindingPattern::renderedSize(const QStringList &args) const
{
    qsizetype size = m_literalSize;
    for (const Piece &p : m_pieces)
        if (p.arg >= 0 && p.arg < args.size())
            size += args.at(p.arg).size();
    return size;
}

void FindingPattern::appendTo(QString &out, const QStringList &args) const
{
    out.reserve(out.size() + renderedSize(args));
    for (const Piece &p : m_pieces) {
        out += p.literal;
        if (p.arg >= 0 && p.arg < args.size())
            out += args.at(p.arg);
    }
}

void FindingPattern::writeJson(JsonStreamWriter &w, const QString &key, const QStringList &args) const
{
    w.beginString(key);
    for (const Piece &p : m_pieces) {
        w.escapedPiece(p.escaped);
        if (p.arg >= 0 && p.arg < args.size())
            w.textPiece(args.at(p.arg));
    }
    w.endString();
}

QString FindingPattern::render(const QStringList &args) const
{
    QString out;
    appendTo(out, args);
    return out;
}

} // namespace MqttDoctor
