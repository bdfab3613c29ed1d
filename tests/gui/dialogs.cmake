# The repair wizard, the log explainer and the secret store. Offscreen;
# the wizard test starts a real nats-server 2.10 and drives mosquitto through tests/support.
mqttdoctor_add_test(tst_repairwizard SOURCES tst_repairwizard.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 300)
mqttdoctor_add_test(tst_logexplainer SOURCES tst_logexplainer.cpp LIBRARIES mqttdoctor_ui LABELS gui)
mqttdoctor_add_test(tst_secretstore SOURCES tst_secretstore.cpp LIBRARIES mqttdoctor_ui LABELS gui TIMEOUT 180)
# Upgrade readiness (Tools > Upgrade Readiness) against a real nats-server 2.10.
mqttdoctor_add_test(tst_upgradereadinessdialog SOURCES tst_upgradereadinessdialog.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 120)
# Tools > Probe MQTT against a real nats-server (newest), with a real MQTT client.
mqttdoctor_add_test(tst_mqttprobedialog SOURCES tst_mqttprobedialog.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 180)
