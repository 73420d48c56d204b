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
        runner = str(job.get("runs-on", ""))
        if runner.startswith("macos"):
            # Apple jobs run on the runner itself, with an Xcode that ships Swift 6.3.
            runs = [step["run"] for step in job.get("steps", []) if "run" in step]
            if not runs or "bash .ci/select-xcode.sh" not in runs[0]:
                problems.append(f"job {job_name}: a macOS job must first select Xcode with .ci/select-xcode.sh")
        else:
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
for needed in ["swift build", "swift test", "--sanitize=thread", "queue-fuzz run Scenarios/", "swift format lint",
               "bash .ci/availability.sh"]:
    if needed not in commands:
        problems.append(f"ci.yml: no step runs '{needed}'")
def job_commands(document, predicate):
    return [
        " ".join(step.get("run", "") for step in job.get("steps", []))
        for job in document["jobs"].values()
        if predicate(str(job.get("runs-on", "")))
    ]


macos_jobs = job_commands(ci, lambda runner: runner.startswith("macos"))
if not any(all(needed in run for needed in ["swift build", "swift test", "swift run queue-fuzz run Scenarios/"])
           for run in macos_jobs):
    problems.append("ci.yml: no macOS job runs swift build, swift test and swift run queue-fuzz run Scenarios/")
ios = [run for run in macos_jobs if "xcodebuild" in run]
if not ios or not all("build-for-testing" in run and "generic/platform=iOS Simulator" in run
                      and "-scheme swift-queue-harness-Package" in run for run in ios):
    problems.append("ci.yml: expected an xcodebuild build-for-testing of the package scheme for the iOS simulator")
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
print(
    f"check-workflows: ci.yml ({len(ci['jobs'])} jobs, {len(macos_jobs)} on macOS) and nightly.yml "
    f"({len(shards)} shards) parse and check out"
)
