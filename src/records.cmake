# MQTT records loaded from an account's streams: sessions joined with consumers and CONNZ, retained messages.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/records/sessionloader.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/sessionloader.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/sessionbatches.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/sessionbatches.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/retainedloader.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/retainedloader.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/decodepipeline.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/sessioninflight.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/sessioninflight.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/qos2records.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/qos2records.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/accountinflight.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/accountinflight.h
    ${CMAKE_CURRENT_SOURCE_DIR}/records/inflightreader.cpp ${CMAKE_CURRENT_SOURCE_DIR}/records/inflightreader.h
)
