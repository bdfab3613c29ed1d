# GUI responsiveness while 100,000 sessions load into the sessions view (issue 6): prints the longest
# event-loop stall measured by a 5 ms timer (target < 50 ms). Offscreen; no assertion.
add_executable(bench_guiresponsiveness bench_guiresponsiveness.cpp benchdata.cpp benchdata.h)
mqttdoctor_set_warnings(bench_guiresponsiveness)
set_target_properties(bench_guiresponsiveness PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
target_link_libraries(bench_guiresponsiveness PRIVATE mqttdoctor_ui mqttdoctor_testsupport PkgConfig::NATS)
