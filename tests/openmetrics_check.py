#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# openmetrics_check.py [--prometheus] OUT DOC.json: OUT, stormark's --format
# openmetrics (or, with --prometheus, --format prometheus) of the result
# DOC.json, read with Prometheus' own parser of that format
# (python3-prometheus-client), then held against the document: OpenMetrics'
# "# EOF" last (the Prometheus format has none, nor UNIT lines), each
# family's unit the end of its name, no sample twice, the common labels
# (command, host, key, dir, device) on every sample, no verdict as a label,
# and the headline figures of the result's command equal to the document's
# (in base units: ns / 1e9 as seconds). One line per problem on stdout;
# exit 1 when any.
import json
import sys

args = sys.argv[1:]
prom = bool(args) and args[0] == '--prometheus'
if prom:
    args = args[1:]
    from prometheus_client.parser import text_string_to_metric_families
else:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families

text = open(args[0], encoding='utf-8').read()
doc = json.load(open(args[1]))
bad = []
NS = 1e9


def problem(msg):
    bad.append(msg)


if prom:
    if '# EOF' in text or '# UNIT' in text:
        problem('the Prometheus format has no "# EOF" and no "# UNIT"')
    # the Prometheus format has no info type: the info family is a gauge
    if '# TYPE stormark_result_info gauge\n' not in text:
        problem('stormark_result_info is not a gauge')
elif not text.endswith('# EOF\n') or text.count('# EOF') != 1:
    problem('"# EOF" is not the last line, alone')
try:
    fams = list(text_string_to_metric_families(text))
except Exception as e:  # the parser's own words
    print('the parser refused it: %s' % e)
    sys.exit(1)

samples = {}   # (name, frozenset(labels)) -> value
for f in fams:
    if f.unit and not f.name.endswith('_' + f.unit):
        problem('%s: unit %s is not the end of its name' % (f.name, f.unit))
    if f.type not in ('gauge', 'info', 'summary'):
        problem('%s: type %s' % (f.name, f.type))
    if not f.samples:
        problem('%s: a family with no sample' % f.name)
    for s in f.samples:
        if f.type != 'summary' and 'quantile' in s.labels:
            problem('%s: a quantile label outside a summary' % s.name)
        if 'verdict' in s.labels:
            problem('%s: a verdict as a label' % s.name)
        k = (s.name, frozenset(s.labels.items()))
        if k in samples:
            problem('%s%s: twice' % (s.name, s.labels))
        samples[k] = s.value

# the common labels
key = None
argv = doc['argv']
for i, a in enumerate(argv[1:], 1):
    if a == '--':
        break
    if a.startswith('--save='):
        key = a[7:]
        break
    if a == '--save' and i + 1 < len(argv):
        key = argv[i + 1]
        break
host = doc['environment'].get('host') or None
tested = doc.get('params', {}).get('dir') or doc.get('params', {}).get('path') or None
device = doc['environment'].get('device') or None
for (name, labels) in samples:
    lab = dict(labels)
    if lab.get('command') != doc['command']:
        problem('%s%s: command label is not %s' % (name, lab, doc['command']))
    if lab.get('host') != host:
        problem('%s%s: host label is not %r' % (name, lab, host))
    if lab.get('key') != key:
        problem('%s%s: key label is not %r' % (name, lab, key))
    if lab.get('dir') != tested:
        problem('%s%s: dir label is not %r' % (name, lab, tested))
    if lab.get('device') != device:
        problem('%s%s: device label is not %r' % (name, lab, device))
    if '_seconds' in name and not name.endswith(('_seconds', '_seconds_info', '_seconds_sum', '_seconds_count')):
        problem('%s: seconds not at the end' % name)


def want(name, value, **labels):
    """The sample name{labels} holds value (a figure the document has)."""
    if value is None:
        return
    found = [(lab, v) for (n, lab), v in samples.items()
             if n == name and all(dict(lab).get(k) == str(x) for k, x in labels.items())]
    if len(found) != 1:
        problem('%s%s: %d samples, wanted 1' % (name, labels, len(found)))
    elif found[0][1] != float(value):
        problem('%s%s: %r, the document says %r' % (name, labels, found[0][1], float(value)))


def ns(v):
    return None if v is None else v / NS


def cliff(c, **labels):
    """A cliff looked for: found 0/1, the burst and sustained rates."""
    if not c or not c.get('looked'):
        return
    want('stormark_cliff_found', int(c['found']), **labels)
    want('stormark_cliff_burst_bytes_per_second', c.get('burst_bytes_per_s'), **labels)
    want('stormark_cliff_sustained_bytes_per_second', c.get('sustained_bytes_per_s'), **labels)


