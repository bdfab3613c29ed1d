# CLI commands of the repair work: backup, restore and repair.
target_sources(nats-mqtt-doctor-cli PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/actioncommands.cpp ${CMAKE_CURRENT_SOURCE_DIR}/actioncommands.h
    ${CMAKE_CURRENT_SOURCE_DIR}/backupcommands.cpp ${CMAKE_CURRENT_SOURCE_DIR}/backupcommands.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repaircommand.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repaircommand.h
)
