#include "bashcompletionwriter.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace MqttDoctor::Docgen {

namespace {

enum class ValueKind { None, Word, File, Directory };

ValueKind kindOf(const QString &valueName)
{
    if (valueName.isEmpty())
        return ValueKind::None;
    if (valueName.contains(QStringLiteral("dir"), Qt::CaseInsensitive))
        return ValueKind::Directory;
    if (valueName.contains(QStringLiteral("file"), Qt::CaseInsensitive) || valueName.contains(QStringLiteral("path"), Qt::CaseInsensitive))
        return ValueKind::File;
    return ValueKind::Word;
}

struct Options
{
    QStringList all; ///< every spelling: -s --server
    QStringList values; ///< spellings that take a value
    QStringList files; ///< ... a file
    QStringList dirs; ///< ... a directory
};

Options collect(const QJsonArray &options)
{
    Options out;
    for (const QJsonValue &v : options) {
        const QJsonObject o = v.toObject();
        const ValueKind kind = kindOf(o.value(QStringLiteral("value")).toString());
        for (const QJsonValue &n : o.value(QStringLiteral("names")).toArray()) {
            const QString name = (n.toString().size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + n.toString();
            out.all << name;
            if (kind != ValueKind::None)
                out.values << name;
            if (kind == ValueKind::File)
                out.files << name;
            if (kind == ValueKind::Directory)
                out.dirs << name;
        }
    }
    return out;
}

QString functionName(const QString &program)
{
    QString name = program;
    name.replace(QLatin1Char('-'), QLatin1Char('_'));
    return QLatin1Char('_') + name;
}

} // namespace

QString BashCompletionWriter::script(QString *error) const
{
    static const QRegularExpression word(QStringLiteral("^-{0,2}[A-Za-z0-9][A-Za-z0-9_-]*$"));
    const QString program = m_table.value(QStringLiteral("program")).toString();
    const Options global = collect(m_table.value(QStringLiteral("options")).toArray());
    QStringList commands;
    QStringList valueOptions = global.values;
    QStringList fileOptions = global.files;
    QStringList dirOptions = global.dirs;
    QString perCommand;
    QStringList fileArgumentCommands;
    QStringList every{program};
    every += global.all;
    for (const QJsonValue &v : m_table.value(QStringLiteral("commands")).toArray()) {
        const QJsonObject c = v.toObject();
        const QString name = c.value(QStringLiteral("name")).toString();
        const Options own = collect(c.value(QStringLiteral("options")).toArray());
        commands << name;
        every << name << own.all;
        valueOptions += own.values;
        fileOptions += own.files;
        dirOptions += own.dirs;
        if (!own.all.isEmpty())
            perCommand += QStringLiteral("        %1) options+=\" %2\" ;;\n").arg(name, own.all.join(QLatin1Char(' ')));
        for (const QJsonValue &a : c.value(QStringLiteral("arguments")).toArray())
            if (kindOf(a.toObject().value(QStringLiteral("name")).toString()) == ValueKind::File)
                fileArgumentCommands << name;
    }
    for (const QString &w : every)
        if (!word.match(w).hasMatch()) {
            *error = QStringLiteral("\"%1\" is not a plain word").arg(w);
            return {};
        }
    const auto unique = [](QStringList list) {
        list.removeDuplicates();
        return list;
    };
    const auto alternatives = [](const QStringList &list) {
        return list.isEmpty() ? QStringLiteral("--never-an-option") : list.join(QLatin1Char('|'));
    };

    QString s;
    s += QStringLiteral("# bash completion for %1\n# Made by the build from \"%1 --help-json\" (its command table); do not edit.\n\n")
             .arg(program);
    s += functionName(program) + QStringLiteral("()\n{\n");
    s += QStringLiteral("    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\"\n");
    s += QStringLiteral("    (( COMP_CWORD > 0 )) && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n");
    s += QStringLiteral("    local commands=\"%1\"\n").arg(commands.join(QLatin1Char(' ')));
    s += QStringLiteral("    local options=\"%1\"\n").arg(global.all.join(QLatin1Char(' ')));
    s += QStringLiteral("    local command=\"\" word i\n");
    s += QStringLiteral("    for (( i = 1; i < COMP_CWORD; i++ )); do\n");
    s += QStringLiteral("        word=\"${COMP_WORDS[i]}\"\n");
    s += QStringLiteral("        case \"$word\" in\n");
    s += QStringLiteral("            %1) (( i++ )) ;;\n").arg(alternatives(unique(valueOptions)));
    s += QStringLiteral("            -*) ;;\n");
    s += QStringLiteral("            *) command=\"$word\"; break ;;\n");
    s += QStringLiteral("        esac\n    done\n");
    s += QStringLiteral("    case \"$prev\" in\n");
    s += QStringLiteral("        %1) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- \"$cur\") ); return ;;\n")
             .arg(alternatives(unique(fileOptions)));
    s += QStringLiteral("        %1) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -d -- \"$cur\") ); return ;;\n")
             .arg(alternatives(unique(dirOptions)));
    s += QStringLiteral("        %1) COMPREPLY=(); return ;;\n").arg(alternatives(unique(valueOptions)));
    s += QStringLiteral("    esac\n");
    s += QStringLiteral("    case \"$command\" in\n") + perCommand + QStringLiteral("    esac\n");
    s += QStringLiteral("    if [[ \"$cur\" == -* ]]; then\n");
    s += QStringLiteral("        COMPREPLY=( $(compgen -W \"$options\" -- \"$cur\") )\n");
    s += QStringLiteral("    elif [[ -z \"$command\" ]]; then\n");
    s += QStringLiteral("        COMPREPLY=( $(compgen -W \"$commands\" -- \"$cur\") )\n");
    s += QStringLiteral("    else\n");
    s += QStringLiteral("        case \"$command\" in\n");
    if (!fileArgumentCommands.isEmpty())
        s += QStringLiteral("            %1) compopt -o filenames 2>/dev/null; COMPREPLY=( $(compgen -f -- \"$cur\") ) ;;\n")
                 .arg(unique(fileArgumentCommands).join(QLatin1Char('|')));
    s += QStringLiteral("            *) COMPREPLY=() ;;\n");
    s += QStringLiteral("        esac\n    fi\n}\n");
    s += QStringLiteral("complete -F %1 %2\n").arg(functionName(program), program);
    return s;
}

} // namespace MqttDoctor::Docgen
