# What is in flight (session, inflight, QOS2_ORPHANED and its repair) against every server version.
find_package(Qt6 REQUIRED COMPONENTS Network)
mqttdoctor_add_test(tst_inflight SOURCES tst_inflight.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport Qt6::Network LABELS integration TIMEOUT 600 COST 60)
# Qt Network (the raw MQTT socket) is not in the shared precompiled header's flags.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/tst_inflight.cpp TARGET_DIRECTORY tst_inflight PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
set_source_files_properties(${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp TARGET_DIRECTORY tst_inflight PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
