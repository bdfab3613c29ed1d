# Browsing an account: the record-view models (QAbstractItemModelTester) and the main window's
# findings, sessions, retained and consumers views against a real nats-server with mosquitto-made state.
mqttdoctor_add_test(tst_browsemodels SOURCES tst_browsemodels.cpp LIBRARIES mqttdoctor_models LABELS gui)
mqttdoctor_add_test(tst_accountbrowse SOURCES tst_accountbrowse.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 240)
