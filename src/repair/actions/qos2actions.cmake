# The QoS 2 record repair actions (actionfamilies.h).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/repair/actions/qos2actions.cpp
)
