"""The Space in a real browser: Debian's headless Chromium, driven through chromedriver (selenium),
on the app as a Space runs it (``python app.py`` in the built Space, the installed package hidden,
so the compiled core has to come from the shipped C sources), served on 127.0.0.1.

The test types texts, clicks Score, reads the table's cells and compares them with
:class:`RougeScorer`; makes the tokenizer lose a text and checks the warning box; picks a language
in the menu by its name; asks for confidence intervals; and writes a screenshot
(``ROUGE_SPACE_SCREENSHOT=path`` also saves one there, e.g. card/screenshot.png).
"""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from test_space import PACKAGE, build

if not PACKAGE.is_dir():
    pytest.skip("the Space is built from the source tree, which is not here (tests run against an installed "
                "wheel; .ci/run runs this file in the source tree)", allow_module_level=True)

pytest.importorskip("gradio", reason="the Space's app needs gradio (pip install gradio)")
pytest.importorskip("selenium", reason="the browser test drives Chromium through selenium (pip install selenium)")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if not (CHROMIUM and CHROMEDRIVER):
    pytest.skip("headless Chromium is not installed (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

from rouge_full_metric import RougeScorer  # noqa: E402

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
START_TIMEOUT = 150   # compiling the core (~5-15 s) and importing gradio, on a busy machine
STEP_TIMEOUT = 30

# Runs `app.py` as a Space does, with the installed rouge_full_metric hidden: only the namespace
# that space_core.py builds under .core_build/ may be imported under that name.
_LAUNCHER = r"""
import importlib.abc, importlib.machinery, os, runpy, sys

BUILT = os.path.join(os.getcwd(), ".core_build")


class _OnlyTheSpaceCore(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "rouge_full_metric":
            spec = importlib.machinery.PathFinder.find_spec(name, [p for p in sys.path if p.startswith(BUILT)])
            if spec is None:
                raise ImportError("the installed package is hidden in this test")
            return spec
        return None


sys.meta_path.insert(0, _OnlyTheSpaceCore())
sys.argv = ["app.py"]
runpy.run_path("app.py", run_name="__main__")
"""


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    space = tmp_path_factory.mktemp("browser") / "space"
    build(space)
    port = _free_port()
    env = dict(os.environ)
    for name in ("PYTHONPATH", "ROUGE_FULL_METRIC_PURE_PYTHON", "HF_TOKEN", "HTTP_PROXY", "HTTPS_PROXY",
                 "http_proxy", "https_proxy"):
        env.pop(name, None)
    env.update(GRADIO_SERVER_NAME="127.0.0.1", GRADIO_SERVER_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False",
               HF_HOME=str(space.parent / "hf_home"), HF_HUB_OFFLINE="1", HF_EVALUATE_OFFLINE="1",
               NO_PROXY="127.0.0.1,localhost", PYTHONDONTWRITEBYTECODE="1")
    log = open(space.parent / "app.log", "w+")
    proc = subprocess.Popen([sys.executable, "-c", _LAUNCHER], cwd=str(space), env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    url = "http://127.0.0.1:%d/" % port
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                log.seek(0)
                pytest.fail("the app exited with %s:\n%s" % (proc.returncode, log.read()[-4000:]))
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                log.seek(0)
                pytest.fail("the app did not answer on %s within %d s:\n%s" % (url, START_TIMEOUT, log.read()[-4000:]))
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)
        log.close()


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # no sandbox: CI runs as root; every name but the loopback resolves to nothing (offline)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1500",
                     "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"):
        options.add_argument(argument)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    except WebDriverException as error:
        pytest.skip("Chromium does not start here: %s" % str(error).splitlines()[0])
    yield driver
    driver.quit()


def _wait(what, condition, timeout=STEP_TIMEOUT):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = condition()
        except WebDriverException as error:  # an element re-rendered under us: look again
            last = error
        else:
            if last:
                return last
        time.sleep(0.2)
    pytest.fail("timed out waiting for %s (last seen: %r)" % (what, last))


def _type(driver, css, text):
    # a tab's content renders after the page: wait for the box
    box = _wait(css, lambda: driver.find_elements(By.CSS_SELECTOR, css))[0]
    box.click()
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.DELETE)
    box.send_keys(text)


def _cells(driver):
    """{(rouge type, measure, stat): text} of the scores table."""
    return {(c.get_attribute("data-type"), c.get_attribute("data-measure"), c.get_attribute("data-stat")): c.text
            for c in driver.find_elements(By.CSS_SELECTOR, "#scores td[data-type]")}


def _expected_cells(scorer, predictions, references, stats=("mid",)):
    aggregate = scorer.score_corpus(predictions, references).aggregate
    return {(name, measure, stat): "%.5f" % getattr(getattr(agg, measure), stat)
            for name, agg in aggregate.items() for measure in ("precision", "recall", "fmeasure") for stat in stats}


