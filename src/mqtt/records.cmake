# MQTT record codecs: client-ID hash, topic mapping, session/retained/QoS2/PUBREL records.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/decodeerror.h
    ${CMAKE_CURRENT_SOURCE_DIR}/clientidhash.cpp ${CMAKE_CURRENT_SOURCE_DIR}/clientidhash.h
    ${CMAKE_CURRENT_SOURCE_DIR}/topicmapping.cpp ${CMAKE_CURRENT_SOURCE_DIR}/topicmapping.h
    ${CMAKE_CURRENT_SOURCE_DIR}/natsheaders.cpp ${CMAKE_CURRENT_SOURCE_DIR}/natsheaders.h
    ${CMAKE_CURRENT_SOURCE_DIR}/storedmessage.cpp ${CMAKE_CURRENT_SOURCE_DIR}/storedmessage.h
    ${CMAKE_CURRENT_SOURCE_DIR}/gojson.cpp ${CMAKE_CURRENT_SOURCE_DIR}/gojson.h
    ${CMAKE_CURRENT_SOURCE_DIR}/consumerconfigjson.cpp ${CMAKE_CURRENT_SOURCE_DIR}/consumerconfigjson.h
    ${CMAKE_CURRENT_SOURCE_DIR}/sessionrecord.cpp ${CMAKE_CURRENT_SOURCE_DIR}/sessionrecord.h
    ${CMAKE_CURRENT_SOURCE_DIR}/sessionrecordfast.cpp ${CMAKE_CURRENT_SOURCE_DIR}/sessionrecordfast.h
    ${CMAKE_CURRENT_SOURCE_DIR}/retainedrecord.cpp ${CMAKE_CURRENT_SOURCE_DIR}/retainedrecord.h
    ${CMAKE_CURRENT_SOURCE_DIR}/retainedrecordfast.cpp ${CMAKE_CURRENT_SOURCE_DIR}/retainedrecordfast.h
    ${CMAKE_CURRENT_SOURCE_DIR}/fastjson.h
    ${CMAKE_CURRENT_SOURCE_DIR}/inflightrecord.cpp ${CMAKE_CURRENT_SOURCE_DIR}/inflightrecord.h
    ${CMAKE_CURRENT_SOURCE_DIR}/payloadpreview.cpp ${CMAKE_CURRENT_SOURCE_DIR}/payloadpreview.h
)
