"""Checks that the GitHub workflows parse as YAML and do what the README says they do.

Run by .ci/run. Needs PyYAML (installed from PyPI by .ci/run when missing).
"""
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_ACTIONS = {"actions/checkout@v4", "actions/upload-artifact@v4"}
problems = []


def load(name):
    path = ROOT / ".github" / "workflows" / name
    with path.open() as handle:
        document = yaml.safe_load(handle)
    if not isinstance(document, dict) or "jobs" not in document:
        problems.append(f"{name}: expected a mapping with 'jobs'")
        return {}
    # YAML 1.1 reads the key `on` as the boolean true.
    document["on"] = document.get("on", document.get(True))
    return document


def steps(document):
    for job_name, job in document["jobs"].items():
        image = job.get("container")
        if not (isinstance(image, str) and image.startswith("swift:6.3")):
            problems.append(f"job {job_name}: container must be the Swift 6.3 toolchain image, found {image!r}")
        for step in job.get("steps", []):
            uses = step.get("uses")
            if uses is not None and uses not in ALLOWED_ACTIONS:
                problems.append(f"job {job_name}: unexpected action {uses!r}")
            yield job_name, job, step


ci = load("ci.yml")
nightly = load("nightly.yml")

commands = " ".join(step.get("run", "") for _, _, step in steps(ci))
for needed in ["swift build", "swift test", "--sanitize=thread", "queue-fuzz run Scenarios/", "swift format lint"]:
    if needed not in commands:
        problems.append(f"ci.yml: no step runs '{needed}'")
if "push" not in (ci.get("on") or {}):
    problems.append("ci.yml: must run on push")

triggers = nightly.get("on") or {}
crons = [entry.get("cron") for entry in triggers.get("schedule", [])]
if not crons or not all(isinstance(cron, str) and len(cron.split()) == 5 for cron in crons):
    problems.append(f"nightly.yml: expected a schedule with a five-field cron, found {crons!r}")
stress_job = nightly["jobs"].get("stress", {})
shards = stress_job.get("strategy", {}).get("matrix", {}).get("shard", [])
if len(shards) < 2 or sorted(shards) != list(range(1, len(shards) + 1)):
    problems.append(f"nightly.yml: expected a shard matrix 1...n, found {shards!r}")
nightly_steps = [step for _, _, step in steps(nightly)]
stress_runs = [step.get("run", "") for step in nightly_steps if "queue-fuzz stress" in step.get("run", "")]
if not stress_runs:
    problems.append("nightly.yml: no step runs 'queue-fuzz stress'")
for run in stress_runs:
    match = re.search(r"--shard \$\{\{ matrix\.shard \}\}/(\d+)", run)
    if not match or int(match.group(1)) != len(shards):
        problems.append(f"nightly.yml: stress must pass --shard ${{{{ matrix.shard }}}}/{len(shards)}: {run!r}")
    for option in ["--duration", "--seed", "--failures"]:
        if option not in run:
            problems.append(f"nightly.yml: stress step lacks {option}")
uploads = [step for step in nightly_steps if step.get("uses", "").startswith("actions/upload-artifact")]
if not uploads or "failures/" not in str(uploads[0].get("with", {}).get("path", "")):
    problems.append("nightly.yml: failures/ must be uploaded as an artifact")
if uploads and uploads[0].get("if") != "always()":
    problems.append("nightly.yml: the upload must run even when stress fails (if: always())")

if problems:
    for problem in problems:
        print(f"check-workflows: {problem}", file=sys.stderr)
    sys.exit(1)
print(f"check-workflows: ci.yml ({len(ci['jobs'])} jobs) and nightly.yml ({len(shards)} shards) parse and check out")
