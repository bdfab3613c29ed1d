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
# Whole logs: read line by line, repeated lines grouped (explain --file, standard input).
target_sources(mqttdoctor_core PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/logreader.cpp ${CMAKE_CURRENT_SOURCE_DIR}/logreader.h
    ${CMAKE_CURRENT_SOURCE_DIR}/logvaluetally.cpp ${CMAKE_CURRENT_SOURCE_DIR}/logvaluetally.h
    ${CMAKE_CURRENT_SOURCE_DIR}/loggroup.cpp ${CMAKE_CURRENT_SOURCE_DIR}/loggroup.h
    ${CMAKE_CURRENT_SOURCE_DIR}/loggrouper.cpp ${CMAKE_CURRENT_SOURCE_DIR}/loggrouper.h
)
