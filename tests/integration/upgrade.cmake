# Upgrade readiness, deliberate deviations of $MQTT_rmsgs, Sparkplug B births and the JetStream meta group on real servers.
find_package(Qt6 REQUIRED COMPONENTS Network)
mqttdoctor_add_test(tst_upgradereadiness_live SOURCES tst_upgradereadiness.cpp livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport Qt6::Network
    LABELS integration TIMEOUT 300 COST 30)
# Qt Network (the raw MQTT socket) is not in the shared precompiled header's flags.
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/tst_upgradereadiness.cpp TARGET_DIRECTORY tst_upgradereadiness_live
    PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
