"""scripts/realfix_priors.py on a small results file and a template directory made here.

Run: python3 tests/realfix/realfix_priors_test.py  (no mirrors, no network)
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "realfix_priors.py")

TEMPLATE = """\
id: generic.{name}
family: generic
summary: a test template
prior: {prior}
query: |
  (identifier) @x
"""

GUARD = """\
id: guard.skip
family: guard
summary: a test template with a symptom
prior: 0.8
symptoms:
  - type: AttributeError
query: |
  (identifier) @x
"""


def fix(split, counts, template=None):
    attempt = {"candidates": sum(counts.values()), "rank": 1 if template else None,
               "generated_by_template": counts}
    if template:
        attempt["template"] = template
    return {"id": "p-0", "split": split, "without_symptom": attempt, "with_symptom": attempt}


class RealfixPriorsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.templates = os.path.join(self.dir.name, "templates")
        os.makedirs(os.path.join(self.templates, "generic"))
        for name, prior in (("often", 0.2), ("never", 0.3), ("unseen", 0.4)):
            with open(os.path.join(self.templates, "generic", name + ".yaml"), "w") as out:
                out.write(TEMPLATE.format(name=name, prior=prior))
        os.makedirs(os.path.join(self.templates, "guard"))
        with open(os.path.join(self.templates, "guard", "skip.yaml"), "w") as out:
            out.write(GUARD)

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, results, *extra):
        path = os.path.join(self.dir.name, "results.json")
        with open(path, "w") as out:
            json.dump(results, out)
        return subprocess.run([sys.executable, SCRIPT, "--results", path, "--templates", self.templates, *extra],
                              capture_output=True, text=True)

    def prior_line(self, name, key="prior:", family="generic"):
        with open(os.path.join(self.templates, family, name + ".yaml")) as f:
            return next((line for line in f.read().splitlines() if line.startswith(key)), None)

    def test_precision_smoothed_towards_the_old_prior(self):
        results = {"split": "dev", "fixes": [
            fix("dev", {"generic.often": 3, "generic.never": 2}, "generic.often"),
            fix("dev", {"generic.often": 2, "generic.never": 3}, "generic.often"),
            # A test-split fix in the same file never counts.
            fix("test", {"generic.never": 50}, "generic.never"),
        ]}
        run = self.run_script(results)
        self.assertEqual(run.returncode, 0, run.stderr)
        # often: (2 + 5 * 0.2) / (5 + 5) = 0.3; never: (0 + 5 * 0.3) / (5 + 5) = 0.15.
        self.assertEqual(self.prior_line("often"), "prior: 0.3  # realfix dev: 2 of 5 candidates correct")
        self.assertEqual(self.prior_line("never"), "prior: 0.15  # realfix dev: 0 of 5 candidates correct")
        self.assertEqual(self.prior_line("unseen"), "prior: 0.4")

    def test_a_template_with_symptoms_gets_an_unmatched_prior(self):
        results = {"split": "dev", "fixes": [fix("dev", {"guard.skip": 15}, None)]}
        run = self.run_script(results)
        self.assertEqual(run.returncode, 0, run.stderr)
        # Its prior for a matching symptom stays; (0 + 5 * 0.8) / (15 + 5) = 0.2 without one.
        self.assertEqual(self.prior_line("skip", family="guard"), "prior: 0.8")
        self.assertEqual(self.prior_line("skip", "unmatched-prior:", "guard"),
                         "unmatched-prior: 0.2  # realfix dev: 0 of 15 candidates correct")
        # A second run smooths towards the unmatched prior it wrote: (0 + 5 * 0.2) / 20 = 0.05.
        run = self.run_script(results)
        self.assertEqual(self.prior_line("skip", "unmatched-prior:", "guard"),
                         "unmatched-prior: 0.05  # realfix dev: 0 of 15 candidates correct")

    def test_dry_run_changes_nothing(self):
        run = self.run_script({"split": "dev", "fixes": [fix("dev", {"generic.often": 4}, "generic.often")]},
                              "--dry-run")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("generic.often", run.stdout)
        self.assertEqual(self.prior_line("often"), "prior: 0.2")

    def test_refuses_the_test_split(self):
        run = self.run_script({"split": "test", "fixes": [fix("test", {"generic.often": 4}, "generic.often")]})
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("dev only", run.stderr)
        self.assertEqual(self.prior_line("often"), "prior: 0.2")

    def test_results_without_counts_are_an_error(self):
        old = {"split": "dev", "fixes": [{"id": "p-0", "split": "dev", "without_symptom": {"candidates": 3}}]}
        run = self.run_script(old)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("generated_by_template", run.stderr)


if __name__ == "__main__":
    unittest.main()
