# The account's "Pinned" tab (who keeps messages in the interest streams, the chart, the repair) against a real server.
mqttdoctor_add_test(tst_pinnedpanel SOURCES tst_pinnedpanel.cpp LIBRARIES mqttdoctor_ui mqttdoctor_guiwindowsteps mqttdoctor_testsupport
    LABELS gui TIMEOUT 120 COST 10)
