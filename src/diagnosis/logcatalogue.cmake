# The log-line catalogue (explain): templates of nats-server MQTT messages, their matchers and meanings.
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/logline.cpp ${CMAKE_CURRENT_SOURCE_DIR}/logline.h
    ${CMAKE_CURRENT_SOURCE_DIR}/loglinematch.cpp ${CMAKE_CURRENT_SOURCE_DIR}/loglinematch.h
    ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogueentry.cpp ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogueentry.h
    ${CMAKE_CURRENT_SOURCE_DIR}/logcataloguecause.h
    ${CMAKE_CURRENT_SOURCE_DIR}/logcataloguedata.h
    ${CMAKE_CURRENT_SOURCE_DIR}/logcataloguesetup.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/logcataloguesessions.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogueretained.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogueother.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/logcataloguecauses.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogue.cpp ${CMAKE_CURRENT_SOURCE_DIR}/logcatalogue.h
)
