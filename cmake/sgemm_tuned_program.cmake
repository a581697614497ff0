# A program built from a header written by `sgemm-tune emit`, as tools/example and
# tools/bench_shapes are: include() this after project(), then
#   add_sgemm_tuned_program(TARGET SOURCE...)
# with -DSGEMM_TUNED_HEADER=/path/to/sgemm_tuned.h on the cmake command line.
set(SGEMM_TUNED_HEADER "" CACHE FILEPATH "Header written by sgemm-tune emit")
if(NOT EXISTS "${SGEMM_TUNED_HEADER}")
  message(FATAL_ERROR "set SGEMM_TUNED_HEADER to a header written by sgemm-tune emit")
endif()

# sgemm-tune's own tree, kernels only: none of the tuner's dependencies are needed.
set(SGEMM_TUNE_KERNELS_ONLY ON)
add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/.. sgemm-tune)
find_package(CUDAToolkit REQUIRED)

function(add_sgemm_tuned_program target)
  get_filename_component(tuned_dir "${SGEMM_TUNED_HEADER}" DIRECTORY)
  get_filename_component(tuned_name "${SGEMM_TUNED_HEADER}" NAME)
  add_executable(${target} ${ARGN})
  target_include_directories(${target} PRIVATE "${tuned_dir}")
  target_compile_definitions(${target} PRIVATE SGEMM_TUNED_HEADER="${tuned_name}")
  target_link_libraries(${target} PRIVATE sgemm_tune::kernels CUDA::cublas)
  # The kernels the header compiles from source, at the ptxas register usage level the
  # tuner compiles and times them at (tuner/compile/nvrtc_compiler.cpp says why 10).
  if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=--register-usage-level=10>)
  endif()
endfunction()