def steady(st, **labels):
    """--steady: reached 0/1 and the rounds, by the figure judged."""
    if not st:
        return
    want('stormark_steady_reached', int(st['reached']), metric=st['metric'], **labels)
    want('stormark_steady_rounds', len(st['rounds']), metric=st['metric'], **labels)


QS = [('min', '0'), ('p50', '0.5'), ('p99', '0.99'), ('p99_9', '0.999'), ('max', '1')]

want('stormark_result_info', 1)
want('stormark_result_duration_seconds', ns(doc['duration_ns']))
want('stormark_result_warnings', len(doc['warnings']))
want('stormark_result_errors', len(doc['errors']))
want('stormark_result_interrupted', int(doc['interrupted']))
cmd = doc['command']
if cmd == 'frames':
    d = doc['params']['test']
    want('stormark_frames_throughput_bytes_per_second', doc['totals']['bytes_per_s'], direction=d)
    # the report's "Overall frame rate": a paced run's is the schedule's
    want('stormark_frames_rate_frames_per_second', doc['frames']['windows']['overall']['frames_per_s'],
         direction=d)
    lat = doc['ops']['frame']['lat_ns']
    for key_, q in QS:
        want('stormark_frames_frame_time_seconds', ns(lat[key_]), direction=d, quantile=q)
    want('stormark_frames_frame_time_mean_seconds', ns(lat['mean']), direction=d)
    if 'histogram' in lat:   # the summary's sum and count, from the histogram
        want('stormark_frames_frame_time_seconds_sum', ns(lat['histogram']['sum']), direction=d)
        want('stormark_frames_frame_time_seconds_count', sum(c[1] for c in lat['histogram']['counts']),
             direction=d)
    want('stormark_frames_dropped_frames', doc['frames']['dropped'], direction=d)
    want('stormark_frames_scheduled_frames', doc['frames']['scheduled'], direction=d)
    cliff(doc.get('cliff'), direction=d)
    if doc['params'].get('video_format'):
        want('stormark_frames_dropped_frames', doc['frames']['dropped'], format=doc['params']['video_format'])
elif cmd == 'fileio':
    m = doc['params']['test_mode']
    fi = doc['fileio']
    want('stormark_fileio_throughput_bytes_per_second', doc['totals']['bytes_per_s'], mode=m)
    for k, op in (('reads_per_s', 'read'), ('writes_per_s', 'write'), ('fsyncs_per_s', 'fsync'),
                  ('events_per_s', 'all')):
        want('stormark_fileio_ops_per_second', fi[k], mode=m, op=op)
    for op, o in doc['ops'].items():
        want('stormark_fileio_transferred_bytes', o['bytes'], op=op)
        for key_, q in QS:
            want('stormark_fileio_latency_seconds', ns(o['lat_ns'].get(key_)), op=op, quantile=q)
    for key_, q in QS:
        want('stormark_fileio_event_latency_seconds', ns(fi['event_lat_ns'].get(key_)), quantile=q)
    cliff(doc.get('cliff'), mode=m)
    steady(doc.get('steady'), mode=m)
elif cmd == 'run':
    VERDICTS = ['not-realtime', 'unconfirmed', 'marginal', 'realtime']
    r = doc['run']
    for c in r['classic']:
        for d in ('read', 'write'):
            if d not in c:
                continue
            want('stormark_run_block_throughput_bytes_per_second', c[d]['bytes_per_s'], test=c['test'], direction=d)
            want('stormark_run_block_ops_per_second', c[d]['iops'], test=c['test'], direction=d)
            want('stormark_run_block_latency_seconds', ns(c[d]['op']['lat_ns'].get('p99')),
                 test=c['test'], direction=d, quantile='0.99')
            steady(c[d].get('steady'), test=c['test'], direction=d)
    for f in r['frames']:
        for d in ('read', 'write'):
            if d in f:
                want('stormark_run_frames_rate_frames_per_second', f[d]['fps'], preset=f['preset'],
                     threads=f['threads'], direction=d)
                want('stormark_run_frames_frame_time_seconds', ns(f[d]['frame_ns']['p99']), preset=f['preset'],
                     threads=f['threads'], direction=d, quantile='0.99')
                cliff(f[d].get('cliff'), preset=f['preset'], threads=f['threads'], direction=d)
    cells = 0
    for v in r['verdicts']:
        for side, d in (('capture', 'capture'), ('playback', 'play')):
            for c in v[side]:
                cells += 1
                lab = dict(format=v['format'], direction=d, fps=c['fps'])
                want('stormark_run_verdict_ratio', c['ratio'], **lab)
                want('stormark_run_verdict', VERDICTS.index(c['verdict']), **lab)
                want('stormark_run_verdict_needed_bytes_per_second', c['needed_bytes_per_s'], **lab)
    if cells == 0 and r['verdicts']:
        problem('no verdict cell checked')
