# CMake package for C and C++ projects that embed pto-mlir.
#
# From an installed tree (scripts/install.sh PREFIX):
#   find_package(PTOMLIR 0.1 REQUIRED CONFIG)   # with PREFIX in CMAKE_PREFIX_PATH
# From a checkout (built by scripts/setup.sh):
#   find_package(PTOMLIR 0.1 REQUIRED CONFIG PATHS <checkout>/cmake)
#   target_link_libraries(my-compiler PRIVATE PTOMLIR::pto_mlir)
#
# PTOMLIR::pto_mlir is libpto_mlir.so (the pl/pld dialects, their verifier,
# the passes and the C API in include/pto-c). It links LLVM/MLIR 22 shared
# (libMLIR.so, libMLIR-C.so); consumers must use the same MLIR, found here
# as MLIR 22 from /usr/lib/llvm-22. In a checkout, PTOMLIR_PROFILE selects
# the cargo profile directory (default: debug).
# Sets PTOMLIR_LIBRARY_DIR, PTOMLIR_INCLUDE_DIRS and PTOMLIR_VERSION.

include(CMakeFindDependencyMacro)
find_dependency(MLIR CONFIG PATHS /usr/lib/llvm-22/lib/cmake/mlir NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  set(PTOMLIR_FOUND FALSE)
  set(PTOMLIR_NOT_FOUND_MESSAGE "pto-mlir needs LLVM/MLIR 22, found ${LLVM_VERSION_MAJOR}")
  return()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/PTOMLIRConfigVersion.cmake")
set(PTOMLIR_VERSION "${PACKAGE_VERSION}")

if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/PTOMLIRVersion.cmake")
  # An installed tree: PREFIX/lib/cmake/PTOMLIR.
  get_filename_component(PTOMLIR_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  set(PTOMLIR_LIBRARY_DIR "${PTOMLIR_ROOT}/lib")
  set(_ptomlir_library "${PTOMLIR_LIBRARY_DIR}/libpto_mlir.so.${PTOMLIR_VERSION}")
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" _ptomlir_abi "${PTOMLIR_VERSION}")
  set(_ptomlir_soname "libpto_mlir.so.${_ptomlir_abi}")
  set(_ptomlir_missing "reinstall pto-mlir")
else()
  # A checkout: <checkout>/cmake, the libraries in target/<profile>.
  get_filename_component(PTOMLIR_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
  if(NOT DEFINED PTOMLIR_PROFILE)
    set(PTOMLIR_PROFILE debug)
  endif()
  set(PTOMLIR_LIBRARY_DIR "${PTOMLIR_ROOT}/target/${PTOMLIR_PROFILE}")
  set(_ptomlir_library "${PTOMLIR_LIBRARY_DIR}/libpto_mlir.so")
  set(_ptomlir_soname "libpto_mlir.so")
  set(_ptomlir_missing "run scripts/setup.sh in ${PTOMLIR_ROOT}")
endif()
set(PTOMLIR_INCLUDE_DIRS "${PTOMLIR_ROOT}/include" ${MLIR_INCLUDE_DIRS})

if(NOT EXISTS "${_ptomlir_library}")
  set(PTOMLIR_FOUND FALSE)
  set(PTOMLIR_NOT_FOUND_MESSAGE "${_ptomlir_library} is missing: ${_ptomlir_missing}")
  return()
endif()

if(NOT TARGET PTOMLIR::MLIR-C)
  add_library(PTOMLIR::MLIR-C SHARED IMPORTED)
  set_target_properties(PTOMLIR::MLIR-C PROPERTIES
    IMPORTED_LOCATION "${PTOMLIR_LIBRARY_DIR}/libMLIR-C.so"
    IMPORTED_SONAME "libMLIR-C.so")
endif()

if(NOT TARGET PTOMLIR::pto_mlir)
  add_library(PTOMLIR::pto_mlir SHARED IMPORTED)
  set_target_properties(PTOMLIR::pto_mlir PROPERTIES
    IMPORTED_LOCATION "${_ptomlir_library}"
    IMPORTED_SONAME "${_ptomlir_soname}"
    INTERFACE_INCLUDE_DIRECTORIES "${PTOMLIR_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "PTOMLIR::MLIR-C;MLIR")
endif()

set(PTOMLIR_FOUND TRUE)
