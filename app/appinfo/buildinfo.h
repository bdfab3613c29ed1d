#pragma once

#include <QString>

namespace MqttDoctor {

/**
 * What a build is made of, for `--version` of both programs: the project's version, the git commit
 * the build was made from (taken at build time; "unknown" outside a git checkout), and the Qt and
 * nats.c versions it was built with and runs with.
 */
class BuildInfo final
{
public:
    static QString version();
    /** 12 hex digits, with "-modified" when tracked files differed from the commit; "unknown" outside git. */
    static QString commit();
    /** The Qt library in use, and the one built against when they differ: "6.4.2" or "6.4.3 (built with 6.4.2)". */
    static QString qtVersion();
    /** The nats.c library in use, and the one built against when they differ. */
    static QString natsVersion();
    /** `program`'s version text: "<program> <version>" then the commit, Qt and nats.c lines. */
    static QString versionText(const QString &program);
};

} // namespace MqttDoctor
