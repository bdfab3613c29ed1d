# `events`: MQTT client connects and disconnects followed through the system account (real servers, mosquitto).
mqttdoctor_add_test(tst_events SOURCES tst_events.cpp livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport LABELS integration TIMEOUT 600 COST 40)
