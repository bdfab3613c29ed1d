# MQTT layouts per server version.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/serverversion.cpp ${CMAKE_CURRENT_SOURCE_DIR}/serverversion.h
    ${CMAKE_CURRENT_SOURCE_DIR}/mqttstreamspec.cpp ${CMAKE_CURRENT_SOURCE_DIR}/mqttstreamspec.h
    ${CMAKE_CURRENT_SOURCE_DIR}/mqttlayout.cpp ${CMAKE_CURRENT_SOURCE_DIR}/mqttlayout.h
    ${CMAKE_CURRENT_SOURCE_DIR}/layoutoptions.h
    ${CMAKE_CURRENT_SOURCE_DIR}/layoutchoice.cpp ${CMAKE_CURRENT_SOURCE_DIR}/layoutchoice.h
    ${CMAKE_CURRENT_SOURCE_DIR}/layouts.cpp ${CMAKE_CURRENT_SOURCE_DIR}/layouts.h
)
