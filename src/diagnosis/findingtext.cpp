#include "findingtext.h"

#include <QTextStream>

#include "common/jsonstreamwriter.h"

namespace MqttDoctor {

QString FindingText::toString() const
{
    if (const QString *text = std::get_if<QString>(&m_value))
        return *text;
    const Deferred &d = std::get<Deferred>(m_value);
    return d.pattern->render(d.args);
}

void FindingText::appendTo(QString &out) const
{
    if (const QString *text = std::get_if<QString>(&m_value))
        out += *text;
    else
        std::get<Deferred>(m_value).pattern->appendTo(out, std::get<Deferred>(m_value).args);
}

void FindingText::writeJson(JsonStreamWriter &w, const QString &key) const
{
    if (const QString *text = std::get_if<QString>(&m_value))
        w.string(key, *text);
    else
        std::get<Deferred>(m_value).pattern->writeJson(w, key, std::get<Deferred>(m_value).args);
}

bool FindingText::isEmpty() const
{
    return size() == 0;
}

qsizetype FindingText::size() const
{
    if (const QString *text = std::get_if<QString>(&m_value))
        return text->size();
    const Deferred &d = std::get<Deferred>(m_value);
    return d.pattern->renderedSize(d.args);
}

bool FindingText::contains(QStringView text, Qt::CaseSensitivity cs) const
{
    if (const QString *plain = std::get_if<QString>(&m_value))
        return plain->contains(text, cs);
    return toString().contains(text, cs);
}

bool FindingText::contains(QChar c, Qt::CaseSensitivity cs) const
{
    return contains(QStringView(&c, 1), cs);
}

bool FindingText::startsWith(QStringView text, Qt::CaseSensitivity cs) const
{
    if (const QString *plain = std::get_if<QString>(&m_value))
        return plain->startsWith(text, cs);
    return toString().startsWith(text, cs);
}

FindingText &FindingText::operator+=(const QString &more)
{
    QString text = toString();
    text += more;
    m_value = std::move(text);
    return *this;
}

bool FindingText::equals(QStringView text) const
{
    if (const QString *plain = std::get_if<QString>(&m_value))
        return QStringView(*plain) == text;
    return size() == text.size() && QStringView(toString()) == text;
}

bool operator==(const FindingText &a, const FindingText &b)
{
    const auto *da = std::get_if<FindingText::Deferred>(&a.m_value);
    const auto *db = std::get_if<FindingText::Deferred>(&b.m_value);
    if (da && db && da->pattern == db->pattern && da->args == db->args)
        return true;
    if (const QString *plain = std::get_if<QString>(&b.m_value))
        return a.equals(*plain);
    return a.equals(b.toString());
}

QTextStream &operator<<(QTextStream &out, const FindingText &text)
{
    return out << text.toString();
}

} // namespace MqttDoctor
