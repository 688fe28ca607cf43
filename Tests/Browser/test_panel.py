"""Browser tests of the control panel: a real headless Chromium clicks and types through the page that
`envscript ui` serves for a fresh home, with the examples' start-up script (its flag stack, its state and
its hook that refuses to activate `Frozen`). Run by scripts/test-browser."""

import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
BINARY = os.environ["ENVSCRIPT_BINARY"]
APP_HELPER = os.environ["ENVSCRIPT_APP_HELPER"]
SCREENSHOTS = ROOT / ".build" / "panel-screenshots"


class PanelTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = Path(tempfile.mkdtemp(prefix="envscript-panel-"))
        cls.home = cls.scratch / "home"
        cls.server = subprocess.Popen(
            [BINARY, "ui", "--home", str(cls.home), "--port", "0"],
            cwd=EXAMPLES, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cls.address = None
        for line in cls.server.stdout:
            if line.startswith("Open "):
                cls.address = line[len("Open "):].strip()
                break
        if cls.address is None:
            raise RuntimeError("envscript ui printed no address: " + cls.server.stderr.read())
        cls.base = cls.address.split("/?")[0]
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900"):
            options.add_argument(argument)
        cls.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        # The printed address trades its token for a cookie and drops it from the address bar.
        cls.driver.get(cls.address)
        WebDriverWait(cls.driver, 15).until(lambda d: d.current_url == cls.base + "/")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.send_signal(signal.SIGINT)
        status = cls.server.wait(timeout=30)
        cls.server.stdout.close()
        cls.server.stderr.close()
        shutil.rmtree(cls.scratch, ignore_errors=True)
        if status != 0:
            raise AssertionError(f"envscript ui exited {status} after Ctrl-C")

    # MARK: Helpers

    def cli(self, *arguments):
        """Runs `envscript ARGUMENTS --home HOME` in the examples folder, as a user in a terminal would."""
        result = subprocess.run([BINARY, *arguments, "--home", str(self.home)], cwd=EXAMPLES,
                                capture_output=True, text=True, timeout=120)
        self.assertEqual(result.returncode, 0, result.stderr)
        return result.stdout

    def wait_until(self, condition, what, timeout=20):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1).until(lambda _: condition())
        except TimeoutException:
            self.fail(f"timed out waiting until {what}")

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def find_all(self, selector):
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def open_page(self, name):
        self.find(f"#nav-{name}").click()
        self.wait_until(lambda: self.find(f"#page-{name}").is_displayed(), f"the {name} page shows")

    def screenshot(self, name):
        self.driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))

    def active_container(self):
        return self.read('#containers-table tr[data-active="true"]', "data-name")

    def row(self, name):
        rows = self.find_all(f'#containers-table tr[data-name="{name}"]')
        return rows[0] if rows else None

    def create_container(self, name):
        self.open_page("containers")
        field = self.find("#create-name")
        field.clear()
        field.send_keys(name)
        self.find("#create-button").click()
        self.wait_until(lambda: self.row(name) is not None, f"{name} is listed")

    def flag(self, key):
        flags = self.find_all(f'.flag[data-key="{key}"]')
        return flags[0] if flags else None

    def read(self, selector, attribute=None):
        """An attribute (or the text) of the element matching `selector` as the page is now: read in one
        step, so a list the event stream re-renders meanwhile cannot leave a stale element behind."""
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]);"
            "return e === null ? null : (arguments[1] === null ? e.textContent : e.getAttribute(arguments[1]));",
            selector, attribute)

    def overridden(self, key):
        return self.read(f'.flag[data-key="{key}"]', "data-overridden")

    # MARK: Containers

    def test_create_and_activate_moves_the_active_marker(self):
        self.create_container("Debug")
        self.assertEqual(self.active_container(), "DEFAULT")
        self.find('button[aria-label="Activate Debug"]').click()
        self.wait_until(lambda: self.active_container() == "Debug", "Debug is marked active")
        self.assertEqual(self.find_all('#containers-table tr[data-name="DEFAULT"][data-active="false"]') != [], True)
        self.screenshot("containers")
        self.assertIn("Debug", self.cli("container", "list"))
        self.find('button[aria-label="Activate DEFAULT"]').click()
        self.wait_until(lambda: self.active_container() == "DEFAULT", "DEFAULT is active again")

    def test_a_hook_refusal_is_shown_and_nothing_moves(self):
        self.create_container("Frozen")
        before = self.active_container()
        self.find('button[aria-label="Activate Frozen"]').click()
        self.wait_until(lambda: "kept for the release check" in (self.read("#containers-message") or ""),
                        "the hook's message is shown")
        self.assertEqual(self.active_container(), before)
        self.screenshot("containers-refused")

    def test_a_name_taken_is_answered_next_to_the_field(self):
        self.open_page("containers")
        field = self.find("#create-name")
        field.clear()
        field.send_keys("DEFAULT")
        self.find("#create-button").click()
        self.wait_until(lambda: self.read("#create-error"), "an error is shown next to the field")
        self.assertIn("DEFAULT", self.read("#create-error"))
        self.assertEqual(len(self.find_all('#containers-table tr[data-name="DEFAULT"]')), 1)

    def test_a_switch_from_the_command_line_appears_without_a_reload(self):
        self.create_container("FromCLI")
        self.driver.execute_script("window.notReloaded = true")
        self.cli("container", "activate", "FromCLI")
        self.wait_until(lambda: self.active_container() == "FromCLI", "the switch made from the command line shows")
        self.assertTrue(self.driver.execute_script("return window.notReloaded === true"))
        self.cli("container", "activate", "DEFAULT")
        self.wait_until(lambda: self.active_container() == "DEFAULT", "the switch back shows")

    def test_containers_made_and_removed_from_the_command_line_appear_without_a_reload(self):
        self.open_page("containers")
        self.driver.execute_script("window.notReloaded = true")
        self.cli("container", "create", "FromTerminal")
        self.wait_until(lambda: self.row("FromTerminal") is not None, "the container made in a terminal is listed")
        self.cli("container", "update", "FromTerminal", "--name", "Renamed")
        self.wait_until(lambda: self.row("Renamed") is not None and self.row("FromTerminal") is None, "the new name shows")
        self.cli("container", "delete", "Renamed")
        self.wait_until(lambda: self.row("Renamed") is None, "the deleted container leaves the list")
        self.assertTrue(self.driver.execute_script("return window.notReloaded === true"))

    def test_info_shows_a_containers_size_on_disk(self):
        self.create_container("Measured")
        self.find('button[aria-label="Info Measured"]').click()
        self.wait_until(lambda: self.read('#container-info dd[data-field="size-on-disk"]'), "the size is shown")
        self.assertEqual(self.read('#container-info dd[data-field="size-on-disk"]'), "0 bytes in 0 entries")
        self.assertEqual(self.read("#container-info-title"), "Measured")
        self.find('button[aria-label="Info DEFAULT"]').click()
        self.wait_until(lambda: self.read("#container-info-title") == "DEFAULT"
                        and "in " in (self.read('#container-info dd[data-field="size-on-disk"]') or ""),
                        "DEFAULT's size is shown")
        self.assertNotEqual(self.read('#container-info dd[data-field="size-on-disk"]'), "0 bytes in 0 entries",
                            "DEFAULT holds the application's files")
        self.screenshot("container-info")
        self.find("#container-info-close").click()
        self.wait_until(lambda: not self.find("#container-info").is_displayed(), "the details close")

    def test_export_import_and_compare(self):
        self.open_page("containers")
        self.wait_until(lambda: self.row("DEFAULT") is not None, "the containers are listed")
        # The Export link answers a zip archive (read through the page, with its cookie).
        href = self.read('a[aria-label="Export DEFAULT"]', "href")
        answer = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch(arguments[0]).then(async r => done([r.status, r.headers.get('content-type'),"
            " Array.from(new Uint8Array(await r.arrayBuffer()).slice(0, 2))]));", href)
        self.assertEqual(answer, [200, "application/zip", [0x50, 0x4B]])

        archive = self.scratch / "shared.zip"
        self.cli("container", "export", "DEFAULT", "--output", str(archive))
        self.find("#import-file").send_keys(str(archive))
        name = self.find("#import-name")
        name.clear()
        name.send_keys("Imported copy")
        self.find("#import-button").click()
        self.wait_until(lambda: self.row("Imported copy") is not None, "the imported container is listed")
        self.assertEqual(self.read('#containers-table tr[data-name="Imported copy"]', "data-active"), "false")

        self.find('button[aria-label="Compare DEFAULT"]').click()
        self.wait_until(lambda: self.find("#container-diff").is_displayed(), "the comparison opens")
        Select(self.find("#diff-other")).select_by_visible_text("Imported copy")
        self.find("#diff-button").click()
        self.wait_until(lambda: self.read("#diff-summary") == "No differences between DEFAULT and Imported copy",
                        "a fresh import is the same as its source")
        self.cli("tweak", "set", "checkout", "button_color", "purple")
        try:
            self.find("#diff-button").click()
            self.wait_until(lambda: "difference" in (self.read("#diff-summary") or "")
                            and "tweak checkout.button_color" in (self.read("#diff-lines") or ""),
                            "the override set since shows as a difference")
            self.screenshot("containers-compare")
        finally:
            self.cli("tweak", "delete", "checkout", "button_color")

    def test_a_damaged_archive_is_refused_next_to_the_field(self):
        self.open_page("containers")
        damaged = self.scratch / "damaged.zip"
        damaged.write_bytes(b"PK not really a zip")
        self.find("#import-file").send_keys(str(damaged))
        self.find("#import-button").click()
        self.wait_until(lambda: "truncated or damaged" in (self.read("#import-error") or ""), "the refusal is shown")
        self.assertNotIn("not really", self.read("#import-error"))

    # MARK: An application attached to the home

    def test_the_panel_follows_an_application_attached_to_the_home(self):
        self.wait_until(lambda: self.read("#shows") == "the home (no application attached)", "the home is shown")
        folder = self.scratch / "app"
        folder.mkdir(exist_ok=True)
        (folder / "app.lua").write_text("state.memory('cart.count', 3)\n")
        application = subprocess.Popen([APP_HELPER, str(self.home), str(folder / "app.lua"), str(folder)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.wait_until(lambda: (folder / "ready").exists(), "the application is running", timeout=60)
            self.open_page("state")
            self.wait_until(lambda: self.read("#shows") == f"AttachedHostHelper (pid {application.pid})",
                            "the page says it shows the application")
            self.wait_until(lambda: self.read('#state-table tr[data-key="cart.count"]'),
                            "the application's state in memory is listed")
            self.assertIn("3", self.read('#state-table tr[data-key="cart.count"]'))
            self.screenshot("state-of-an-application")
        finally:
            application.kill()
            application.wait(timeout=30)
        self.wait_until(lambda: self.read("#shows") == "the home (no application attached)",
                        "the page goes back to the home once the application is gone")
        self.wait_until(lambda: not self.read('#state-table tr[data-key="cart.count"]'), "its state leaves the page")

    def test_reload_shows_what_came_into_force_and_why_a_broken_script_was_kept(self):
        self.wait_until(lambda: self.read("#shows") == "the home (no application attached)", "the home is shown")
        self.find("#reload-scripts").click()
        self.wait_until(lambda: self.read("#reload-outcome", "data-outcome") == "reloaded", "the panel's host reloads")
        self.assertIn("Reloaded 1 start-up script", self.read("#reload-outcome"))
        self.assertIn("providers: overrides, rules, shipped", self.read("#reload-outcome"))

        # An application whose start-up script breaks: it keeps its scripts, and the panel says where.
        folder = self.scratch / "reloading-app"
        folder.mkdir(exist_ok=True)
        script = folder / "app.lua"
        script.write_text("state.memory('reloads.seen', 1)\n")
        application = subprocess.Popen([APP_HELPER, str(self.home), str(script), str(folder)],
                                       env={**os.environ, "ENVSCRIPT_HELPER_STARTUP": "1"},
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.wait_until(lambda: (folder / "ready").exists(), "the application is running", timeout=60)
            self.wait_until(lambda: self.read("#shows") == f"AttachedHostHelper (pid {application.pid})",
                            "the page shows the application")
            script.write_text("state.memory('reloads.seen', 1)\nerror('broken on purpose')\n")
            self.find("#reload-scripts").click()
            self.wait_until(lambda: self.read("#reload-outcome", "data-outcome") == "kept", "the reload is refused")
            outcome = self.read("#reload-outcome")
            self.assertIn("app.lua:2:", outcome)
            self.assertIn("broken on purpose", outcome)
            self.screenshot("reload-kept-the-scripts")
        finally:
            application.kill()
            application.wait(timeout=30)
        self.wait_until(lambda: self.read("#shows") == "the home (no application attached)",
                        "the page goes back to the home once the application is gone")

    # MARK: Flags

    def test_an_override_is_set_and_removed(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("checkout/button_color") is not None, "the flags are listed")
        field = self.find("#flag-checkout-button_color")
        field.clear()
        field.send_keys("red")
        self.find('button[aria-label="Override checkout button_color"]').click()
        self.wait_until(lambda: self.overridden("checkout/button_color") == "true", "the flag is marked overridden")
        self.assertIn("from overrides", self.read('.flag[data-key="checkout/button_color"]'))
        self.assertIn('"red"', self.cli("tweak", "get", "checkout", "button_color", "--json"))
        self.screenshot("flags")
        self.find('button[aria-label="Remove override of checkout button_color"]').click()
        self.wait_until(lambda: self.overridden("checkout/button_color") == "false", "the override is gone")
        self.assertNotIn('"overrides"', self.cli("tweak", "get", "checkout", "button_color", "--json"))

    def test_remove_all_overrides_after_changes_from_the_command_line(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("checkout/button_color") is not None, "the flags are listed")
        self.driver.execute_script("window.notReloaded = true")
        self.cli("tweak", "set", "checkout", "button_color", "green")
        self.wait_until(lambda: self.overridden("checkout/button_color") == "true",
                        "the override made from the command line shows without a reload")
        self.assertTrue(self.driver.execute_script("return window.notReloaded === true"))
        self.driver.execute_script("window.confirm = () => true")
        self.find("#remove-all-overrides").click()
        self.wait_until(lambda: not self.find_all('.flag[data-overridden="true"]'), "no flag is overridden")
        self.assertNotIn('"overrides"', self.cli("tweak", "get", "checkout", "button_color", "--json"))

    def test_search_keeps_only_the_matching_flags(self):
        self.open_page("flags")
        self.wait_until(lambda: len(self.find_all(".flag-group")) > 1, "several features are listed")
        search = self.find("#flag-search")
        search.clear()
        search.send_keys("checkout")
        self.wait_until(lambda: self.driver.execute_script(
                            "return [...document.querySelectorAll('.flag-group')].map(g => g.dataset.feature)") == ["checkout"],
                        "only the checkout feature is left")
        search.clear()
        search.send_keys("no-such-flag")
        self.wait_until(lambda: not self.find_all(".flag"), "nothing is left")
        search.clear()
        search.send_keys(" ")
        search.clear()

    def test_flags_are_evaluated_for_the_context_typed_in(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("checkout/button_color") is not None, "the flags are listed")
        field = self.find("#flag-context")
        field.clear()
        field.send_keys('["not", "an object"]')
        self.find("#flag-context-evaluate").click()
        self.wait_until(lambda: "a context is a JSON object" in (self.read("#flag-context-error") or ""),
                        "a list is refused next to the field")
        field.clear()
        field.send_keys('{"targetingKey": "user-1", "country": "DE", "plan": "premium"}')
        self.find("#flag-context-evaluate").click()
        self.wait_until(lambda: self.read("#flag-checkout-button_color-in-context") == 'For this context: "blue", STATIC',
                        "the colour is shown for the context")
        # A rule of flags.flagd.json chooses for this user; the row itself shows the flag's default.
        self.assertEqual(self.read("#flag-checkout-express_pay-in-context"),
                         "For this context: true (variant on), TARGETING_MATCH")
        self.assertEqual(self.read("#flag-context-error"), "")
        # A feature's own switch is named by the feature alone in OFREP: it is found all the same.
        self.assertEqual(self.read("#flag-checkout-checkout-in-context"), "For this context: true, STATIC")
        self.screenshot("flags-in-context")
        # Emptied, the field takes the per-context lines away.
        field.clear()
        self.find("#flag-context-evaluate").click()
        self.wait_until(lambda: self.read("#flag-checkout-button_color-in-context") is None, "the context lines are gone")

    def test_a_number_that_is_not_one_is_answered_next_to_the_field(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("checkout/max_items") is not None, "the flags are listed")
        field = self.find("#flag-checkout-max_items")
        field.clear()
        field.send_keys("many")
        self.find('button[aria-label="Override checkout max_items"]').click()
        self.wait_until(lambda: "not a number" in (self.read("#flag-checkout-max_items-error") or ""),
                        "the error shows next to the field")
        self.assertEqual(self.overridden("checkout/max_items"), "false")

    def test_a_structured_flag_is_edited_as_json(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("checkout/layout") is not None, "the flags are listed")
        area = self.find("#flag-checkout-layout")
        self.assertEqual(area.tag_name, "textarea")
        self.assertIn('"columns": 3', area.get_attribute("value"))
        override = self.find('button[aria-label="Override checkout layout"]')
        area.clear()
        area.send_keys('{"columns": 1,')
        override.click()
        self.wait_until(lambda: "not valid JSON" in (self.read("#flag-checkout-layout-error") or ""),
                        "a parse error shows next to the field")
        area.clear()
        area.send_keys('[1, 2]')
        override.click()
        self.wait_until(lambda: "holds an object, not an array" in (self.read("#flag-checkout-layout-error") or ""),
                        "another shape is refused next to the field")
        self.assertEqual(self.overridden("checkout/layout"), "false")
        area = self.find("#flag-checkout-layout")
        area.clear()
        area.send_keys('{"columns": 1, "style": "list", "badges": []}')
        self.find('button[aria-label="Override checkout layout"]').click()
        self.wait_until(lambda: self.overridden("checkout/layout") == "true", "the structured override is set")
        self.assertIn('"style":"list"', self.cli("tweak", "get", "checkout", "layout"))
        self.screenshot("flags-structured")
        self.find('button[aria-label="Remove override of checkout layout"]').click()
        self.wait_until(lambda: self.overridden("checkout/layout") == "false", "the override is gone")

    def test_a_sealed_value_is_masked_until_revealed(self):
        self.open_page("flags")
        self.wait_until(lambda: self.flag("api/token") is not None, "the flags are listed")
        self.assertEqual(self.read("#flag-api-token"), "••••••")
        self.assertNotIn("demo-token-123", self.driver.page_source)
        self.find('button[aria-label="Reveal api token"]').click()
        self.wait_until(lambda: self.read("#flag-api-token") == "demo-token-123", "the value is revealed")

    def test_the_provider_stack_is_shown_highest_priority_first(self):
        self.open_page("flags")
        self.wait_until(lambda: self.find_all("#provider-stack li"), "the stack is listed")
        names = self.driver.execute_script(
            "return [...document.querySelectorAll('#provider-stack li')].map(item => item.dataset.provider)")
        self.assertEqual(names, ["overrides", "rules", "shipped"])
        self.assertIn("writable", self.read('#provider-stack li[data-provider="overrides"]'))

    # MARK: State

    def test_the_state_page_lists_the_declared_keys(self):
        self.open_page("state")
        self.wait_until(lambda: self.find_all('#state-table tr[data-key="session.user"]'), "session.user is listed")
        self.screenshot("state")

    # MARK: Scenarios (the examples folder's scenarios/, the default folder of `envscript ui`)

    def run_status(self):
        return self.read("#scenario-run-status") or ""

    def test_a_scenario_run_is_shown_live(self):
        self.open_page("scenarios")
        self.wait_until(lambda: self.find_all('#scenario-files li[data-file="debug_login.lua"]'), "the files are listed")
        files = self.driver.execute_script(
            "return [...document.querySelectorAll('#scenario-files li')].map(item => item.dataset.file)")
        self.assertEqual(files, ["busted_surface.lua", "debug_login.lua", "provider_priority.lua", "refusing_hook.lua",
                                 "sealed_secrets.lua", "targeting.lua"])
        containers_before = self.cli("container", "list")
        # A mark on the page: it is still there at the end only if the page never reloaded.
        self.driver.execute_script("window.stillTheSamePage = true")
        self.find('button[aria-label="Run debug_login.lua"]').click()
        self.wait_until(lambda: "2 passed, 0 failed" in self.run_status(), "the run ends with its summary")
        outcomes = self.driver.execute_script(
            "return [...document.querySelectorAll('#scenario-results tbody tr')].map(row => [row.dataset.name, row.dataset.outcome])")
        self.assertEqual(outcomes, [["a Debug login leaves the original session untouched", "passed"],
                                    ["a Debug login keeps the Debug login for next time", "passed"]])
        self.assertTrue(self.driver.execute_script("return window.stillTheSamePage === true"))
        self.screenshot("scenarios")
        # The run had a home of its own: the panel's home is as it was.
        self.assertEqual(self.cli("container", "list"), containers_before)

    def test_run_all_reports_passed_and_skipped_tests(self):
        self.open_page("scenarios")
        self.wait_until(lambda: not self.driver.execute_script(
            "return document.getElementById('run-all-scenarios').disabled"), "Run all can be pressed")
        self.find("#run-all-scenarios").click()
        self.wait_until(lambda: "30 passed, 0 failed, 2 skipped" in self.run_status(), "the run ends with its summary",
                        timeout=60)
        skipped = self.find_all('#scenario-results tr[data-outcome="skipped"]')
        self.assertEqual(len(skipped), 2)


if __name__ == "__main__":
    unittest.main()
