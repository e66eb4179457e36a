"""The run viewer in a real browser: headless Chromium (Debian's ``chromium`` and
``chromium-driver``) driven by Selenium opens the pages from disk (``file://``), filters the
table, opens items and checks what is drawn.  Screenshots are written as test artefacts to
``$PLANETARIUM_ARTIFACTS`` (default: pytest's temporary directory; the path is printed).

Skipped when Chromium (or Selenium) is not installed, unless ``PLANETARIUM_REQUIRE_BROWSER=1``
(set by ``.ci/run``), which turns the skip into a failure so CI cannot pass without running it.
Selenium is imported in the fixture, not at the top: the vLLM environment, which has no Selenium,
collects this module too and must see no skip (``.ci/vllm-tests``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from viewer_fixtures import HOSTILE, graded_arb_run, graded_runs

from planetarium.viewer import build_viewer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
#: Selenium's locator strategies (``selenium.webdriver.common.by.By``), spelt out so this module
#: imports without Selenium.
CSS, ID, LINK, TAG = "css selector", "id", "link text", "tag name"


def _missing(why: str) -> None:
    if os.environ.get("PLANETARIUM_REQUIRE_BROWSER") == "1":
        pytest.fail(f"PLANETARIUM_REQUIRE_BROWSER=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    if not (CHROMIUM and CHROMEDRIVER):
        _missing("chromium and chromium-driver are not installed "
                 "(Debian: apt-get install chromium chromium-driver)")
    try:
        from selenium import webdriver
    except ImportError:
        _missing("selenium is not installed (pip install selenium; it is in the [dev] extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # for _no_console_errors
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 "--window-size=1400,1000", "--hide-scrollbars"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options,
                              service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def _no_console_errors(request):
    """Every test ends with an empty error console: a blocked inline script or style, a file
    the policy refused (a CSP violation is a console error), a script error."""
    yield
    if "browser" not in request.fixturenames:
        return
    errors = [entry["message"] for entry in request.getfixturevalue("browser").get_log("browser")
              if entry["level"] == "SEVERE"]
    assert not errors, errors


@pytest.fixture(scope="module")
def viewer(tmp_path_factory) -> Path:
    run_a, run_b = graded_runs(tmp_path_factory.mktemp("runs"))
    return build_viewer([run_a, run_b], tmp_path_factory.mktemp("view"))


@pytest.fixture(scope="module")
def artefacts(tmp_path_factory) -> Path:
    folder = Path(os.environ.get("PLANETARIUM_ARTIFACTS") or tmp_path_factory.mktemp("screens"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nviewer screenshots: {folder}")
    return folder


def _screenshot(driver, path: Path) -> None:
    """The whole page, not just the window."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1400, min(max(height, 600), 6000))
    driver.save_screenshot(str(path))
    driver.set_window_size(1400, 1000)


def _choose(driver, select_id: str, text: str) -> None:
    """Pick an option of a ``<select>`` as a user would (Selenium's Select helper)."""
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(ID, select_id)).select_by_visible_text(text)


def _visible_ids(driver) -> list[str]:
    return [row.find_element(CSS, "td a").text
            for row in driver.find_elements(CSS, "#items tbody tr")
            if row.is_displayed()]


