#include "buildinfo.h"

#include "buildcommit.h"
#include "nats/natslibraryversion.h"

namespace MqttDoctor {

namespace {

QString inUseAndBuilt(const QString &inUse, const QString &built)
{
    return inUse == built ? inUse : QStringLiteral("%1 (built with %2)").arg(inUse, built);
}

} // namespace

QString BuildInfo::version()
{
    return QStringLiteral(MQTTDOCTOR_VERSION);
}

QString BuildInfo::commit()
{
    return QStringLiteral(MQTTDOCTOR_GIT_COMMIT);
}

QString BuildInfo::qtVersion()
{
    return inUseAndBuilt(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR));
}

QString BuildInfo::natsVersion()
{
    return inUseAndBuilt(NatsLibraryVersion::inUse(), NatsLibraryVersion::builtWith());
}

QString BuildInfo::versionText(const QString &program)
{
    return QStringLiteral("%1 %2\ncommit: %3\nQt: %4\nnats.c: %5\n").arg(program, version(), commit(), qtVersion(), natsVersion());
}

} // namespace MqttDoctor
