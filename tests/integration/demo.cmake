# The demo server's scenario (tools/demo: mqttdoctor_demoscenario): seeded problems found and repaired.
mqttdoctor_add_test(tst_demoscenario SOURCES tst_demoscenario.cpp livecheck.h LIBRARIES mqttdoctor_demoscenario mqttdoctor_core mqttdoctor_testsupport LABELS integration TIMEOUT 900 COST 80)
