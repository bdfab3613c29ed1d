# The stream repair actions (actionfamilies.h): create_stream, update_stream, resolve_overlap, recreate_stream.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/streamactions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/streamactionsupport.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/streamactionsupport.h
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/streamrecreate.cpp
)
