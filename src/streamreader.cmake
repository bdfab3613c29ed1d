# Fast, read-only loading of whole JetStream streams (ordered consumers, pipelined MSG.GET).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreader.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreader.h
)
