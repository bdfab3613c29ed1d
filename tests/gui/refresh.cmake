# Main window: auto refresh, the status bar, the stream expected-vs-actual
# view, the record-view icons and the sessions table's worker sort. The model tests need no server;
# the window tests start a real nats-server (tests/support) and make MQTT state with mosquitto.
mqttdoctor_add_test(tst_streamdiffmodel SOURCES tst_streamdiffmodel.cpp LIBRARIES mqttdoctor_models LABELS gui)
mqttdoctor_add_test(tst_sessionsort SOURCES tst_sessionsort.cpp LIBRARIES mqttdoctor_models LABELS gui)
mqttdoctor_add_test(tst_autorefresh SOURCES tst_autorefresh.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 240)
mqttdoctor_add_test(tst_streamdiffview SOURCES tst_streamdiffview.cpp
    LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport LABELS gui TIMEOUT 240)
# The sessions filter matches on a worker (no server needed).
mqttdoctor_add_test(tst_sessionfilter SOURCES tst_sessionfilter.cpp LIBRARIES mqttdoctor_models LABELS gui)
mqttdoctor_add_test(tst_sessionspanelload SOURCES tst_sessionspanelload.cpp LIBRARIES mqttdoctor_ui LABELS gui)
mqttdoctor_add_test(tst_findingspanelorder SOURCES tst_findingspanelorder.cpp LIBRARIES mqttdoctor_ui LABELS gui)
