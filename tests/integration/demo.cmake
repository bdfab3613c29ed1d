# The demo server's scenario (tools/demo: mqttdoctor_demoscenario): seeded problems found and repaired.
mqttdoctor_add_test(tst_demoscenario SOURCES tst_demoscenario.cpp livecheck.h LIBRARIES mqttdoctor_demoscenario mqttdoctor_core mqttdoctor_testsupport LABELS integration TIMEOUT 900 COST 80)
# The demo's profile holds every password: written 0600 (DemoScenario::writeProfile and the demo binary).
mqttdoctor_add_test(tst_demoprofile SOURCES tst_demoprofile.cpp LIBRARIES mqttdoctor_demoscenario mqttdoctor_testsupport LABELS integration TIMEOUT 400 COST 30)
