"""A browser's OpenFeature provider against `envscript ui` and against an application's own OFREP
listener (HostConfiguration.ofrepListener): a page served from another origin (another port of
127.0.0.1, as a web app's dev server is) makes in headless Chromium the requests the OFREP web provider
makes — a preflight (its bearer header is not a simple one), the bulk POST with a context, and polling
with If-None-Match — reads a flag, sees an edit of the flag file within 2 s, and gets 304s while nothing
changes. Run by scripts/test-browser."""

import http.server
import json
import os
import shutil
import signal
import socketserver
import subprocess
import tempfile
import threading
import time
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

BINARY = os.environ["ENVSCRIPT_BINARY"]
APP_HELPER = os.environ["ENVSCRIPT_APP_HELPER"]

PAGE = """<!doctype html>
<html><body><pre id="log"></pre><script>
const query = new URLSearchParams(location.search);
const base = query.get('base'), token = query.get('token');
window.polls = [];
window.flag = null;
let etag = null;
async function poll() {
  const headers = {'Authorization': 'Bearer ' + token, 'Content-Type': 'application/json'};
  if (etag) headers['If-None-Match'] = etag;
  try {
    const answer = await fetch(base + '/ofrep/v1/evaluate/flags', {
      method: 'POST', headers, body: JSON.stringify({context: {targetingKey: 'user-1'}})});
    window.polls.push({status: answer.status, at: Date.now()});
    if (answer.status === 200) {
      etag = answer.headers.get('ETag');
      const body = await answer.json();
      const flag = body.flags.find(f => f.key === 'checkout.banner');
      window.flag = flag ? flag.value : null;
    }
  } catch (error) {
    window.polls.push({status: 'error ' + error, at: Date.now()});
  }
  setTimeout(poll, 200);
}
poll();
</script></body></html>
"""


def flags(banner):
    return json.dumps({"flags": {"checkout.banner": {
        "state": "ENABLED", "variants": {"shown": banner}, "defaultVariant": "shown"}}})


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


class PageServer(socketserver.ThreadingTCPServer):
    """Serves the page, one thread per connection: Chromium opens speculative connections it may leave
    idle, and a server that reads one connection at a time waits on such a socket until Chromium drops it
    (up to a minute) before it answers the page's own request."""
    daemon_threads = True


class PanelOFREPWebProviderTests(unittest.TestCase):
    """Against `envscript ui --allow-origin`."""

    def start_server(self, project, page_origin):
        """Starts the server for pages of `page_origin` on the flags of `project`; returns (base, token)."""
        self.server = subprocess.Popen(
            [BINARY, "ui", "--home", str(self.scratch / "home"), "--port", "0", "--allow-origin", page_origin],
            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for line in self.server.stdout:
            if line.startswith("Open "):
                return line[len("Open "):].strip().split("/?token=")
        raise RuntimeError("envscript ui printed no address: " + self.server.stderr.read())

    def stop_server(self):
        self.server.send_signal(signal.SIGINT)
        self.server.wait(timeout=30)
        self.server.stdout.close()
        self.server.stderr.close()

    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp(prefix="envscript-ofrep-web-"))
        project = self.scratch / "project"
        project.mkdir()
        (project / "flags.json").write_text(flags("v1"))
        (project / "envscript.lua").write_text("tweak.stack{ tweak.flagd('flags.json') }\n")
        self.flags_file = project / "flags.json"
        site = self.scratch / "site"
        site.mkdir()
        (site / "index.html").write_text(PAGE)
        handler = lambda *arguments: QuietHandler(*arguments, directory=str(site))
        self.site = PageServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self.site.serve_forever, daemon=True).start()
        page_origin = f"http://127.0.0.1:{self.site.server_address[1]}"
        self.page = page_origin + "/index.html"
        self.base, self.token = self.start_server(project, page_origin)
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium")
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
            options.add_argument(argument)
        self.driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)

    def tearDown(self):
        self.driver.quit()
        self.site.shutdown()
        self.site.server_close()
        self.stop_server()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def wait_until(self, condition, what, timeout):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(lambda _: condition())
        except TimeoutException:
            polls = self.driver.execute_script("return window.polls")
            self.fail(f"timed out waiting until {what}; polls: {polls[-10:]}")

    def flag(self):
        return self.driver.execute_script("return window.flag")

    def test_a_page_of_another_origin_reads_polls_and_sees_an_edit(self):
        self.driver.get(f"{self.page}?base={self.base}&token={self.token}")
        self.wait_until(lambda: self.flag() == "v1", "the page read the flag", timeout=15)
        # While nothing changes: 304s, and no error.
        time.sleep(1.5)
        polls = self.driver.execute_script("return window.polls")
        statuses = [poll["status"] for poll in polls]
        self.assertEqual(statuses[0], 200, statuses)
        self.assertGreaterEqual(statuses.count(304), 3, statuses)
        self.assertTrue(all(status in (200, 304) for status in statuses), statuses)
        # An edit of the flag file reaches the page within 2 s (the file is watched every second).
        edited = time.monotonic()
        self.flags_file.write_text(flags("v2"))
        self.wait_until(lambda: self.flag() == "v2", "the page saw the edit", timeout=2)
        self.assertLess(time.monotonic() - edited, 2.0)

    def test_a_page_of_an_origin_not_allowed_is_refused_at_the_preflight(self):
        other = PageServer(("127.0.0.1", 0), self.site.RequestHandlerClass)
        threading.Thread(target=other.serve_forever, daemon=True).start()
        try:
            self.driver.get(f"http://127.0.0.1:{other.server_address[1]}/index.html?base={self.base}&token={self.token}")
            self.wait_until(lambda: len(self.driver.execute_script("return window.polls")) >= 3, "the page polled", timeout=15)
            statuses = [poll["status"] for poll in self.driver.execute_script("return window.polls")]
            self.assertTrue(all(str(status).startswith("error") for status in statuses), statuses)
            self.assertIsNone(self.flag())
        finally:
            other.shutdown()
            other.server_close()


class ApplicationOFREPWebProviderTests(PanelOFREPWebProviderTests):
    """Against a running application's OFREP listener (the attached-host helper, which embeds
    EnvScriptHost with HostConfiguration.ofrepListener allowing the page's origin)."""

    def start_server(self, project, page_origin):
        (project / "host.lua").write_text((project / "envscript.lua").read_text())
        self.server = subprocess.Popen(
            [APP_HELPER, str(self.scratch / "home"), str(project / "host.lua"), str(project)],
            cwd=project, env={**os.environ, "ENVSCRIPT_HELPER_OFREP_ORIGIN": page_origin},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.helper_folder = project
        deadline = time.monotonic() + 60
        while not (project / "ready").exists():
            if self.server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the application did not start: " + self.server.stderr.read())
            time.sleep(0.02)
        port, token = (project / "ofrep").read_text().split()
        return f"http://127.0.0.1:{port}", token

    def stop_server(self):
        (self.helper_folder / "stop").touch()
        self.assertEqual(self.server.wait(timeout=30), 0)
        self.server.stderr.close()


if __name__ == "__main__":
    unittest.main()
