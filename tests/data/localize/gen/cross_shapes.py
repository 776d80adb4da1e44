"""Crosses sources and dressings that shapes/ does not pair (84 combinations) and scores top-1
for a smallfix binary: a check of the readers on inputs the corpus was not written around.

    /usr/bin/python3 tests/data/localize/gen/cross_shapes.py build/smallfix

Three combinations cannot be found from the text (a ZeroDivisionError or "process group not
initialized" line alone, only torch's innermost frame): they are expected misses.
"""
import itertools
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_shapes as m
from common import REPO, find_line
srcs = {
 'cfg': (m.cfg_key, m.CFG), 'zdiv': (m.zero_div, m.ZDIV), 'pg': (m.pg, m.PGS), 'lr': (m.lr, m.LRS),
 'six': (m.six, m.SIXS), 'kw': (m.kwarg, m.KW), 'wrong': (m.wrong, m.WRONGS),
}
dressers = {
 'rich60': lambda t: m.rich_box(m.at(t), width=60),
 'loguru': lambda t: m.loguru(m.at(t)),
 'ipy_old': lambda t: m.ipython(m.at(t), style='old'),
 'colab': lambda t: m.ipython(m.relocate(t, '/usr/local/lib/python3.10/dist-packages/fastzero'), style='colab'),
 'wrap72': lambda t: m.wrap(m.at(t), 72),
 'last1': lambda t: m.last_frames(m.at(t), 1),
 'nohead_conda': lambda t: m.drop_header(m.relocate(t, m.CONDA + '/fastzero')),
 'pipbox': lambda t: m.pip_box(m.at(t)),
 'onlyerr_title': lambda t: '## ' + m.exception_line(t),
 'ray_pid': lambda t: '\n'.join('(pid=777) ' + l for l in m.lines(m.at(t))),
 'quoted': lambda t: '\n'.join('> ' + l for l in m.lines(m.at(t))),
 'default_pfx': lambda t: '\n'.join('[default1]:' + l for l in m.lines(m.at(t))),
}
tot = ok = 0
for (sn, (fn, site)), (dn, d) in itertools.product(srcs.items(), dressers.items()):
    text = d(fn())
    Path(m.TMP, 'case.log').write_text(text)
    want = f"{site[0]}:{find_line(*site)}"
    p = subprocess.run([sys.argv[1], 'localize', '--repo', str(REPO), '--log', str(Path(m.TMP, 'case.log')), '--json'], capture_output=True, text=True)
    got = [f"{s['file']}:{s['line']}" for s in json.loads(p.stdout)['sites']] if p.returncode == 0 else [p.stderr.strip()[:80]]
    tot += 1; ok += bool(got) and got[0] == want
    if not got or got[0] != want: print('MISS', sn, dn, got[:2], 'want', want)
print(f'top-1 {ok}/{tot}')
