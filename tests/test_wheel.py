"""The built wheel carries its pages: built from a copy of the checkout, installed into a fresh
virtualenv outside it, the app serves the calculator (with its stylesheet) and a ledger page
from the installed package alone.

Offline: the wheel is built with this venv's setuptools (``--no-build-isolation``) and
installed with ``--no-deps --no-index``; the new venv reaches the dependencies (Flask,
SQLAlchemy …) through a .pth file naming this venv's site-packages. Only paths are added, so
the .pth files there (the editable install of the checkout) are not run, and the new venv's
own site-packages, holding the wheel's webcalc, come first."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parent.parent

# what the wheel is built from: the package and its build files (no venv, caches or builds)
SOURCES = ("webcalc", "templates", "static", "pyproject.toml", "setup.py", "MANIFEST.in",
           "README.md")


def _copy_sources(dest: Path) -> None:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.egg-info", "build")
    for name in SOURCES:
        src = ROOT / name
        if not src.exists():
            continue
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=skip)
        else:
            shutil.copy2(src, dest / name)


def _run(args: list, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=600,
                          **kw)
    assert done.returncode == 0, (args, done.stdout[-3000:], done.stderr[-3000:])
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    src = work / "src"
    src.mkdir()
    _copy_sources(src)
    dist = work / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", dist, src], cwd=work)
    (built,) = dist.glob("webcalc-*.whl")
    return built


def test_the_wheel_holds_the_templates_and_static_files(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for rel in ("templates/index.html", "templates/ledger_new.html", "static/css/app.css",
                "static/js/app.js", "static/sw.js", "static/manifest.webmanifest"):
        assert f"webcalc/{rel}" in names, rel
    # the translations and the migrations are in as before
    assert "webcalc/translations/zh_Hans_CN/LC_MESSAGES/messages.mo" in names
    assert "webcalc/ledger/migrations/versions/0001_ledger.py" in names


SERVE = textwrap.dedent("""
    import json, re, sys
    import webcalc
    from webcalc import create_app

    app = create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "wheel-test"})
    client = app.test_client()
    out = {"package": webcalc.__file__, "templates": app.template_folder,
           "static": app.static_folder}
    page = client.get("/")
    html = page.get_data(as_text=True)
    css = re.search(r'<link rel="stylesheet" href="([^"]+app[^"]*\\.css)"', html)
    out["index"] = [page.status_code, 'id="hand"' in html, css.group(1) if css else None]
    if css:
        sheet = client.get(css.group(1))
        out["css"] = [sheet.status_code, sheet.mimetype, len(sheet.get_data())]
    ledger = client.get("/t/new")
    out["ledger"] = [ledger.status_code, "<form" in ledger.get_data(as_text=True)]
    print(json.dumps(out))
""")


def test_an_installed_wheel_serves_the_pages(wheel, tmp_path):
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps",
          "--no-index", wheel])
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "webcalc_test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DATABASE_URL")}
    done = _run([python, "-c", SERVE, f"sqlite:///{tmp_path / 'ledger.sqlite3'}"],
                cwd=elsewhere, env=env)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # the wheel's own package, pages and static files, nothing from the checkout
    for key in ("package", "templates", "static"):
        assert Path(out[key]).resolve().is_relative_to(venv.resolve()), out
    assert out["index"][:2] == [200, True], out
    assert out["index"][2] and out["css"][0] == 200 and out["css"][1] == "text/css", out
    assert out["css"][2] > 1000, out
    assert out["ledger"] == [200, True], out
