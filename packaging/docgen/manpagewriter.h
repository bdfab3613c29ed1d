#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace MqttDoctor::Docgen {

/**
 * A man(7) page made from a program's `--help-json` table and sections of Markdown documents:
 * NAME and SYNOPSIS from the table, DESCRIPTION from Markdown, COMMANDS (each with its usage line,
 * summary, arguments and options) and OPTIONS from the table, then the other Markdown sections,
 * then SEE ALSO.
 */
class ManPageWriter final
{
public:
    struct Section
    {
        QString title; ///< "DESCRIPTION", "EXIT STATUS", ...
        QString roff; ///< the body
    };

    ManPageWriter(QJsonObject table, QString date, QString source);

    void addSection(const Section &section);
    void setSeeAlso(const QStringList &pages) { m_seeAlso = pages; }
    QString page() const;

private:
    QString options(const QJsonArray &options) const;
    QString commands() const;

    QJsonObject m_table;
    QString m_date;
    QString m_source;
    QList<Section> m_sections;
    QStringList m_seeAlso;
};

} // namespace MqttDoctor::Docgen
