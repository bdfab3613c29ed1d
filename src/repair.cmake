# Repair: backup and restore of streams, the audit log (issue 5). Qt Core and nats.c only.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/auditlog.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/auditlog.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/backupfile.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/backupfile.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/backupformat.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/backupformat.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/privatefiles.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/privatefiles.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/jetstreampublisher.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/jetstreampublisher.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairprogress.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairtarget.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairtarget.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/streambackup.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/streambackup.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/streamcontent.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/streamcontent.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/streamrestore.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/streamrestore.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplan.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairplan.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairaction.cpp ${CMAKE_CURRENT_SOURCE_DIR}/repair/repairaction.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/actionfamilies.h
)
# The repair actions, one family per file set (repair/actions/*.cmake).
include(${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/streamactions.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/retainedactions.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/sessionactions.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/qos2actions.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/repair/planner.cmake OPTIONAL)
# The version recorded in backup headers, without recompiling the rest of the library on a version bump.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/repair/streambackup.cpp PROPERTIES
    COMPILE_DEFINITIONS MQTTDOCTOR_CORE_VERSION="${PROJECT_VERSION}")
