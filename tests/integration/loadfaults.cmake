mqttdoctor_add_test(tst_loadfaults SOURCES tst_loadfaults.cpp mqttload.cpp mqttload.h repairrun.h livecheck.h LIBRARIES mqttdoctor_core mqttdoctor_testsupport LABELS integration TIMEOUT 900 COST 51)
