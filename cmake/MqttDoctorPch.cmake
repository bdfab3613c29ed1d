# Precompiled Qt headers (keep `make test` within its time budget on a 2-core machine).
# Parsing the Qt headers is most of the compile time of a TU at -O0; every multi-file target gets its
# own precompiled header, and the test executables (one TU each) share one through REUSE_FROM, which
# needs identical compile flags: mqttdoctor_add_test therefore links every non-GUI test against the
# same libraries. The PCH only adds headers; each file still includes what it uses.
option(MQTTDOCTOR_PCH "Precompile the Qt headers" ON)

set(MQTTDOCTOR_PCH_HEADERS
    <QByteArray> <QString> <QStringList> <QList> <QMap> <QHash> <QSet> <QVariant>
    <QJsonArray> <QJsonDocument> <QJsonObject> <QJsonValue>
    <QFile> <QFileInfo> <QDir> <QDateTime> <QRegularExpression> <QCoreApplication>
    <QFuture> <QThreadPool> <QMutex> <QElapsedTimer>
    <functional> <memory> <optional> <vector>)

# The GUI layers: models (Qt Gui) and widgets (Qt Widgets); the headers most of their files include.
set(MQTTDOCTOR_PCH_GUI_HEADERS
    <QAbstractItemModel> <QAbstractTableModel> <QSortFilterProxyModel> <QColor> <QBrush> <QFont>
    <QFontDatabase> <QIcon> <QPixmap> <QPainter> <QLocale> <QTimer> <QSettings>)
set(MQTTDOCTOR_PCH_WIDGET_HEADERS
    <QWidget> <QLabel> <QBoxLayout> <QFormLayout> <QPushButton> <QToolButton> <QSplitter> <QHeaderView>
    <QTableView> <QTreeView> <QTreeWidget> <QPlainTextEdit> <QTextBrowser> <QLineEdit> <QProgressBar>
    <QScrollBar> <QDialog> <QFileDialog> <QAction> <QStyle> <QFrame> <QWizardPage>)

function(mqttdoctor_use_pch target)
    if(MQTTDOCTOR_PCH AND TARGET ${target})
        target_precompile_headers(${target} PRIVATE ${MQTTDOCTOR_PCH_HEADERS} ${ARGN})
    endif()
endfunction()

function(mqttdoctor_reuse_pch target holder)
    if(MQTTDOCTOR_PCH AND TARGET ${target})
        target_precompile_headers(${target} REUSE_FROM ${holder})
    endif()
endfunction()

# AUTOMOC compiles <target>_autogen/mocs_compilation.cpp into every target; for a target whose moc
# output is included by its own .cpp files (every test, `#include "tst_x.moc"`) or that has no
# Q_OBJECT class (core, CLI, test support), that file is empty, and loading the precompiled header
# into it cost gcc about a second per target. Such targets compile it without the header.
function(mqttdoctor_pch_skip_moc_file target)
    if(MQTTDOCTOR_PCH AND TARGET ${target})
        get_target_property(bindir ${target} BINARY_DIR)
        set_source_files_properties(${bindir}/${target}_autogen/mocs_compilation.cpp TARGET_DIRECTORY ${target}
            PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
endfunction()

# The PCH holder of one folder's tests of one kind: a static library of one empty file with the
# tests' flags. Per folder, because Qt6::Test defines QT_TESTCASE_BUILDDIR/SOURCEDIR as the folder's
# paths. Kinds (LIBRARIES of mqttdoctor_add_test): core (non-GUI tests), models (GUI tests of the item
# models: Qt Gui, QTEST_MAIN makes a QGuiApplication) and widgets (GUI tests that link mqttdoctor_ui:
# QT_WIDGETS_LIB, a QApplication); a test gets the holder of its kind and links the same libraries.
function(mqttdoctor_test_pch_for target)
    if(NOT MQTTDOCTOR_PCH)
        return()
    endif()
    set(kind core)
    set(libraries mqttdoctor_core mqttdoctor_testsupport)
    set(headers <QTest> <QSignalSpy> <QTemporaryDir> <QProcess>)
    if("mqttdoctor_ui" IN_LIST ARGN OR "mqttdoctor_guiwindowsteps" IN_LIST ARGN)
        set(kind widgets)
        list(APPEND libraries mqttdoctor_ui)
        list(APPEND headers ${MQTTDOCTOR_PCH_GUI_HEADERS} ${MQTTDOCTOR_PCH_WIDGET_HEADERS} <QAbstractItemModelTester>)
    elseif("mqttdoctor_models" IN_LIST ARGN OR "mqttdoctor_controllers" IN_LIST ARGN)
        set(kind models)
        list(APPEND libraries mqttdoctor_controllers mqttdoctor_models)
        list(APPEND headers ${MQTTDOCTOR_PCH_GUI_HEADERS} <QAbstractItemModelTester>)
    endif()
    string(MAKE_C_IDENTIFIER "${CMAKE_CURRENT_SOURCE_DIR}" dir_id)
    string(MD5 dir_hash "${dir_id}")
    string(SUBSTRING "${dir_hash}" 0 8 dir_hash)
    set(holder mqttdoctor_testpch_${dir_hash})
    if(NOT kind STREQUAL "core")
        string(APPEND holder _${kind})
    endif()
    if(NOT TARGET ${holder})
        file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${holder}.cpp CONTENT "// holds the tests' precompiled header\n")
        add_library(${holder} STATIC ${CMAKE_CURRENT_BINARY_DIR}/${holder}.cpp)
        set_target_properties(${holder} PROPERTIES AUTOMOC OFF)
        mqttdoctor_set_warnings(${holder})
        target_link_libraries(${holder} PRIVATE Qt6::Test ${libraries})
        target_precompile_headers(${holder} PRIVATE ${MQTTDOCTOR_PCH_HEADERS} ${headers})
    endif()
    # Same libraries (hence flags) as the holder; static libraries add only what is used.
    target_link_libraries(${target} PRIVATE ${libraries})
    target_precompile_headers(${target} REUSE_FROM ${holder})
    mqttdoctor_pch_skip_moc_file(${target})
endfunction()

# Unity build of the core's layer libraries (the sanitizer trees, which compile it once more each): batches of
# files compiled as one. Files whose file-local names clash with another file's are compiled alone;
# a new clash shows as a "redefinition" error in build-asan/build-tsan: add the file here (or rename).
option(MQTTDOCTOR_UNITY_CORE "Compile the core library as a unity build" OFF)
set(MQTTDOCTOR_UNITY_SKIP
    repair/actions/sessionconsumeractions.cpp
    repair/actions/sessionmigrate.cpp
    nats/systemclient.cpp
    mqtt/retainedrecord.cpp
    nats/jetstreampublisher.cpp
    diagnosis/logcatalogue.cpp)

function(mqttdoctor_unity_core)
    if(NOT MQTTDOCTOR_UNITY_CORE)
        return()
    endif()
    foreach(layer IN LISTS MQTTDOCTOR_CORE_LAYERS)
        set_target_properties(mqttdoctor_${layer} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
    endforeach()
    foreach(file IN LISTS MQTTDOCTOR_UNITY_SKIP)
        string(REGEX MATCH "^[a-z]+" layer "${file}")
        set_source_files_properties(${PROJECT_SOURCE_DIR}/src/${file} DIRECTORY ${PROJECT_SOURCE_DIR}/src/${layer}
            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
    endforeach()
endfunction()
