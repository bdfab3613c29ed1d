#include "subjectoverlap.h"

namespace MqttDoctor {

namespace {

const QChar kSep = QLatin1Char('.');

bool isFwc(const QString &t)
{
    return t == QLatin1String(">");
}

bool isPwc(const QString &t)
{
    return t == QLatin1String("*");
}

} // namespace

bool isValidSubjectFilter(const QString &subject)
{
    if (subject.isEmpty())
        return false;
    const QStringList tokens = subject.split(kSep);
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const QString &t = tokens.at(i);
        if (t.isEmpty())
            return false;
        for (const QChar c : t)
            if (c.isSpace())
                return false;
        if (isFwc(t) && i != tokens.size() - 1)
            return false;
    }
    return true;
}

bool subjectsOverlap(const QString &a, const QString &b)
{
    if (!isValidSubjectFilter(a) || !isValidSubjectFilter(b))
        return false;
    const QStringList ta = a.split(kSep);
    const QStringList tb = b.split(kSep);
    for (qsizetype i = 0;; ++i) {
        const bool endA = i >= ta.size();
        const bool endB = i >= tb.size();
        if (endA && endB)
            return true;
        // '>' matches one or more tokens: the other side must still have one, of any kind.
        if (!endA && isFwc(ta.at(i)))
            return !endB;
        if (!endB && isFwc(tb.at(i)))
            return !endA;
        if (endA || endB)
            return false;
        if (isPwc(ta.at(i)) || isPwc(tb.at(i)) || ta.at(i) == tb.at(i))
            continue;
        return false;
    }
}

bool subjectIsSubsetOf(const QString &a, const QString &b)
{
    if (!isValidSubjectFilter(a) || !isValidSubjectFilter(b))
        return false;
    const QStringList ta = a.split(kSep);
    const QStringList tb = b.split(kSep);
    for (qsizetype i = 0; i < ta.size(); ++i) {
        if (i >= tb.size())
            return false;
        const QString &x = ta.at(i);
        const QString &y = tb.at(i);
        if (isFwc(y))
            return true; // a still has at least this token
        if (isFwc(x))
            return false; // a matches any depth, b a fixed one
        if (isPwc(y))
            continue;
        if (isPwc(x) || x != y)
            return false;
    }
    return ta.size() == tb.size();
}

bool subjectCoveredBy(const QString &a, const QStringList &filters)
{
    // Single-filter containment only: a union covering `a` without one filter containing it
    // ("a.>" by "a.*" + "a.*.>") does not occur with the MQTT stream subjects.
    for (const QString &f : filters)
        if (subjectIsSubsetOf(a, f))
            return true;
    return false;
}

} // namespace MqttDoctor
