# Included at the end of llama.cpp's own project() call (CMAKE_PROJECT_llama.cpp_INCLUDE, passed by
# `bash .ci/bootstrap engines` when it builds llama-cpp-python from its sdist).
#
# Why: llama-cpp-python 0.3.36 forces LLAMA_BUILD_COMMON ON in the cache (its CMakeLists.txt:71, `set(... CACHE BOOL
# ... FORCE)`), so -DLLAMA_BUILD_COMMON=OFF is overwritten. Yet the Python package loads only libllama and libggml*
# (llama_cpp/_ctypes_extensions.py:83, plus libmtmd, which is not built here): llama.cpp's common/ (52 of the 127
# objects: chat templates, jinja, argument parsing, with cpp-httplib) is built and installed for nothing. A normal
# variable set in llama.cpp's directory scope shadows that cache entry for this directory and below (CMP0077 is NEW
# under llama.cpp's cmake_minimum_required 3.14...3.28, so its option() keeps it), and common/ is never added.
set(LLAMA_BUILD_COMMON OFF)
