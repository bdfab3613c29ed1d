#pragma once

#include <vector>

#include <QString>
#include <QtGlobal>

#include "records/sessionloader.h"

namespace MqttDoctor {

/**
 * Sorting sessions off the GUI thread. The sessions table keeps its rows as pointers into immutable
 * batches, so a worker can read them while the GUI thread appends new batches: keys() reads what a
 * column sorts by, permutation() sorts those keys. Column -1 is the load order (the `$MQTT_sess`
 * sequence). Ties keep their current order. Pure; any thread, as long as the entries stay alive.
 */
namespace SessionSort {

struct Key
{
    qint64 number = 0;
    QString text;
};

/** One key per row, for SessionTableModel column `column` (-1: the stream sequence). */
std::vector<Key> keys(const std::vector<const SessionEntry *> &rows, int column);
/** The sorted order: element i is the index (into the keys) of the row that goes to row i. */
std::vector<int> permutation(const std::vector<Key> &keys, Qt::SortOrder order);

} // namespace SessionSort
} // namespace MqttDoctor
