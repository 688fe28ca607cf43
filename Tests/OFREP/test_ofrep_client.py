"""OFREP as OpenFeature's own client sees it: the OpenFeature Python SDK (`openfeature-sdk`) with its OFREP
provider (`openfeature-provider-ofrep`), both from PyPI, against `envscript ui` for a fresh home whose
start-up script stacks the overrides of the active container over a provider with targeting and a
JSON file. Run by scripts/test-ofrep."""

import json
import os
import shutil
import signal
import subprocess
import tempfile
import textwrap
import unittest
from pathlib import Path

from openfeature import api
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import ErrorCode
from openfeature.flag_evaluation import Reason
from openfeature.contrib.provider.ofrep import OFREPProvider

BINARY = os.environ["ENVSCRIPT_BINARY"]

START_UP_SCRIPT = textwrap.dedent("""\
    tweak.stack{
      tweak.overrides(),
      tweak.provider{ name = "rules", get = function(feature, variable, ctx)
        if feature == "checkout" and variable == "layout" then
          if ctx.country == "DE" and ctx.targetingKey then
            return {value = "new", variant = "on", reason = "TARGETING_MATCH"}
          end
          return {value = "old", variant = "off", reason = "DEFAULT"}
        end
      end },
      tweak.json("tweaks.json", "shipped"),
    }
    """)

TWEAKS = {
    "checkout": {"button_color": {"Value": "blue"}, "enabled": {"Value": True}},
    "pricing": {"ratio": {"Value": 2.0}, "count": {"Value": 3}},
    "ui": {"layout": {"Value": {"columns": 3}}},
}


class OFREPClientTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = Path(tempfile.mkdtemp(prefix="envscript-ofrep-"))
        cls.project = cls.scratch / "project"
        cls.project.mkdir()
        (cls.project / "envscript.lua").write_text(START_UP_SCRIPT)
        # 2.0 stays a double in the file only if written so: json.dumps writes 2.0.
        (cls.project / "tweaks.json").write_text(json.dumps(TWEAKS))
        cls.home = cls.scratch / "home"
        cls.server = subprocess.Popen(
            [BINARY, "ui", "--home", str(cls.home), "--port", "0"],
            cwd=cls.project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        address = None
        for line in cls.server.stdout:
            if line.startswith("Open "):
                address = line[len("Open "):].strip()
                break
        if address is None:
            raise RuntimeError("envscript ui printed no address: " + cls.server.stderr.read())
        cls.base, cls.token = address.split("/?token=")
        cls.client = cls.client_with_token(cls.token)

    @classmethod
    def client_with_token(cls, token):
        provider = OFREPProvider(cls.base, headers_factory=lambda: {"Authorization": f"Bearer {token}"})
        domain = f"envscript-{token[:6]}"
        api.set_provider(provider, domain)
        return api.get_client(domain)

    @classmethod
    def tearDownClass(cls):
        api.shutdown()
        cls.server.send_signal(signal.SIGINT)
        status = cls.server.wait(timeout=30)
        cls.server.stdout.close()
        cls.server.stderr.close()
        shutil.rmtree(cls.scratch, ignore_errors=True)
        if status != 0:
            raise AssertionError(f"envscript ui exited {status} after Ctrl-C")

    def cli(self, *arguments):
        subprocess.run([BINARY, *arguments, "--home", str(self.home)], cwd=self.project, check=True,
                       capture_output=True, text=True)

    def test_a_static_flag_of_each_type(self):
        color = self.client.get_string_details("checkout.button_color", "none")
        self.assertEqual((color.value, color.reason, color.error_code), ("blue", Reason.STATIC, None))
        self.assertTrue(self.client.get_boolean_value("checkout.enabled", False))
        self.assertEqual(self.client.get_integer_value("pricing.count", 0), 3)
        self.assertEqual(self.client.get_object_value("ui.layout", {}), {"columns": 3})

    def test_a_whole_double_is_read_as_a_float_not_an_integer(self):
        ratio = self.client.get_float_details("pricing.ratio", 0.5)
        self.assertEqual((ratio.value, ratio.error_code), (2.0, None))
        self.assertIsInstance(ratio.value, float)

    def test_the_context_chooses_the_variant(self):
        german = self.client.get_string_details(
            "checkout.layout", "x", EvaluationContext(targeting_key="user-1", attributes={"country": "DE"}))
        self.assertEqual((german.value, german.variant, german.reason), ("new", "on", Reason.TARGETING_MATCH))
        other = self.client.get_string_details(
            "checkout.layout", "x", EvaluationContext(targeting_key="user-2", attributes={"country": "FR"}))
        self.assertEqual((other.value, other.variant, other.reason), ("old", "off", Reason.DEFAULT))

    def test_a_missing_flag_and_a_wrong_type_give_the_default_with_the_error_code(self):
        missing = self.client.get_string_details("nothing.here", "fallback")
        self.assertEqual((missing.value, missing.error_code), ("fallback", ErrorCode.FLAG_NOT_FOUND))
        mistyped = self.client.get_integer_details("checkout.button_color", 7)
        self.assertEqual((mistyped.value, mistyped.error_code), (7, ErrorCode.TYPE_MISMATCH))

    def test_an_override_set_from_the_command_line_wins_for_everyone(self):
        self.cli("tweak", "set", "checkout", "layout", "forced")
        try:
            forced = self.client.get_string_details(
                "checkout.layout", "x", EvaluationContext(targeting_key="user-1", attributes={"country": "DE"}))
            self.assertEqual((forced.value, forced.reason), ("forced", Reason.STATIC))
        finally:
            self.cli("tweak", "delete", "checkout", "layout")

    def test_a_wrong_token_is_refused(self):
        stranger = self.client_with_token("not-the-token")
        answer = stranger.get_string_details("checkout.button_color", "fallback")
        self.assertEqual(answer.value, "fallback")
        self.assertEqual(answer.error_code, ErrorCode.GENERAL)


if __name__ == "__main__":
    unittest.main()
