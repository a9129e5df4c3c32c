# The version of the PTOMLIR package: an installed tree's (written by
# scripts/install.sh next to this file), else the checkout's Cargo.toml
# workspace version. Before 1.0 a minor version may change the API, so a
# request for X.Y is met only by X.Y.*; from 1.0 on, by any later X.*.

if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/PTOMLIRVersion.cmake")
  include("${CMAKE_CURRENT_LIST_DIR}/PTOMLIRVersion.cmake")
else()
  file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../Cargo.toml" _ptomlir_line
       REGEX "^version = \"[0-9]+\\.[0-9]+\\.[0-9]+\"" LIMIT_COUNT 1)
  string(REGEX REPLACE "^version = \"([0-9.]+)\".*" "\\1" PTOMLIR_PACKAGE_VERSION "${_ptomlir_line}")
endif()
set(PACKAGE_VERSION "${PTOMLIR_PACKAGE_VERSION}")

set(PACKAGE_VERSION_COMPATIBLE FALSE)
set(PACKAGE_VERSION_EXACT FALSE)
if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION)
  string(REGEX MATCH "^[0-9]+" _major "${PACKAGE_VERSION}")
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _minor "${PACKAGE_VERSION}")
  if(_major STREQUAL "0")
    set(_want "${PACKAGE_FIND_VERSION_MAJOR}.${PACKAGE_FIND_VERSION_MINOR}")
    if(_minor STREQUAL _want)
      set(PACKAGE_VERSION_COMPATIBLE TRUE)
    endif()
  elseif(_major STREQUAL PACKAGE_FIND_VERSION_MAJOR)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
endif()
if(PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
