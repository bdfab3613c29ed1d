# CONSUMER_STUCK, SESSION_DURABLE_REPLACED, INTEREST_PINNED and JETSTREAM_API_ERRORS against real servers (with
# a raw subscriber that never acknowledges) and the repairs of the first two.
find_package(Qt6 REQUIRED COMPONENTS Network)
mqttdoctor_add_test(tst_deliveryfindings SOURCES tst_deliveryfindings.cpp livecheck.h repairrun.h
    ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.h
    ${PROJECT_SOURCE_DIR}/tests/support/silentsubscriber.cpp ${PROJECT_SOURCE_DIR}/tests/support/silentsubscriber.h
    LIBRARIES mqttdoctor_core mqttdoctor_testsupport Qt6::Network LABELS integration TIMEOUT 180 COST 15)
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/tst_deliveryfindings.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp ${PROJECT_SOURCE_DIR}/tests/support/silentsubscriber.cpp
    TARGET_DIRECTORY tst_deliveryfindings PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
