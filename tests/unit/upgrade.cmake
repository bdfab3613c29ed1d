# Server-level findings (version advisories, the JetStream meta group) and upgrade readiness.
mqttdoctor_add_test(tst_serverfindings SOURCES tst_serverfindings.cpp capturedlogs.h LIBRARIES mqttdoctor_core LABELS unit)
mqttdoctor_add_test(tst_upgradereadiness SOURCES tst_upgradereadiness.cpp LIBRARIES mqttdoctor_core LABELS unit)
