# Run at build time (cmake -P) by ui/CMakeLists.txt, and by the test ui_includes: the ui sub-libraries keep
# to their places in the link graph, as the core's layers do (CheckLayerIncludes.cmake).
#   ui/models       (mqttdoctor_models)       the core and models/; Qt Gui, no widgets
#   ui/controllers  (mqttdoctor_controllers)  the core, models/ and controllers/; no widgets (the TSan tree builds it
#                                             without Qt Widgets)
# Everything else in ui/ (dialogs, panels, widgets, settings, actions, the main window) may include all of them.
# Fails with each wrong include's file and line. UI: the ui/ folder; STAMP: touched when everything is in order.
cmake_minimum_required(VERSION 3.21)
set(ui_parts models controllers dialogs panels widgets settings actions)
set(allowed_models models)
set(allowed_controllers models controllers)
# Qt Widgets headers (and the modules that need widgets), as the core's check names them.
set(widget_include "#[ \t]*include[ \t]*<(QtWidgets|QtCharts|Q(Widget|Application|Dialog|MessageBox|MainWindow|Action|Menu|TreeView|TableView|AbstractItemView|Label|PushButton|LineEdit|Layout|HBoxLayout|VBoxLayout|Wizard|StyledItemDelegate)[>/])")

set(problems "")
foreach(part models controllers)
    file(GLOB_RECURSE files RELATIVE ${UI} ${UI}/${part}/*.h ${UI}/${part}/*.cpp)
    foreach(file IN LISTS files)
        file(STRINGS ${UI}/${file} lines REGEX "^[ \t]*#[ \t]*include")
        foreach(line IN LISTS lines)
            if(line MATCHES "#[ \t]*include[ \t]*\"([a-z]+)/")
                set(used ${CMAKE_MATCH_1})
                if(used IN_LIST ui_parts AND NOT used IN_LIST allowed_${part})
                    string(REPLACE ";" ", " may "${allowed_${part}}")
                    list(APPEND problems "ui/${file}: ${line} (ui/${part} may include ${may} and the core)")
                endif()
            elseif(line MATCHES "#[ \t]*include[ \t]*\"mainwindow\\.h\"")
                list(APPEND problems "ui/${file}: ${line} (ui/${part} may not include the main window)")
            elseif(line MATCHES "${widget_include}")
                list(APPEND problems "ui/${file}: ${line} (ui/${part} has no widgets)")
            endif()
        endforeach()
    endforeach()
endforeach()

if(problems)
    list(JOIN problems "\n  " text)
    message(FATAL_ERROR "Includes across the ui sub-libraries:\n  ${text}")
endif()
file(TOUCH ${STAMP})
