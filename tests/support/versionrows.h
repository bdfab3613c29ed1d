#pragma once

// The rows of a data function that runs a test once per nats-server version. Header only: the support
// library does not link QtTest, the test executables do.

#include <QTest>

#include "natsserverbinary.h"

namespace MqttDoctor::Test {

/** A "version" column with one row per version the tests run on (NatsServerBinary::testVersionLabels()). */
inline void addServerVersionRows()
{
    QTest::addColumn<QString>("version");
    for (const QString &label : NatsServerBinary::testVersionLabels())
        QTest::newRow(qPrintable(label)) << label;
}

} // namespace MqttDoctor::Test
