"""The GitHub workflows run .ci/run and nothing else: every step that runs a command runs
`bash .ci/run STAGE...` with stages the script has, the Linux jobs of ci.yml together run every
stage a CI run goes through, the Apple stages run on macOS runners, and the nightly workflow runs
the nightly stage in shards, uploading what it saves even when it fails.

Usage: workflow_stages.py "CI STAGES" "OTHER STAGES" (as `.ci/run --list` prints them)."""
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
ci_stages, other_stages = sys.argv[1].split(), sys.argv[2].split()
known = set(ci_stages) | set(other_stages)
ALLOWED_ACTIONS = {"actions/checkout@v4", "actions/upload-artifact@v4"}
problems = []


def jobs(name):
    with (ROOT / ".github" / "workflows" / name).open() as handle:
        document = yaml.safe_load(handle)
    if not isinstance(document, dict) or "jobs" not in document:
        problems.append(f"{name}: expected a mapping with 'jobs'")
        return document or {}, {}
    # YAML 1.1 reads the key `on` as the boolean true.
    document["on"] = document.get("on", document.get(True))
    return document, document["jobs"]


def stages_of(name, job_name, job):
    """The stages a job runs; every command step must be one `bash .ci/run STAGE...`."""
    ran = []
    for step in job.get("steps", []):
        uses = step.get("uses")
        if uses is not None:
            if uses not in ALLOWED_ACTIONS:
                problems.append(f"{name}, job {job_name}: unexpected action {uses!r}")
            continue
        words = str(step.get("run", "")).split()
        if words[:2] != ["bash", ".ci/run"] or len(words) < 3:
            problems.append(f"{name}, job {job_name}: a step runs {step.get('run')!r}, not stages of .ci/run")
            continue
        for stage in words[2:]:
            if stage not in known:
                problems.append(f"{name}, job {job_name}: no stage {stage!r} in .ci/run")
            ran.append(stage)
    return ran


ci, ci_jobs = jobs("ci.yml")
linux, apple = [], []
for job_name, job in ci_jobs.items():
    runner = str(job.get("runs-on", ""))
    ran = stages_of("ci.yml", job_name, job)
    if runner.startswith("macos"):
        apple += ran
    else:
        image = job.get("container")
        if not (isinstance(image, str) and image.startswith("swift:6.3")):
            problems.append(f"ci.yml, job {job_name}: container must be a Swift 6.3 toolchain image, found {image!r}")
        linux += ran
missing = [stage for stage in ci_stages if stage not in linux]
if missing:
    problems.append(f"ci.yml: no Linux job runs the stages {missing}")
for stage in ["apple", "ios"]:
    if stage not in apple:
        problems.append(f"ci.yml: no macOS job runs the {stage} stage")
if "push" not in (ci.get("on") or {}):
    problems.append("ci.yml: must run on push")

nightly, nightly_jobs = jobs("nightly.yml")
crons = [entry.get("cron") for entry in (nightly.get("on") or {}).get("schedule", [])]
if not crons or not all(isinstance(cron, str) and len(cron.split()) == 5 for cron in crons):
    problems.append(f"nightly.yml: expected a schedule with a five-field cron, found {crons!r}")
stress = nightly_jobs.get("stress", {})
if stages_of("nightly.yml", "stress", stress) != ["nightly"]:
    problems.append("nightly.yml: the stress job must run the nightly stage")
shards = stress.get("strategy", {}).get("matrix", {}).get("shard", [])
if len(shards) < 2 or sorted(shards) != list(range(1, len(shards) + 1)):
    problems.append(f"nightly.yml: expected a shard matrix 1...n, found {shards!r}")
environment = stress.get("env", {})
if environment.get("STRESS_SHARD") != f"${{{{ matrix.shard }}}}/{len(shards)}":
    problems.append(f"nightly.yml: STRESS_SHARD must be ${{{{ matrix.shard }}}}/{len(shards)}")
for variable in ["STRESS_DURATION", "STRESS_SEED"]:
    if variable not in environment:
        problems.append(f"nightly.yml: the stress job sets no {variable}")
uploads = [step for step in stress.get("steps", []) if str(step.get("uses", "")).startswith("actions/upload-artifact")]
if not uploads or "failures/" not in str(uploads[0].get("with", {}).get("path", "")) or uploads[0].get("if") != "always()":
    problems.append("nightly.yml: failures/ must be uploaded, even when stress fails (if: always())")

if problems:
    for problem in problems:
        print(f"workflows: {problem}", file=sys.stderr)
    sys.exit(1)
print(f"workflows: {len(ci_jobs)} CI jobs run all {len(ci_stages)} stages of .ci/run on Linux and the Apple "
      f"stages on macOS; the nightly stress runs in {len(shards)} shards")
