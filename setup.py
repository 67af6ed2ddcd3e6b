"""Build of the optional compiled core (``rouge_full_metric._core``).

Everything else about the package lives in pyproject.toml.  The extension is plain C through
setuptools, so ``pip install .`` needs nothing but the machine's C compiler; when there is none,
or the build fails for any reason, the package installs as pure Python with a warning and gives
identical results (more slowly).  ``ROUGE_FULL_METRIC_NO_EXTENSION=1`` skips the build;
``ROUGE_FULL_METRIC_REQUIRE_EXTENSION=1`` (release wheels, pyproject's [tool.cibuildwheel]) makes a
failed build an error instead, so that no wheel ships without its core.
"""
import glob
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    """build_ext that turns a failed compile into a warning (the pure-Python engine remains)."""

    def run(self):
        try:
            super().run()
        except Exception as error:  # no compiler, missing headers, ...
            self._warn(error)

    def build_extension(self, ext):
        if self.compiler.compiler_type == "unix":
            # -ffp-contract=off: fused multiply-adds (the default on aarch64/ppc) would change the
            # last bit of ROUGE-W and F, which must equal the pure-Python engine's.
            ext.extra_compile_args = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99",
                                      "-Wno-unused-parameter"]
        elif self.compiler.compiler_type == "msvc":
            ext.extra_compile_args = ["/O2", "/fp:precise"]
        try:
            super().build_extension(ext)
        except Exception as error:
            self._warn(error)

    @staticmethod
    def _warn(error):
        if REQUIRED:
            raise error
        sys.stderr.write("\nWARNING: rouge_full_metric's compiled core could not be built (%s); "
                         "installing the pure-Python engine, which gives identical results more "
                         "slowly.\n\n" % (error,))


REQUIRED = os.environ.get("ROUGE_FULL_METRIC_REQUIRE_EXTENSION") == "1"
extensions = []
if os.environ.get("ROUGE_FULL_METRIC_NO_EXTENSION") != "1":
    extensions.append(Extension("rouge_full_metric._core", ["rouge_full_metric/csrc/_core.c"], optional=not REQUIRED,
                                depends=sorted(glob.glob("rouge_full_metric/csrc/*"))))

setup(ext_modules=extensions, cmdclass={"build_ext": OptionalBuildExt})