def test_filter_the_table(browser, viewer, artefacts):
    browser.get(viewer.as_uri())
    assert browser.title == "Planetarium run viewer"
    count = browser.find_element(ID, "count")
    assert count.text == "7 of 7 items shown"
    headers = [th.text for th in browser.find_elements(CSS, "#items th")]
    assert "run-a: status" in headers and "run-b: status" in headers

    box = browser.find_element(ID, "filter-text")
    box.send_keys("gripper")
    assert _visible_ids(browser) == ["575", "601"]
    assert count.text == "2 of 7 items shown"
    box.clear()
    box.send_keys(" ")  # clear() fires no input event; a blank search matches everything
    assert len(_visible_ids(browser)) == 7

    _choose(browser, "filter-status", "not equivalent")
    assert _visible_ids(browser) == ["529", "575", "601", "821", "945"]  # either run
    _choose(browser, "filter-run", "run-b")
    assert _visible_ids(browser) == ["821"]  # run B erred on the floor tiles only
    _screenshot(browser, artefacts / "index-filtered.png")
    _choose(browser, "filter-error-category", "wrong-goal")
    assert _visible_ids(browser) == ["821"]
    _choose(browser, "filter-run", "any")
    _choose(browser, "filter-status", "any")
    _choose(browser, "filter-error-category", "init-differs")
    assert _visible_ids(browser) == ["575", "601", "945"]
    _choose(browser, "filter-error-category", "any")
    _choose(browser, "filter-agreement", "same status")  # both runs wrong on the floor tiles only
    assert _visible_ids(browser) == ["821"]


def test_open_an_item(browser, viewer, artefacts):
    browser.get(viewer.as_uri())
    browser.find_element(LINK, "529").click()
    assert browser.find_element(TAG, "h1").text == "Item 529"
    run_a, run_b = browser.find_elements(CSS, "section.run")
    assert run_a.find_element(CSS, ".status").text == "not equivalent"
    assert run_b.find_element(CSS, ".status").text == "correct"
    strict = run_a.find_element(CSS, "table.verdicts tr[data-key=strict]").text
    assert "fully specified goals differ" in strict
    # four pictures per run: ground truth and answer, initial state and goal
    assert len(run_a.find_elements(CSS, "svg.scene")) == 4
    missing = run_a.find_elements(CSS, "svg.scene [data-mark=missing]")
    extra = run_a.find_elements(CSS, "svg.scene [data-mark=extra]")
    assert missing and extra and all(m.is_displayed() for m in missing + extra)
    assert "(on b4 b1)" in {m.find_element(TAG, "title").get_attribute("textContent")
                            .split(" — ")[0] for m in missing}
    assert not run_b.find_elements(CSS, "svg.scene [data-mark]")  # nothing differs
    assert browser.find_element(ID, "legend").is_displayed()
    _screenshot(browser, artefacts / "item-blocksworld.png")


@pytest.mark.parametrize("item, domain", [("575", "gripper"), ("601", "gripper-renamed"),
                                          ("821", "floor-tile"), ("945", "rover")])
def test_every_domain_draws_its_differences(browser, viewer, artefacts, item, domain):
    browser.get(viewer.as_uri())
    browser.find_element(LINK, item).click()
    run_a = browser.find_elements(CSS, "section.run")[0]
    marks = run_a.find_elements(CSS, "svg.scene [data-mark]")
    assert {m.get_attribute("data-mark") for m in marks} == {"missing", "extra"}
    _screenshot(browser, artefacts / f"item-{domain}.png")


def test_hostile_answer_stays_text(browser, viewer, artefacts):
    browser.get(viewer.as_uri())
    browser.find_element(LINK, "541").click()
    assert browser.execute_script("return window.__pwned === undefined")
    answer = browser.find_elements(CSS, "section.run")[0]
    shown = answer.find_element(CSS, "pre.answer").get_attribute("textContent")
    # the text as written, its bidi controls shown as markers, not obeyed
    assert shown == HOSTILE.replace("\u202e", "⟨U+202E⟩").replace("\u202c", "⟨U+202C⟩") \
        .replace("\u2067", "⟨U+2067⟩").replace("\u2069", "⟨U+2069⟩")
    assert not browser.find_elements(CSS, "section.run img")
    _screenshot(browser, artefacts / "item-hostile.png")


def test_rover_labels_are_legible_at_default_zoom(browser, viewer):
    """Issue 31.8: waypoint labels were about 6 px.  Two runs side by side (the narrowest
    pictures) at 100% zoom: every label of the rover pictures renders at 10 px or more."""
    browser.get(viewer.as_uri())
    browser.find_element(LINK, "945").click()
    sizes = browser.execute_script(
        "return [...document.querySelectorAll('section.run svg.scene text')].map(t => "
        "[t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a]);")
    assert sizes and any(text.startswith("waypoint") for text, _ in sizes)
    small = [(text, round(px, 1)) for text, px in sizes if px < 10]
    assert small == [], small


