# Fast, read-only loading of whole JetStream streams (ordered consumers, pipelined MSG.GET).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreader.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreader.h
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreaderdirectget.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreaderstate.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreadersupport.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/streamreadersupport.h
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/natsmessagecopy.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/natsmessagecopy.h
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/jsackreply.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/nats/jsackreply.h
)