elif cmd == 'streams':
    for c in doc['streams']:
        d = {'playback': 'play'}.get(c['direction'], c['direction'])
        lab = dict(format=c['format'], fps=c['fps'], direction=d, kind=c['kind'])
        want('stormark_streams_max_streams', c['max_streams'], **lab)
        want('stormark_streams_max_headroom_streams', c['max_streams_headroom'], **lab)
        want('stormark_streams_stream_rate_bytes_per_second', c['rate_bytes_per_s'], **lab)
        want('stormark_streams_sustained_bytes_per_second', c.get('sustained_bytes_per_s'), **lab)
        if c['max_streams'] is not None:   # a capped answer is ">= N": at_cap says so
            want('stormark_streams_at_cap', int(c['at_cap']), **lab)
        want('stormark_streams_max_high_streams', c.get('max_streams_high'), **lab)
        t = c.get('trials')
        if t:
            want('stormark_streams_trials', t['at_answer'], step='answer', **lab)
            want('stormark_streams_held_trials', t['held_at_answer'], step='answer', **lab)
            want('stormark_streams_trials', t['at_failed'], step='failed', **lab)
            want('stormark_streams_held_trials', t['held_at_failed'], step='failed', **lab)
        cliff(c.get('cliff'), **lab)
    if 'mix' in doc:
        want('stormark_streams_mix_held', int(doc['mix']['held']))
        want('stormark_streams_mix_throughput_bytes_per_second', doc['mix']['total']['bytes_per_s'])
        for g in doc['mix']['groups']:
            want('stormark_streams_mix_group_held', int(g['held']), group=g['group'])
elif cmd == 'time':
    t = doc['time']
    want('stormark_time_runs', len(t['runs']))
    for fig, name, scale in (('wall_ns', 'wall_seconds', NS), ('user_ns', 'user_seconds', NS),
                             ('sys_ns', 'sys_seconds', NS), ('max_rss_bytes', 'max_rss_bytes', 1),
                             ('read_bytes', 'read_bytes', 1), ('write_bytes', 'write_bytes', 1)):
        st = t['stats'].get(fig)
        if st is None:
            continue
        for stat in ('mean', 'stddev', 'median', 'min', 'max'):
            if st.get(stat) is not None:
                want('stormark_time_' + name, st[stat] / scale, stat=stat)
    for fig, name, lab in (('syscalls', 'syscalls', {}), ('read_calls', 'io_calls', {'op': 'read'}),
                           ('write_calls', 'io_calls', {'op': 'write'}),
                           ('minor_faults', 'page_faults', {'kind': 'minor'}),
                           ('major_faults', 'page_faults', {'kind': 'major'}),
                           ('voluntary_ctxsw', 'context_switches', {'kind': 'voluntary'}),
                           ('involuntary_ctxsw', 'context_switches', {'kind': 'involuntary'}),
                           ('disk_read_ios', 'disk_ios', {'op': 'read'})):
        st = t['stats'].get(fig) or {}
        for stat in ('mean', 'max'):
            if st.get(stat) is not None:
                want('stormark_time_' + name, st[stat], stat=stat, **lab)
elif cmd == 'meta':
    for ph, o in doc['meta']['ops'].items():
        want('stormark_meta_ops_per_second', o['per_s'], phase=ph)
        want('stormark_meta_operations', o['count'], phase=ph)
        want('stormark_meta_op_errors', o['errors'], phase=ph)
        want('stormark_meta_phase_duration_seconds', ns(o['duration_ns']), phase=ph)
        for key_, q in QS:
            want('stormark_meta_latency_seconds', ns(o['lat_ns'].get(key_)), phase=ph, quantile=q)
if cmd == 'run' and 'meta' in doc['run']:
    rm = doc['run']['meta']
    for ph in ('create', 'stat', 'probe', 'list', 'delete'):
        want('stormark_run_meta_ops_per_second', rm[ph + '_per_s'], phase=ph)
    want('stormark_run_meta_sequence_seconds', ns(rm['sequence_list_ns']), phase='list')
if 'mpi' in doc:
    want('stormark_mpi_ranks', doc['mpi']['ranks_total'], state='total')
    want('stormark_mpi_throughput_bytes_per_second', doc['mpi']['bytes_per_s'])

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
