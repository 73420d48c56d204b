"""Checks the picture of the README's first failing test (100 tasks incrementing an actor): the
page's title states the failing expectation, the Counter actor has a lane holding the turns of
the 100 incrementing tasks and the root, each marked with its task, the tasks are folded, and the
schedule wraps."""
import re
import sys

html = open(sys.argv[1]).read()
title = re.search(r"<title>([^<]*)</title>", html).group(1)
if "Expectation failed: await counter.outOfOrder == 0" not in title:
    sys.exit(f"the page's title does not state the failing expectation: {title}")
if "see above" in html:
    sys.exit("the page refers to text it does not show")
lane = html.split('data-actor="actor Counter"')[1].split("</g>")[0]
turns = re.findall(r'<rect class="turn" data-turn-task="(\d+)"', lane)
if len(set(turns)) < 101:
    sys.exit(f"the Counter's lane holds the turns of {len(set(turns))} tasks, expected the 100 incrementing tasks and the root")
lanes = len(re.findall(r'<g data-task="', html)) + len(re.findall(r'<g data-folded="', html))
if lanes > 16:
    sys.exit(f"{lanes} lanes: the tasks were not folded")
if 'class="schedule"' not in html or "overflow-wrap: anywhere" not in html:
    sys.exit("the schedule does not wrap")
print(f"docs: the first test's picture has the Counter's lane with {len(set(turns))} tasks' turns, "
      f"{lanes} task lanes, and states the failure")
