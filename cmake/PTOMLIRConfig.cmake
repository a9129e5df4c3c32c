# CMake package for C and C++ projects that embed pto-mlir.
#
#   find_package(PTOMLIR REQUIRED CONFIG PATHS <pto-mlir checkout>/cmake)
#   target_link_libraries(my-compiler PRIVATE PTOMLIR::pto_mlir)
#
# PTOMLIR::pto_mlir is libpto_mlir.so (the pl/pld dialects, their verifier,
# the passes and the C API in include/pto-c), built by `scripts/setup.sh`.
# It links LLVM/MLIR 22 shared (libMLIR.so, libMLIR-C.so); consumers must
# use the same MLIR, found here as MLIR 22 from /usr/lib/llvm-22.
# PTOMLIR_PROFILE selects the cargo profile directory (default: debug).

include(CMakeFindDependencyMacro)
find_dependency(MLIR CONFIG PATHS /usr/lib/llvm-22/lib/cmake/mlir NO_DEFAULT_PATH)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  set(PTOMLIR_FOUND FALSE)
  set(PTOMLIR_NOT_FOUND_MESSAGE "pto-mlir needs LLVM/MLIR 22, found ${LLVM_VERSION_MAJOR}")
  return()
endif()

get_filename_component(PTOMLIR_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT DEFINED PTOMLIR_PROFILE)
  set(PTOMLIR_PROFILE debug)
endif()
set(PTOMLIR_LIBRARY_DIR "${PTOMLIR_ROOT}/target/${PTOMLIR_PROFILE}")
set(PTOMLIR_INCLUDE_DIRS "${PTOMLIR_ROOT}/include" ${MLIR_INCLUDE_DIRS})

if(NOT EXISTS "${PTOMLIR_LIBRARY_DIR}/libpto_mlir.so")
  set(PTOMLIR_FOUND FALSE)
  set(PTOMLIR_NOT_FOUND_MESSAGE
      "${PTOMLIR_LIBRARY_DIR}/libpto_mlir.so is missing: run scripts/setup.sh in ${PTOMLIR_ROOT}")
  return()
endif()

if(NOT TARGET PTOMLIR::MLIR-C)
  add_library(PTOMLIR::MLIR-C SHARED IMPORTED)
  set_target_properties(PTOMLIR::MLIR-C PROPERTIES
    IMPORTED_LOCATION "${PTOMLIR_LIBRARY_DIR}/libMLIR-C.so"
    IMPORTED_NO_SONAME FALSE)
endif()

if(NOT TARGET PTOMLIR::pto_mlir)
  add_library(PTOMLIR::pto_mlir SHARED IMPORTED)
  set_target_properties(PTOMLIR::pto_mlir PROPERTIES
    IMPORTED_LOCATION "${PTOMLIR_LIBRARY_DIR}/libpto_mlir.so"
    INTERFACE_INCLUDE_DIRECTORIES "${PTOMLIR_INCLUDE_DIRS}"
    INTERFACE_LINK_LIBRARIES "PTOMLIR::MLIR-C;MLIR")
endif()

set(PTOMLIR_FOUND TRUE)