def test_served_pages_work_under_the_header_policy(browser, viewer):
    """``eval view --serve``: the same pages over HTTP, with the policy also sent as a header;
    the filter script (a file) runs, nothing is blocked (the console stays clean)."""
    import threading

    from planetarium.viewer.cli import make_server

    server = make_server(viewer.parent, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        assert browser.find_element(ID, "count").text == "7 of 7 items shown"
        browser.find_element(ID, "filter-text").send_keys("gripper")
        assert _visible_ids(browser) == ["575", "601"]
        browser.find_element(LINK, "575").click()
        assert browser.find_element(TAG, "h1").text == "Item 575"
        assert browser.execute_script(
            "return getComputedStyle(document.body).fontFamily").startswith("system-ui")
    finally:
        server.shutdown()
        server.server_close()


def test_another_benchmarks_pages_run_under_the_policy(browser, tmp_path):
    """ARB's pages (a question, a prompt chat, states, an answer's fields, the reference) under
    the same policy: the index's filter script runs, nothing is blocked (the console stays
    clean), the hostile answer stays text with its bidi controls shown."""
    view = build_viewer([graded_arb_run(tmp_path)], tmp_path / "view")
    browser.get(view.as_uri())
    assert browser.find_element(ID, "count").text == "4 of 4 items shown"
    assert browser.execute_script(
        "return getComputedStyle(document.body).fontFamily").startswith("system-ui")
    links = [a.get_attribute("href") for a in browser.find_elements(CSS, "#items td a")]
    for link in links:
        browser.get(link)
        assert browser.find_elements(TAG, "h2") and browser.find_elements(CSS, "section.run")
    assert browser.execute_script("return window.__pwned === undefined")
    shown = browser.find_element(CSS, "section.run pre.answer").get_attribute("textContent")
    assert "⟨U+202E⟩(on b1 b2)⟨U+202C⟩" in shown and "<script>" in shown


@pytest.mark.parametrize("name", ["acpbench", "arb"])
def test_every_benchmarks_index_filters_and_item_pages(browser, tmp_path, artefacts, name):
    """ACPBench's and ARB's pages as a reader sees them: each filter once (ARB's question
    ``category`` facet filters its rows, no empty error-category column), the badges in the
    shared words, the expected answer under the answers; screenshots of the index and a page."""
    from viewer_fixtures import graded_acp_run

    run = graded_acp_run(tmp_path) if name == "acpbench" else graded_arb_run(tmp_path)
    view = build_viewer([run], tmp_path / "view")
    browser.get(view.as_uri())
    labels = [el.text for el in browser.find_elements(CSS, "form.filters label span")]
    assert len(labels) == len(set(labels)) and "error category" not in labels
    shown = browser.find_element(ID, "count").text
    facet = "kind" if name == "acpbench" else "category"
    value = "mcq" if name == "acpbench" else "fluent_tracking"
    _choose(browser, f"filter-{facet}", value)
    assert browser.find_element(ID, "count").text != "0 of" and all(
        row.get_attribute(f"data-{facet}") == value
        for row in browser.find_elements(CSS, "#items tbody tr") if row.is_displayed())
    _screenshot(browser, artefacts / f"index-{name}.png")
    _choose(browser, f"filter-{facet}", "any")
    assert browser.find_element(ID, "count").text == shown
    links = browser.find_elements(CSS, "#items td a")
    next(a for a in links if a.text.startswith("mcq/") or name == "arb").click()
    headings = [h.text for h in browser.find_elements(TAG, "h2")]
    assert "Reference answer" in headings, headings
    _screenshot(browser, artefacts / f"item-{name}.png")
