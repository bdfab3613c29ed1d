# What is in flight in the main window (session details, the "In flight" tab) against a real server.
find_package(Qt6 REQUIRED COMPONENTS Network)
mqttdoctor_add_test(tst_inflightview SOURCES tst_inflightview.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.h
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport Qt6::Network LABELS gui TIMEOUT 240)
# Qt Network (the raw MQTT socket) is not in the shared precompiled header's flags.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/tst_inflightview.cpp ${PROJECT_SOURCE_DIR}/tests/support/rawmqtt.cpp
    TARGET_DIRECTORY tst_inflightview PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
