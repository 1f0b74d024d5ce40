"""`bash .ci/bootstrap engines` builds only the libraries llama-cpp-python loads: `.ci/llama-cpp-libraries-only.cmake`,
included at the end of llama.cpp's `project()` (CMAKE_PROJECT_llama.cpp_INCLUDE), switches off llama.cpp's
`common/` although llama-cpp-python 0.3.36 forces LLAMA_BUILD_COMMON on in CMake's cache. Checked on a two-folder
CMake project with the same shape (no compiler: `NONE` languages), so that it runs without the 77 MB sdist; the
build it shortens was measured on the real one (docs/reference.md, "Engines": 127 → 74 objects)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ._budget import SUBPROCESS_BUDGET

ROOT = Path(__file__).resolve().parents[1]
# llama-cpp-python's CMakeLists.txt:71 and llama.cpp's CMakeLists.txt:1-2, :129 and :239-241, reduced to what
# decides whether common/ is added.
PARENT = """cmake_minimum_required(VERSION 3.21)
project(llama_cpp NONE)
set(LLAMA_BUILD_COMMON ON CACHE BOOL "Build llama.cpp common library" FORCE)
add_subdirectory(vendor/llama.cpp)
"""
VENDORED = """cmake_minimum_required(VERSION 3.14...3.28)
project("llama.cpp" NONE)
option(LLAMA_BUILD_COMMON "llama: build common utils library" OFF)
file(WRITE "${CMAKE_BINARY_DIR}/common-added.txt" "${LLAMA_BUILD_COMMON}")
"""


def _common_added(tmp_path: Path, hook: Path | None) -> str:
    source, build = tmp_path / "source", tmp_path / "build"
    (source / "vendor" / "llama.cpp").mkdir(parents=True)
    (source / "CMakeLists.txt").write_text(PARENT, encoding="utf-8")
    (source / "vendor" / "llama.cpp" / "CMakeLists.txt").write_text(VENDORED, encoding="utf-8")
    command = ["cmake", "-S", str(source), "-B", str(build)]
    if hook is not None:
        command.append(f"-DCMAKE_PROJECT_llama.cpp_INCLUDE={hook}")
    result = subprocess.run(command, capture_output=True, text=True, timeout=SUBPROCESS_BUDGET)
    assert result.returncode == 0, result.stderr
    return (build / "common-added.txt").read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_the_hook_switches_off_llama_cpp_common_that_the_parent_forces_on(tmp_path: Path) -> None:
    # Seen failing with the hook setting a cache entry instead, `set(LLAMA_BUILD_COMMON OFF CACHE BOOL "")`, which
    # the forced entry already there outranks (ON), and with an empty hook (ON).
    assert _common_added(tmp_path / "without", None) == "ON"
    assert _common_added(tmp_path / "with", ROOT / ".ci" / "llama-cpp-libraries-only.cmake") == "OFF"

