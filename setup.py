"""Build step only: the wheel carries templates/ and locales/ inside the package (configuration: pyproject.toml)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

#: Top-level folders of the repository that an installed rulesheets needs, copied to generator/<name>.
DATA_DIRS = ("templates", "locales")


class build_py_with_data(build_py):
    """Copies the data folders whole: a new locale folder travels without any listing of it."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, which has the folders already
        for name in DATA_DIRS:
            target = Path(self.build_lib, "generator", name)
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(name, target, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))


setup(cmdclass={"build_py": build_py_with_data})