def _score(driver, predictions, references, expected):
    _type(driver, "#predictions textarea", "\n".join(predictions))
    _type(driver, "#references textarea", "\n".join(" ||| ".join(refs) for refs in references))
    driver.find_element(By.CSS_SELECTOR, "#score-lines").click()
    _wait("the table to show %s" % sorted(expected.items())[:2], lambda: _cells(driver) == expected)


def _warning(driver):
    boxes = [b for b in driver.find_elements(By.CSS_SELECTOR, "#warnings .rfm-warning") if b.is_displayed()]
    return boxes[0] if boxes else None


def test_the_space_in_chromium(app_url, browser, tmp_path):
    started = time.monotonic()
    browser.get(app_url)
    _wait("the page's first table", lambda: browser.find_elements(By.CSS_SELECTOR, "#scores table"))
    engine = browser.find_element(By.CSS_SELECTOR, ".rfm-engine").text
    assert "compiled C core" in engine and "built at start-up" in engine, engine

    # English: the table equals RougeScorer's corpus scores, cell by cell
    predictions = ["the police killed the gunman after a siege", "heavy rain flooded the city"]
    references = [["police shot and killed the gunman", "the gunman was killed by police"],
                  ["floods hit the city after heavy rain"]]
    _score(browser, predictions, references, _expected_cells(RougeScorer(TYPES), predictions, references))
    assert _warning(browser) is None
    signature = browser.find_element(By.CSS_SELECTOR, "#signature textarea, #signature input")
    assert signature.get_attribute("value").startswith("flavor:rouge155|stem:no|")

    # Chinese without lang: the ASCII tokenizer loses the texts, and the page says so as a warning
    zh_predictions = ["北京大学的学生今天去了图书馆", "今天天气很好"]
    zh_references = [["北京的大学生今天在图书馆"], ["今天天气不错"]]
    _type(browser, "#predictions textarea", "\n".join(zh_predictions))
    _type(browser, "#references textarea", "\n".join(r[0] for r in zh_references))
    browser.find_element(By.CSS_SELECTOR, "#score-lines").click()
    box = _wait("the warning box", lambda: _warning(browser))
    assert box.get_attribute("role") == "alert"
    assert "lang='zh'" in box.text and "Chinese (simplified) — zh" in box.text, box.text
    style = browser.execute_script("var s = getComputedStyle(arguments[0]); "
                                   "return [s.backgroundColor, s.borderLeftColor, s.borderLeftWidth];", box)
    assert style == ["rgb(255, 247, 220)", "rgb(224, 161, 0)", "6px"], style   # amber, not a grey textbox

    # pick the language by its name in the menu, score again: no warning, RougeScorer(lang="zh")'s numbers
    menu = browser.find_element(By.CSS_SELECTOR, "#lang input")
    menu.click()
    menu.send_keys(Keys.CONTROL, "a")
    menu.send_keys("Chinese (simp")
    option = _wait("the menu's Chinese entry", lambda: browser.find_elements(
        By.CSS_SELECTOR, '#lang [role=option][aria-label="Chinese (simplified) — zh"]'))
    option[0].click()
    _wait("the menu to show the name", lambda: menu.get_attribute("value") == "Chinese (simplified) — zh")
    expected = _expected_cells(RougeScorer(TYPES, lang="zh"), zh_predictions, zh_references)
    assert expected != _cells(browser)
    browser.find_element(By.CSS_SELECTOR, "#score-lines").click()
    _wait("the Chinese scores", lambda: _cells(browser) == expected)
    _wait("the warning to go", lambda: _warning(browser) is None)
    assert "|lang:" in browser.find_element(By.CSS_SELECTOR, "#signature textarea, #signature input") \
        .get_attribute("value")

    # confidence intervals: low and high columns, RougeScorer's bootstrap
    browser.find_element(By.CSS_SELECTOR, "#confidence-intervals input").click()
    _score(browser, predictions[:1] + ["the cat sat on the mat"], references[:1] + [["a cat sat on the mat"]],
           _expected_cells(RougeScorer(TYPES, lang="zh"), predictions[:1] + ["the cat sat on the mat"],
                           references[:1] + [["a cat sat on the mat"]], ("mid", "low", "high")))
    headers = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#scores th")]
    assert headers[:4] == ["rouge type", "precision", "recall", "F-measure"]
    assert headers[4:7] == ["score", "low", "high"]

    # the page as it looks now (numbers with their interval): look at it
    browser.execute_script("window.scrollTo(0, 0)")
    shot = tmp_path / "space.png"
    assert browser.save_screenshot(str(shot))
    assert shot.stat().st_size > 10000
    if os.environ.get("ROUGE_SPACE_SCREENSHOT"):
        shutil.copyfile(shot, os.environ["ROUGE_SPACE_SCREENSHOT"])
    print("screenshot: %s (%.1f s in the browser)" % (shot, time.monotonic() - started))
