# GUI responsiveness while 100,000 sessions load into the sessions view: prints the longest
# event-loop stall measured by a 5 ms timer (target < 50 ms). Offscreen; no assertion.
add_executable(bench_guiresponsiveness bench_guiresponsiveness.cpp benchdata.cpp benchdata.h stallmeter.cpp stallmeter.h)
mqttdoctor_set_warnings(bench_guiresponsiveness)
set_target_properties(bench_guiresponsiveness PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
target_link_libraries(bench_guiresponsiveness PRIVATE mqttdoctor_ui mqttdoctor_testsupport PkgConfig::NATS)

# The main window with a fleet of 10,000 accounts: a real nats-server with that many
# JetStream accounts, MQTT streams made by real MQTT sessions (FleetSetup); prints the longest event-loop stall per
# phase (loading, typing into the account filter, re-sorting, refreshing) and the time to the full
# tree. Offscreen; no assertion.
add_executable(bench_guifleet bench_guifleet.cpp stallmeter.cpp stallmeter.h)
mqttdoctor_set_warnings(bench_guifleet)
set_target_properties(bench_guifleet PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
target_link_libraries(bench_guifleet PRIVATE mqttdoctor_ui mqttdoctor_testsupport)
