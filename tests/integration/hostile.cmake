# Hostile server replies and limits: a poisoned responder on a real nats-server,
# timeouts, bounded memory, denied subjects.
mqttdoctor_add_test(tst_hostile SOURCES tst_hostile.cpp LIBRARIES mqttdoctor_core mqttdoctor_testsupport mqttdoctor_poisonedresponder LABELS integration TIMEOUT 600 COST 110)

mqttdoctor_add_test(tst_limits SOURCES tst_limits.cpp LIBRARIES mqttdoctor_core mqttdoctor_testsupport LABELS integration TIMEOUT 600)
