# mqttdoctor_add_test(NAME SOURCES ... LIBRARIES ... LABELS unit|integration|gui [TIMEOUT s])
# One executable per class or feature, linked against the libraries (never recompiling sources).
function(mqttdoctor_add_test name)
    cmake_parse_arguments(arg "" "TIMEOUT;COST" "SOURCES;LIBRARIES;LABELS" ${ARGN})
    if(NOT arg_TIMEOUT)
        set(arg_TIMEOUT 120)
    endif()
    add_executable(${name} ${arg_SOURCES})
    mqttdoctor_set_warnings(${name})
    set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
    target_link_libraries(${name} PRIVATE Qt6::Test ${arg_LIBRARIES})
    if(COMMAND mqttdoctor_test_pch_for)
        mqttdoctor_test_pch_for(${name} ${arg_LIBRARIES})
    endif()
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES
        LABELS "${arg_LABELS}"
        TIMEOUT "${arg_TIMEOUT}"
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;MQTTDOCTOR_SOURCE_DIR=${PROJECT_SOURCE_DIR};MQTTDOCTOR_BINARY_DIR=${CMAKE_BINARY_DIR};MQTTDOCTOR_NATS_SERVERS_DIR=${CMAKE_BINARY_DIR}/nats-servers;${MQTTDOCTOR_SANITIZER_ENV}")
    # COST: the test's seconds in the ASan phase of a clean-clone run. ctest starts the costliest
    # first; a clean clone has no timing history, so the longest would otherwise start in file order
    # and the last of them run on alone at the end.
    if(arg_COST)
        set_tests_properties(${name} PROPERTIES COST "${arg_COST}")
    endif()
endfunction()
