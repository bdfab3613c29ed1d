# The hardening flags Debian builds its packages with (dpkg-buildflags, as `hardening=+all` gives
# them): stack protector, format checks, _FORTIFY_SOURCE in optimised builds (it needs -O), read-only
# relocations bound at start, position-independent executables. Off in sanitizer trees, which have
# their own instrumentation.
option(MQTTDOCTOR_HARDENING "Build with Debian's hardening flags" ON)
if(MQTTDOCTOR_HARDENING AND NOT MQTTDOCTOR_SANITIZE)
    add_compile_options(-fstack-protector-strong -fstack-clash-protection -Wformat -Werror=format-security
                        "$<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=2>")
    add_link_options(-Wl,-z,relro -Wl,-z,now)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    include(CheckPIESupported)
    check_pie_supported()
endif()
